/**
 * Atoms as a release carries them: extracted from the corpus, named by the ledger's permanent ids,
 * with the entity types they apply to. A ledger that does not name every atom exactly refuses the
 * build, naming the command that brings it up to date.
 */
import type { Unit } from "../canon/model.ts";
import { type AddresseeOf, addresseeOf, isRuleAboutLaw, owedBy } from "./addressee.ts";
import type { BindingAtom } from "./applicability.ts";
import { type Atom, type Constant, extractAtoms, isImpersonal } from "./atoms.ts";
import type { ObligationsCanon } from "./canon.ts";
import { staleness } from "./ledger.ts";
import { ActorMap, addresseeOfType } from "./taxonomy.ts";

export interface ReleasedAtom extends BindingAtom {
  /**
   * How `applies_to` was decided: "actor" (the actor map), "actor and action" (a Member State's duty
   * reaching the entities it is about), "preceding duty" (a document or thing as subject: the types of
   * the nearest preceding mapped duty in the same article), "act's holder" (no one named and nothing
   * before: the party the act's scope names as the holder of its duties), "following duty" (extraction
   * rules 6: a thing as subject with no duty before it in its article: the types of the nearest
   * following mapped duty there), "act's parties" (rules 6: an impersonal duty, "it shall be prohibited
   * to …", with no one named in its article: the regulated parties the act reaches), or "none".
   */
  applies_to_basis:
    | "actor"
    | "actor and action"
    | "preceding duty"
    | "act's holder"
    | "following duty"
    | "act's parties"
    | "none";
  /** Who holds the duty; only a regulated party's duties, and a Member State's duties that prescribe a
   * regulated party's conduct (`through_national_law`), ever enter a firm's register. */
  addressee: AddresseeOf["addressee"];
  through_national_law: string[] | null;
  /** For a right (a permission of its holder): the regulated parties it is held against, whose
   * correlative duty it is ("the right to obtain from the controller …"). */
  owed_by: string[] | null;
  lead_in: string | null;
  executable_name: string | null;
  executable_unit: string | null;
  executable_value: number | string | null;
  constants: Constant[];
  fingerprint: string;
  /** Where the atom sits in this release; the ledger matches on it. */
  key: string;
}

export interface AtomStats {
  atoms: number;
  byAct: Record<string, Record<string, number>>;
  obligations: number;
  obligationsMapped: number;
  unmappedActors: { actor: string; count: number }[];
}

export class LedgerOutOfDate extends Error {}

/**
 * `recorded`: the tag is already in releases.yaml. A recorded tag whose commit predates the ledger is
 * rebuilt as it was, without atoms; a new tag needs an up-to-date ledger.
 */
