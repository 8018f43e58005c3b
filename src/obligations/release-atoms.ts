/**
 * Atoms as a release carries them: extracted from the corpus, named by the ledger's permanent ids,
 * with the entity types they apply to. A ledger that does not name every atom exactly refuses the
 * build, naming the command that brings it up to date.
 */
import type { Unit } from "../canon/model.ts";
import { type AddresseeOf, addresseeOf, isRuleAboutLaw, owedBy } from "./addressee.ts";
import { conditionParty } from "./antecedents.ts";
import type { BindingAtom } from "./applicability.ts";
import { type Atom, type Constant, extractAtoms, isImpersonal } from "./atoms.ts";
import type { ObligationsCanon } from "./canon.ts";
import { staleness } from "./ledger.ts";
import { isRightWorded } from "./modality.ts";
import { namedInContext, partyFor } from "./named-in-context.ts";
import { agentInSubject, agentOf, recipientOf } from "./passive.ts";
import { prescribedByState } from "./prescribed.ts";
import { actParties } from "./scope.ts";
import { BENEFICIARY_7, isPatient, namesBeneficiary } from "./subject-roles.ts";
import { ActorMap } from "./taxonomy.ts";
import { GIVES_POWERS_10, keeperNamed, mergeHeld, ThingTrail } from "./thing-trail.ts";

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
  const rules = ledger?.extraction ?? 1;
  const extracted = extractAtoms(units, rules, documentHolders(canon));
  checkLedger(ledger, extracted, regime);
  const ids = new Map((ledger?.atoms ?? []).filter((e) => e.status === "active").map((e) => [e.key, e.id]));
  const byNode = new Map(units.map((u) => [u.node, u]));
  const map = new ActorMap(canon.taxonomy);
  const where = partsRead(extracted, byNode, canon);
  const holders: Holders = {
    canon,
    map,
    rules,
    named: new Map(),
    kept: new Map(),
    trail: new ThingTrail(mergeHeld),
    byNode,
    partyInUnit: new Map(),
    acts: new Map([
      ...canon.scope.acts.flatMap((r) => (r.holder ? [[r.id, r.holder] as const] : [])),
      // A part whose documents are one party's (what a financial product's disclosures contain) names
      // the holder of its thing-subject duties the way an act's holder does.
      ...canon.scope.parts.flatMap((r) =>
        r.holder ? r.nodes.map((n) => [n, r.holder as string] as const) : [],
      ),
    ]),
    rightsAgainst: new Map(
      rules >= 8
        ? canon.scope.acts.flatMap((r) => (r.rights_against ? [[r.id, r.rights_against] as const] : []))
        : [],
    ),
    following: rules >= 6 ? followingHolders(extracted, map, canon, rules, where) : new Map(),
    parties: actParties(canon.scope, canon.taxonomy),
    where,
  };
  const atoms = extracted.map((a: Atom, i: number): ReleasedAtom => {
    const { appliesTo, basis, holder } = holderOf(a, i, holders);
    return released(a, ids.get(a.key) as string, appliesTo, basis, holder, {
      ended: byNode.get(a.node)?.ended_by ?? null,
      owedBy:
        a.modality === "permission"
          ? (owedBy(a.action, where[i] as string, map, canon.taxonomy) ?? beneficiaryRight(a, holders))
          : null,
    });
  });
  return { atoms, stats: atomStats(atoms) };
}

/** A release is built only from a ledger that holds exactly the atoms the rules extract. */
function checkLedger(ledger: ObligationsCanon["ledger"], extracted: Atom[], regime: string): void {
  const stale = ledger ? staleness(ledger, extracted) : { missing: extracted.length, changed: 0, removed: 0 };
  if (stale.missing + stale.changed + stale.removed === 0) return;
  const what = ledger
    ? `out of date (${stale.missing} new, ${stale.changed} changed, ${stale.removed} removed atoms)`
    : "missing";
  throw new LedgerOutOfDate(
    `regimes/${regime}/atoms.lock is ${what}: run \`acquis atoms sync ${regime}\` and commit it`,
  );
}

type Holder = { types: string[]; holder: AddresseeOf };

