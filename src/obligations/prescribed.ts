/**
 * What a State prescribes to parties though a duty's own words name only the State or only the parties
 * (docs/obligations.md#extraction-rules, rules 11): release atoms read it from the lead-in a point
 * completes, and from a directive's passive "X shall be required to".
 */
import type { Unit } from "../canon/model.ts";
import { type AddresseeOf, addresseeOf } from "./addressee.ts";
import type { Atom } from "./atoms.ts";
import type { ObligationsCanon } from "./canon.ts";
import type { ActorMap } from "./taxonomy.ts";
import type { Held } from "./thing-trail.ts";

/** What these readings need of release atoms' context: the units, the actor map, the taxonomy, the rules. */
export interface UnitsRead {
  byNode: Map<string, Unit>;
  map: ActorMap;
  canon: Pick<ObligationsCanon, "taxonomy">;
  rules: number;
}

/**
 * Rules 11: a duty a State prescribes to parties though its words name only one of them:
 * - a point completing a State's lead-in binds the parties the lead-in prescribes conduct to: "The
 *   Member States or competent authorities shall require a payment institution … to safeguard all funds
 *   … in either of the following ways: (a) funds shall not be commingled …" (PSD2 Art 10(1));
 * - in a directive, "Companies shall be required to take the following appropriate measures" (CSDDD Art
 *   10(2)) is the passive of "Member States shall require companies to take …".
 */
export function prescribedByState(a: Atom, at: string, held: Held, h: UnitsRead): Held {
  const by = prescribedInLeadIn(a, at, held.holder, h) ?? requiredByDirective(a, at, held.holder, h);
  return by
    ? { types: [...new Set([...held.types, ...by.types, "member_state"])].sort(), holder: by.holder }
    : held;
}

/** "Companies shall be required to …" in a unit binding through national law, or in the lead-in it completes. */
function requiredByDirective(a: Atom, at: string, holder: AddresseeOf, h: UnitsRead): Held | undefined {
  const unit = h.byNode.get(a.node);
  if (holder.addressee !== "regulated_party" || unit?.binding !== "through national law") return undefined;
  const text = a.lead_in ? (h.byNode.get(a.lead_in)?.own_text ?? "") : a.quoted_text;
  if (!/^\s*shall\s+(?:also\s+)?be\s+required\s+to\b/u.test(after(text, a.actor) ?? "")) return undefined;
  const types = h.map.typesIn(a.actor, at, h.rules);
  return types.length > 0
    ? { types, holder: { addressee: "member_state", through_national_law: [...types].sort() } }
    : undefined;
}

function prescribedInLeadIn(a: Atom, at: string, holder: AddresseeOf, h: UnitsRead): Held | undefined {
  if (holder.addressee !== "member_state" || holder.through_national_law) return undefined;
  // A point that is a sentence of its own has no lead-in of record; its unit's parent still leads in.
  const point = /__(?:point|indent)_[^_]+$/u.test(a.node);
  const text = h.byNode.get(a.lead_in ?? (point ? h.byNode.get(a.node)?.parent : "") ?? "")?.own_text ?? "";
  if (!/:\s*$/u.test(text)) return undefined;
  const said = /^\s*(?:shall|must)\s+(?!not\b)(.*)$/su.exec(after(text, a.actor) ?? "");
  if (!said) return undefined;
  const lead = addresseeOf(a.actor, said[1] as string, at, h.map, h.canon.taxonomy, h.rules);
  return lead.through_national_law ? { types: lead.through_national_law, holder: lead } : undefined;
}

/** The words a text says after the atom's subject, where the text names it. */
function after(text: string, actor: string): string | null {
  const from = text.indexOf(actor);
  return from < 0 ? null : text.slice(from + actor.length);
}