export function releaseAtoms(
  units: Unit[],
  canon: ObligationsCanon,
  regime: string,
  recorded: boolean,
): { atoms: ReleasedAtom[]; stats: AtomStats } {
  const ledger = canon.ledger;
  if (!ledger && recorded) return { atoms: [], stats: atomStats([]) };
  const extracted = extractAtoms(units, ledger?.extraction ?? 1, documentHolders(canon));
  const stale = ledger ? staleness(ledger, extracted) : { missing: extracted.length, changed: 0, removed: 0 };
  if (stale.missing + stale.changed + stale.removed > 0) {
    const what = ledger
      ? `out of date (${stale.missing} new, ${stale.changed} changed, ${stale.removed} removed atoms)`
      : "missing";
    throw new LedgerOutOfDate(
      `regimes/${regime}/atoms.lock is ${what}: run \`acquis atoms sync ${regime}\` and commit it`,
    );
  }
  const ids = new Map((ledger?.atoms ?? []).filter((e) => e.status === "active").map((e) => [e.key, e.id]));
  const byNode = new Map(units.map((u) => [u.node, u]));
  const map = new ActorMap(canon.taxonomy);
  const previous = new Map<string, { types: string[]; holder: AddresseeOf }>();
  const holders = new Map(canon.scope.acts.flatMap((r) => (r.holder ? [[r.id, r.holder] as const] : [])));
  const rules = ledger?.extraction ?? 1;
  const articleOf = (a: Atom) => `${a.act}/${a.unit_eid.split("__")[0]}`;
  // Rules 6: the nearest following duty of the same article whose own actor names a holder.
  const following = new Map<number, { types: string[]; holder: AddresseeOf }>();
  if (rules >= 6) {
    let next: { article: string; types: string[]; holder: AddresseeOf } | null = null;
    for (let i = extracted.length - 1; i >= 0; i--) {
      const a = extracted[i] as Atom;
      const article = articleOf(a);
      if (next && next.article !== article) next = null;
      if (next) following.set(i, next);
      const types = map.appliesTo(a.actor, a.action, a.act);
      if (types.length > 0 && !isRuleAboutLaw(a.actor))
        next = { article, types, holder: addresseeOf(a.actor, a.action, a.act, map, canon.taxonomy) };
    }
  }
  // Rules 6: the regulated parties an act reaches hold its impersonal duties ("it shall be prohibited to …").
  const parties = (act: string) =>
    [
      ...new Set(
        canon.scope.acts
          .filter((r) => r.id === act)
          .flatMap((r) => r.reaches.flatMap((x) => x.types))
          .filter((t) => addresseeOfType(canon.taxonomy, t) === "regulated_party"),
      ),
    ].sort();
  const atoms = extracted.map((a: Atom, i: number): ReleasedAtom => {
    const ended = byNode.get(a.node)?.ended_by ?? null;
    const article = articleOf(a);
    const own = map.typesIn(a.actor, a.act);
    let appliesTo = map.appliesTo(a.actor, a.action, a.act);
    let basis: ReleasedAtom["applies_to_basis"] =
      appliesTo.length === 0 ? "none" : appliesTo.length > own.length ? "actor and action" : "actor";
    let holder = addresseeOf(a.actor, a.action, a.act, map, canon.taxonomy);
    const before = previous.get(article);
    if (appliesTo.length === 0 && before && !isRuleAboutLaw(a.actor)) {
      appliesTo = before.types;
      holder = before.holder;
      basis = "preceding duty";
    }
    const actHolder = holders.get(a.act);
    if (appliesTo.length === 0 && actHolder && !isRuleAboutLaw(a.actor)) {
      appliesTo = [actHolder];
      holder = { addressee: "regulated_party", through_national_law: null };
      basis = "act's holder";
    }
    const after = following.get(i);
    if (appliesTo.length === 0 && after && !isRuleAboutLaw(a.actor)) {
      appliesTo = after.types;
      holder = after.holder;
      basis = "following duty";
    }
    if (
      rules >= 6 &&
      appliesTo.length === 0 &&
      isImpersonal(a.actor, a.action) &&
      parties(a.act).length > 0
    ) {
      appliesTo = parties(a.act);
      holder = { addressee: "regulated_party", through_national_law: null };
      basis = "act's parties";
    }
    if (basis === "actor" || basis === "actor and action")
      previous.set(article, { types: appliesTo, holder });
    return {
      id: ids.get(a.key) as string,
      key: a.key,
      node: a.node,
      act: a.act,
      unit_eid: a.unit_eid,
      modality: a.modality,
      actor: a.actor,
      action: a.action,
      applies_to: appliesTo,
      applies_to_basis: basis,
      addressee: holder.addressee,
      through_national_law: holder.through_national_law,
      owed_by: a.modality === "permission" ? owedBy(a.action, a.act, map, canon.taxonomy) : null,
      quoted_text: a.quoted_text,
      char_start: a.char_start,
      char_end: a.char_end,
      lead_in: a.lead_in,
      effective: a.effective,
      expires: a.expires,
      status_basis: ended?.includes("/") ? "deleted" : null,
      executable_name: a.executable_name,
      executable_unit: a.executable_unit,
      executable_value: a.executable_value,
      constants: a.constants,
      fingerprint: a.fingerprint,
    };
  });
  return { atoms, stats: atomStats(atoms) };
}

/** Acts whose scope names the one party holding their duties (extractAtoms' `ownDocuments`). */
export function documentHolders(canon: Pick<ObligationsCanon, "scope">): Set<string> {
  return new Set(canon.scope.acts.flatMap((r) => (r.holder ? [r.id] : [])));
}

function atomStats(atoms: ReleasedAtom[]): AtomStats {
  const byAct: Record<string, Record<string, number>> = {};
  const unmapped = new Map<string, number>();
  let obligations = 0;
  let mapped = 0;
  for (const a of atoms) {
    const row = byAct[a.act] ?? { obligation: 0, prohibition: 0, permission: 0 };
    row[a.modality] = (row[a.modality] ?? 0) + 1;
    byAct[a.act] = row;
    if (a.modality !== "obligation") continue;
    obligations++;
    if (a.applies_to.length > 0) mapped++;
    else unmapped.set(a.actor, (unmapped.get(a.actor) ?? 0) + 1);
  }
  const unmappedActors = [...unmapped]
    .map(([actor, count]) => ({ actor, count }))
    .sort((x, y) => y.count - x.count || (x.actor < y.actor ? -1 : 1));
  return { atoms: atoms.length, byAct, obligations, obligationsMapped: mapped, unmappedActors };
}