/** What deciding an atom's holder reads: the canon, the rules, and what earlier atoms decided. */
interface Holders {
  canon: ObligationsCanon;
  map: ActorMap;
  rules: number;
  /**
   * Per article, the holders its duties' own actors named, in order: the last is what a thing-subject
   * after them reads back; rules 14 read further back past the party a thing is given to.
   */
  named: Map<string, Holder[]>;
  /** Rules 8: per article, what its duties set up ("a register"), and who set it up. */
  kept: Map<string, Map<string, Holder>>;
  /** Rules 9: what later thing-subject duties read back (thing-trail.ts). */
  trail: ThingTrail<Holder>;
  /** The units by node (what a thing's sentence follows in its unit). */
  byNode: Map<string, Unit>;
  /** Rules 8: per unit, the holder of the last duty whose actor is a party (not a thing's keeper). */
  partyInUnit: Map<string, Holder & { action: string }>;
  /** Acts (by id) and parts (by node) whose scope names the one party holding their duties. */
  acts: Map<string, string>;
  /** Rules 8: acts whose scope names the parties that owe the rights of subscribers and end-users. */
  rightsAgainst: Map<string, string[]>;
  /** Rules 6: per atom, the nearest following duty of its article whose actor names a holder. */
  following: Map<number, Holder>;
  /** Rules 6: per act, the regulated parties it reaches. */
  parties: Map<string, string[]>;
  /** Per atom, where the actor map reads its words: its act, or a part of it with words of its own. */
  where: string[];
}

/**
 * Per atom, where its words are read (ActorMap): the nearest enclosing unit an actor phrase is scoped
 * to ("data-act/chp_V"), else its act.
 */
function partsRead(extracted: Atom[], byNode: Map<string, Unit>, canon: ObligationsCanon): string[] {
  const parts = new Set(canon.taxonomy.actors.flatMap((a) => (a.scope ?? []).filter((s) => s.includes("/"))));
  return extracted.map((a) => {
    for (let n: string | null | undefined = a.node; n; n = byNode.get(n)?.parent) if (parts.has(n)) return n;
    return a.act;
  });
}

/** Rules 8: a right of subscribers or end-users that names no one it is held against ("Subscribers shall have the right to receive non-itemised bills", ePrivacy Art 7(1)) is owed by the act's providers. */
function beneficiaryRight(a: Atom, h: Holders): string[] | null {
  const owing = h.rightsAgainst.get(a.act);
  return owing && namesBeneficiary(a.actor) && isRightWorded(a.action, h.rules) ? [...owing].sort() : null;
}

/** The holder a part names for the unit or one of its ancestors (scope.yaml parts' `holder`). */
function holderOfPart(h: Holders, node: string): string | undefined {
  for (let n = node; ; n = n.slice(0, n.lastIndexOf("__"))) {
    const held = h.acts.get(n);
    if (held) return held;
    if (!n.includes("__")) return undefined;
  }
}

const articleOf = (a: Atom) => `${a.act}/${a.unit_eid.split("__")[0]}`;

/** Rules 6: the nearest following duty of the same article whose own actor names a holder. */
function followingHolders(
  extracted: Atom[],
  map: ActorMap,
  canon: ObligationsCanon,
  rules: number,
  where: string[],
): Map<number, Holder> {
  const following = new Map<number, Holder>();
  let next: (Holder & { article: string }) | null = null;
  for (let i = extracted.length - 1; i >= 0; i--) {
    const a = extracted[i] as Atom;
    const article = articleOf(a);
    if (next && next.article !== article) next = null;
    if (next) following.set(i, next);
    const at = where[i] as string;
    const types = isPatient(a, rules) ? [] : map.appliesTo(a.actor, a.action, at, rules);
    if (types.length > 0 && !isRuleAboutLaw(a.actor, rules))
      next = {
        article,
        types,
        holder: addresseeOf(a.actor, a.action, at, map, canon.taxonomy, rules, a.modality),
      };
  }
  return following;
}

const NO_ONE: AddresseeOf = { addressee: "none", through_national_law: null };

/**
 * Who holds an atom's duty: the parties its actor (and action) name; failing that, in this order, the
 * holder of the article's preceding duty, the act's one holder, the article's following duty (rules 6),
 * and for an impersonal duty the parties the act reaches (rules 6).
 */
