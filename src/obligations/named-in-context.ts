/**
 * Who a party's words name, read with the article and the act around them (release-atoms.ts decides
 * the holder from the words first; this reads what the context changes of it).
 */
import type { Unit } from "../canon/model.ts";
import { addresseeOf } from "./addressee.ts";
import { demonstrativeThing } from "./antecedents.ts";
import type { Atom } from "./atoms.ts";
import type { ObligationsCanon } from "./canon.ts";
import type { ReleasedAtom } from "./release-atoms.ts";
import { BENEFICIARY_ENSURED_8, DEMONSTRATIVE_NOUN_8, narrows } from "./subject-roles.ts";
import type { ActorMap } from "./taxonomy.ts";
import { agreementParties, type Held } from "./thing-trail.ts";

/** What the context readings use of release-atoms' state. */
export interface InContext {
  rules: number;
  map: ActorMap;
  canon: ObligationsCanon;
  /** Per article, the holders its duties' own actors named, in order. */
  named: Map<string, Held[]>;
  /** Rules 8: acts whose scope names the parties that owe the rights of subscribers and end-users. */
  rightsAgainst: Map<string, string[]>;
  byNode: Map<string, Unit>;
}

const CONFERRED_ON_12 =
  /^\s*(?:also\s+)?be (?:conferred on|delegated to)\s+(the [\w ]{3,60}?)(?=\s+(?:for|to|from|in|as|by|subject|under)\b|[,.;]|$)/u;

/** The own texts of a unit and its ancestors, nearest first. */
const textsAround = (node: string, byNode: Map<string, Unit>): string[] => {
  const texts: string[] = [];
  for (let u = byNode.get(node); u; u = u.parent ? byNode.get(u.parent) : undefined) texts.push(u.own_text);
  return texts;
};

/**
 * Rules 8: who a party's words name, read with the article and the act around them:
 * - "Those undertakings" after "Undertakings which have been designated as having significant market
 *   power … shall inform" (EECC Art 78(1)) are those: a demonstrative before a bare noun the map gives a
 *   broader type takes the narrower type the article has just named;
 * - rules 12: "Such decision to refuse the status of authorised CBAM declarant" after "the granting of
 *   the status … shall be refused" (CBAM Art 17(3)) is the refusing authority's: a demonstrative before
 *   a thing the map gives no keeper takes the article's previous holder (antecedents.ts);
 * - rules 12: "That agreement shall cover …" after "an agreement between the manufacturer, the incoming
 *   notified body and … the outgoing notified body" (MDR Art 58(1)) binds each party to it;
 * - a State that ensures subscribers or end-users a possibility or an opportunity (ePrivacy Arts 11,
 *   12(2)) prescribes it to the parties that owe those rights (scope.yaml `rights_against`).
 */
export function namedInContext(
  a: Atom,
  article: string,
  basis: ReleasedAtom["applies_to_basis"],
  held: Held,
  h: InContext,
): Held {
  const before = basis === "actor" ? h.named.get(article)?.at(-1) : undefined;
  if (before && DEMONSTRATIVE_NOUN_8.test(a.actor) && narrows(before.types, held.types, h.canon.taxonomy))
    return { types: before.types, holder: before.holder };
  const thing = h.rules >= 12 && before ? demonstrativeThing(a.actor) : null;
  if (before && thing && h.map.typesIn(thing, a.act, h.rules).length === 0) return before;
  // Rules 12: a power is whom it is conferred on ("The delegation of power referred to in Article 12(8)
  // … shall be conferred on the Commission for an indeterminate period", GDPR Art 92(2)).
  const conferee = h.rules >= 12 ? CONFERRED_ON_12.exec(a.action)?.[1] : undefined;
  const empowered = conferee ? h.map.typesIn(conferee, a.act, h.rules) : [];
  if (conferee && empowered.length > 0)
    return { types: empowered, holder: addresseeOf(conferee, "", a.act, h.map, h.canon.taxonomy, h.rules) };
  const parties = h.rules >= 12 ? agreementParties(a.actor, textsAround(a.node, h.byNode)) : null;
  const bound = parties ? h.map.allTypesIn(parties, a.act, h.rules) : [];
  if (parties && bound.length > 0)
    return { types: bound, holder: addresseeOf(parties, "", a.act, h.map, h.canon.taxonomy, h.rules) };
  const owing = h.rightsAgainst.get(a.act);
  if (!owing || held.holder.addressee !== "member_state" || !BENEFICIARY_ENSURED_8.test(a.action))
    return held;
  const misread = held.holder.through_national_law ?? [];
  return {
    types: [...new Set([...held.types.filter((t) => !misread.includes(t)), ...owing])].sort(),
    holder: { ...held.holder, through_national_law: [...owing].sort() },
  };
}

/** Rules 15: a leading "For" that names a party ("For central counterparties, the recovery plans …"). */
const FOR_PARTY_15 = /^\s*For\s+((?!the purposes?\b|the purpose\b)[^,;:]{3,80}),\s/u;

/**
 * Rules 15: the party a leading "For" names holds its thing's duty ("For central counterparties, the
 * recovery plans shall enable the recovery of all transactions", DORA Art 12(3)), not the article's
 * previous holder ("financial entities").
 */
export function partyFor(text: string, at: string, h: InContext): Held | undefined {
  const words = FOR_PARTY_15.exec(text)?.[1];
  if (!words) return undefined;
  // The party opens the words: "For transactions not carried out on a trading venue" names none.
  const types = h.map.openingTypesIn(words, at, h.rules) ?? [];
  if (types.length === 0 || h.map.isThing(words, at, h.rules)) return undefined;
  return { types, holder: addresseeOf(words, "", at, h.map, h.canon.taxonomy, h.rules) };
}