function holderOf(
  a: Atom,
  i: number,
  h: Holders,
): { appliesTo: string[]; basis: ReleasedAtom["applies_to_basis"]; holder: AddresseeOf } {
  const article = articleOf(a);
  const at = h.where[i] as string;
  const doer = h.rules >= 13 ? doerNamed(a.actor, at, h.map, h.rules) : null;
  const words = doer ?? a.actor;
  const own = h.map.typesIn(words, at, h.rules);
  let appliesTo = h.map.appliesTo(words, a.action, at, h.rules);
  let basis: ReleasedAtom["applies_to_basis"] =
    appliesTo.length === 0 ? "none" : appliesTo.length > own.length ? "actor and action" : "actor";
  let holder = addresseeOf(words, a.action, at, h.map, h.canon.taxonomy, h.rules, a.modality);
  if (h.rules >= 11)
    ({ types: appliesTo, holder } = prescribedByState(a, at, { types: appliesTo, holder }, h));
  // Rules 7: "the specific interests and needs of SMEs shall be taken into account": the party named
  // in the subject's "of" complement is whose interests are weighed, not who weighs them.
  if (
    h.rules >= 7 &&
    BENEFICIARY_7.test(a.action) &&
    / of /u.test(a.actor) &&
    h.map.isThing(a.actor, at, h.rules)
  )
    ({ appliesTo, basis } = { appliesTo: [], basis: "none" });
  if (h.rules >= 10 && own.length > 0 && GIVES_POWERS_10.test(a.action))
    h.trail.empower(a.node, { types: own, holder: addresseeOf(a.actor, "", at, h.map, h.canon.taxonomy) });
  if (isPatient(a, h.rules) && appliesTo.length > 0)
    ({ appliesTo, holder, basis } = { appliesTo: [], holder: NO_ONE, basis: "none" });
  if (h.rules >= 8)
    ({ types: appliesTo, holder } = namedInContext(a, article, basis, { types: appliesTo, holder }, h));
  const thing = basis === "actor" && doer === null && h.map.isThing(a.actor, at, h.rules);
  const forParty = h.rules >= 15 && (thing || basis === "none") ? partyFor(a.quoted_text, at, h) : undefined;
  const keeper =
    forParty ?? (thing && h.rules >= 8 ? keeperOfThing(a, at, article, appliesTo, h) : undefined);
  if (keeper) {
    appliesTo = keeper.types;
    holder = keeper.holder;
    basis = "preceding duty";
  }
  const about = isRuleAboutLaw(a.actor, h.rules);
  // Rules 10: a subject no party's words name is held as the paragraph it refers to says, or as its
  // document's author (thing-trail.ts).
  const referred = appliesTo.length === 0 && !about ? h.trail.subjectReferredTo(a, h.rules) : undefined;
  if (referred) ({ types: appliesTo, holder, basis } = { ...referred, basis: "preceding duty" });
  const before = precedingHolder(a, at, article, h);
  if (appliesTo.length === 0 && before && !about) {
    appliesTo = before.types;
    holder = before.holder;
    basis = "preceding duty";
  }
  // A part's holder is canon naming whose documents its sentences describe, even where they cite law.
  const partHolder = holderOfPart(h, a.node);
  const actHolder = partHolder ?? h.acts.get(a.act);
  if (appliesTo.length === 0 && actHolder && (!about || partHolder)) {
    appliesTo = [actHolder];
    holder = { addressee: "regulated_party", through_national_law: null };
    basis = "act's holder";
  }
  const after = h.following.get(i);
  if (appliesTo.length === 0 && after && !about) {
    appliesTo = after.types;
    holder = after.holder;
    basis = "following duty";
  }
  const parties = h.parties.get(a.act) ?? [];
  if (h.rules >= 6 && appliesTo.length === 0 && isImpersonal(a.actor, a.action) && parties.length > 0) {
    appliesTo = parties;
    holder = { addressee: "regulated_party", through_national_law: null };
    basis = "act's parties";
  }
  // Rules 8: the holder of a right held against another holds none of the duties after it ("the
  // economic operator shall be given the opportunity to make submissions. Any measure adopted shall be
  // withdrawn …", IVDR Art 94); an option ("Member States may …") still does.
  const holdsDuties = h.rules < 8 || a.modality !== "permission" || !isRightWorded(a.action, h.rules);
  if ((basis === "actor" || basis === "actor and action") && holdsDuties)
    remember(a, article, thing, { types: appliesTo, holder }, h);
  return { appliesTo, basis, holder };
}

/**
 * Rules 14: a thing given to a party ("shall be notified to", "supplied to", "reported to") is not given
 * by it: the recipient named there does not hold the duty even when it held the article's preceding one
 * ("Competent authorities shall not require ex ante approval of marketing communications. … Marketing
 * communications shall be notified to competent authorities upon request", MiCA Art 29(4)-(5); "Every
 * authorisation shall be notified to ESMA", MiFID II Art 5(3)). The article's last other holder does.
 */
function precedingHolder(a: Atom, at: string, article: string, h: Holders): Holder | undefined {
  const named = h.named.get(article) ?? [];
  const before = named.at(-1);
  const to = before ? recipientOf(a.action, h.rules) : null;
  if (!before || !to) return before;
  const recipient = h.map.typesIn(to, at, h.rules);
  const given = (x: Holder) => x.types.length > 0 && x.types.every((t) => recipient.includes(t));
  return given(before) ? named.findLast((x) => !given(x)) : before;
}

/** Rules 13: the party a thing-subject's "by" names, where it names one the subject's first words do not. */
function doerNamed(actor: string, at: string, map: ActorMap, rules: number): string | null {
  const words = agentInSubject(actor);
  if (!words) return null;
  const named = map.typesIn(words, at, rules);
  const whole = map.typesIn(actor, at, rules);
  return named.length > 0 && named.join() !== whole.join() ? words : null;
}

/**
 * Rules 8: who holds a thing the actor map gives its usual keeper, where its context names another. In
 * this order:
 * - rules 9: the duty before it that names or made it (thing-trail.ts): the one in the unit a "referred to
 *   in paragraph 1" names, or for a document its author ("ESMA shall notify … The notification shall at
 *   least specify: (a) the AIFM …", AIFMD Art 47(8));
 * - a party the same paragraph has just put in charge of it ("Distributors and importers … shall ensure
 *   that they have in place a quality management system … The quality management system shall cover …",
 *   IVDR Art 16(3));
 * - for a passive without agent, the State, authority or Union body its leading conditional clause has
 *   as subject ("Where the competent authority finds that the criteria … are not fulfilled, … the
 *   granting of the status of authorised CBAM declarant shall be refused", CBAM Art 17(3));
 * - a State, authority or Union body that set up what its paragraph is about ("ESMA shall establish a
 *   register of: … the register shall contain the crypto-asset white papers … Any out-of-date versions of
 *   the crypto-asset white papers shall be kept in a separate archive", MiCA Art 109(2): ESMA's archive,
 *   not the offeror's).
 */
function keeperOfThing(
  a: Atom,
  at: string,
  article: string,
  types: string[],
  h: Holders,
): Holder | undefined {
  const other = (k: Holder | undefined) => (k && !types.some((t) => k.types.includes(t)) ? k : undefined);
  const traced = h.rules >= 9 ? h.trail.holderOf(article, a.node, a.actor, h.rules) : undefined;
  if (traced) return traced;
  const inUnit = h.partyInUnit.get(a.node);
  if (inUnit && keeps(inUnit.action, a.actor) && other(inUnit)) return inUnit;
  const kept = bodyActingIn(a, at, h) ?? other(keeperOf(h, a, article));
  // Rules 11: else the usual keeper its article has just named (thing-trail.ts).
  return (
    kept ??
    (h.rules >= 11 ? keeperNamed(types, h.named.get(article)?.at(-1), a.actor, h.canon.taxonomy) : undefined)
  );
}

/** What later atoms of the article read back: its last named holder, what bodies set up, a paragraph's party. */
function remember(a: Atom, article: string, thing: boolean, held: Holder, h: Holders): void {
  const named = h.named.get(article) ?? [];
  named.push(held);
  h.named.set(article, named);
  const set =
    h.rules >= 8 && !thing && held.holder.addressee !== "regulated_party"
      ? SETS_UP_8.exec(a.action)?.[1]?.toLowerCase()
      : undefined;
  if (set) h.kept.set(article, new Map(h.kept.get(article)).set(set, held));
  if (h.rules >= 9 && !thing) h.trail.remember(article, a.node, a.action, held, h.rules);
  if (!thing && held.holder.addressee === "regulated_party")
    h.partyInUnit.set(a.node, { ...held, action: a.action });
}

/**
 * Whether an action puts its holder in charge of the thing an actor names, determiner aside ("have in
 * place a quality management system" keeps "The quality management system").
 */
const KEEPS_8 =
  /\b(?:(?:have|has|having) in place|establish|put in place|set up|maintain|draw up|implement|operate|keep)\b[^.;]{0,60}$/iu;
const keeps = (action: string, thing: string) => {
  const words = thing
    .toLowerCase()
    .replace(/^(?:the|a|an|such|that|this|those|these|its|their)\s+/u, "")
    .trim();
  const at = words === "" ? -1 : action.toLowerCase().indexOf(words);
  return at > 0 && KEEPS_8.test(action.slice(0, at));
};

/**
 * What an action sets up, its head noun: "shall establish a register of:" sets up the register.
 */
const SETS_UP_8 =
  /\b(?:establish|set up|maintain|keep)\s+(?:a|an|the)\s+(?:[a-z-]+\s+){0,2}?([a-z-]+)(?=\s+(?:of|for|on|in|that|which|with)\b|\s*[:;,.]|\s*$)/iu;
/** Who set up a thing the atom's unit speaks of before the atom's sentence ("the register"). */
function keeperOf(h: Holders, a: Atom, article: string): Holder | undefined {
  const before = (h.byNode.get(a.node)?.own_text ?? "").slice(0, Math.max(0, a.char_start)).toLowerCase();
  for (const [thing, keeper] of h.kept.get(article) ?? [])
    if (new RegExp(`\\bthe ${thing}\\b`, "u").test(before)) return keeper;
  return undefined;
}

/** A passive's action ("be refused"); whether it names an agent is passive.ts's `agentOf`. */
const PASSIVE_8 = /^\s*(?:not\s+)?be\s+(?:\w+ly\s+)?\w+(?:ed|en|wn|ught|ung|id|ade)\b/iu;

/** The State, authority or Union body a passive's leading conditional clause has as its subject. */
function bodyActingIn(a: Atom, at: string, h: Holders): Holder | undefined {
  if (!PASSIVE_8.test(a.action) || agentOf(a.action, h.rules) !== null) return undefined;
  const cut = a.quoted_text.indexOf(a.actor);
  const party = cut > 0 ? conditionParty(a.quoted_text.slice(0, cut)) : null;
  if (!party) return undefined;
  const types = h.map.appliesTo(party, "", at, h.rules);
  const holder = addresseeOf(party, "", at, h.map, h.canon.taxonomy, h.rules);
  if (types.length === 0 || holder.addressee === "regulated_party" || holder.addressee === "none")
    return undefined;
  return { types, holder };
}

/** The atom as a release states it. */
function released(
  a: Atom,
  id: string,
  appliesTo: string[],
  basis: ReleasedAtom["applies_to_basis"],
  holder: AddresseeOf,
  more: { ended: string | null; owedBy: ReleasedAtom["owed_by"] },
): ReleasedAtom {
  return {
    id,
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
    owed_by: more.owedBy,
    quoted_text: a.quoted_text,
    char_start: a.char_start,
    char_end: a.char_end,
    lead_in: a.lead_in,
    effective: a.effective,
    expires: a.expires,
    status_basis: more.ended?.includes("/") ? "deleted" : null,
    executable_name: a.executable_name,
    executable_unit: a.executable_unit,
    executable_value: a.executable_value,
    constants: a.constants,
    fingerprint: a.fingerprint,
  };
}

/** Acts whose scope names the one party holding their duties (extractAtoms' `ownDocuments`). */
export function documentHolders(canon: Pick<ObligationsCanon, "scope">): Set<string> {
  return new Set([
    ...canon.scope.acts.flatMap((r) => (r.holder ? [r.id] : [])),
    ...canon.scope.parts.flatMap((r) => (r.holder ? r.nodes : [])),
  ]);
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
