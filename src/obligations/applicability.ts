import {
  type Applicability,
  atomStatus,
  type BindingAtom,
  type Decision,
  type OutOfScope,
  type Reasons,
  type Rules,
} from "./decision.ts";
import { deriveFacts, evaluate, type Facts, impliedFacts } from "./facts.ts";
import { boundTypes, capacities, inCapacity, openReason, openTypes } from "./open-types.ts";
import type { Derogation, Profile } from "./profiles.ts";
import { NO_SCOPE, type OpenTypes, reaches, type ScopeRule, type ScopeVerdict } from "./scope.ts";
import { type Addressee, addresseeOfType, ancestors, type Taxonomy } from "./taxonomy.ts";

export {
  type Applicability,
  type AtomStatus,
  atomStatus,
  type BindingAtom,
  type Decision,
  type DerogationRef,
  type Modification,
  type OutOfScope,
  type Reasons,
  type RegisterStatus,
  type Rules,
} from "./decision.ts";

const eidOf = (node: string) => node.slice(node.indexOf("/") + 1);

/** Without the unit tree: "dora/art_5__para_1" -> ["dora/art_5", "dora"]. */
function ancestryByName(node: string): string[] {
  const out: string[] = [];
  for (let i = node.lastIndexOf("__"); i >= 0; i = node.lastIndexOf("__", i - 1)) out.push(node.slice(0, i));
  out.push(node.slice(0, node.indexOf("/")));
  return out;
}

/** The profile with the facts and types the engine derives (size, establishment, act thresholds). */
export function prepared(
  profile: Profile,
  rules: Rules,
): { facts: Facts; types: string[]; derived: string[]; open: OpenTypes } {
  const sized = deriveFacts(profile.facts, profile.entity_types, `profile ${profile.id}`);
  const implied = impliedFacts(
    rules.facts ?? null,
    sized.facts,
    ancestors(rules.taxonomy, sized.types),
    `profile ${profile.id}`,
  );
  const base = { ...sized, facts: implied.facts };
  const types = new Set(base.types);
  const derived = [...base.derived, ...implied.derived];
  // A profile is a firm, an undertaking: a duty of "undertakings" in an act whose scope reaches it binds
  // it too. ("person" is not added: the actor map gives it to injured persons, users and claimants.)
  if (rules.taxonomy.types.some((t) => t.id === "undertaking")) types.add("undertaking");
  for (const d of rules.scope.derive) {
    if (evaluate(d.when, [], base.facts).truth === true && !types.has(d.type)) {
      types.add(d.type);
      derived.push(`${d.type} (${d.provision}: ${d.when.map((c) => `${c.fact}`).join(", ")})`);
    }
  }
  return {
    facts: base.facts,
    types: [...types].sort(),
    derived,
    open: openTypes(rules.taxonomy, rules.scope.derive, base.facts, types),
  };
}

export function decide(
  profile: Profile,
  date: string,
  atoms: BindingAtom[],
  tax: Taxonomy,
  derogations: Derogation[],
  more: Partial<Rules> = {},
): Applicability {
  const rules: Rules = { taxonomy: tax, derogations, scope: more.scope ?? NO_SCOPE, ...more };
  const profileNow = prepared(profile, rules);
  const binds = boundTypes(tax, profileNow.types, rules.scope.derive);
  const c = deciding(profile, date, rules, profileNow, binds, tax, derogations);
  const applicable: Decision[] = [];
  const excluded: Decision[] = [];
  const undetermined: Decision[] = [];
  for (const atom of atoms) {
    const decision = decided(atom, c);
    if (!decision) continue;
    if (decision.status === "applicable") applicable.push(decision);
    else if (decision.status === "excluded") excluded.push(decision);
    else undetermined.push(decision);
  }
  return {
    entity_profile: profile.id,
    entity_type: profile.entity_types[0] ?? "",
    binds,
    as_of: date,
    derived: profileNow.derived,
    applicable,
    excluded,
    undetermined,
    out_of_scope: [...c.outOfScope.values()].sort((a, b) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)),
    counts: counts(applicable, excluded, undetermined),
  };
}

/** What deciding an atom reads: the profile as prepared, the canon, and the scope verdicts so far. */
interface Deciding {
  profile: Profile;
  date: string;
  rules: Rules;
  ancestry: (node: string) => string[];
  facts: Facts;
  /** The types the profile is, and their ancestors. */
  binds: Set<string>;
  /** The types it may be, on facts it does not state. */
  open: OpenTypes;
  /** The types any firm may take on (open derivations and what they are), stated or not. */
  capacities: Set<string>;
  isParty: Map<string, boolean>;
  actRule: Map<string, ScopeRule>;
  partsByNode: Map<string, ScopeRule[]>;
  /** Whether a scope rule reaches the profile, each rule decided once. */
  verdict: (r: ScopeRule) => ScopeVerdict;
  /** The acts and parts whose scope does not reach the profile, by rule. */
  outOfScope: Map<string, OutOfScope>;
  /** Derogations in force on the date, by the node they disapply. */
  derogations: Map<string, Derogation[]>;
  /** Each derogation's place in derogations.yaml. */
  order: Map<Derogation, number>;
}

function deciding(
  profile: Profile,
  date: string,
  rules: Rules,
  { facts, open }: { facts: Facts; open: OpenTypes },
  binds: string[],
  tax: Taxonomy,
  derogations: Derogation[],
): Deciding {
  const bindSet = new Set(binds);
  const partsByNode = new Map<string, ScopeRule[]>();
  for (const p of rules.scope.parts)
    for (const n of p.nodes) partsByNode.set(n, [...(partsByNode.get(n) ?? []), p]);
  const verdicts = new Map<ScopeRule, ScopeVerdict>();
  const verdict = (r: ScopeRule) => {
    const known = verdicts.get(r);
    if (known) return known;
    const v = reaches(r, bindSet, facts, open);
    verdicts.set(r, v);
    return v;
  };
  // An act out of scope is listed whatever its atoms; a part only once one of its duties would bind.
  const outOfScope = new Map<string, OutOfScope>();
  for (const r of rules.scope.acts) if (verdict(r).in === false) outOfScope.set(r.id, outOf(r.id, r));
  return {
    profile,
    date,
    rules,
    ancestry: rules.ancestry ?? ancestryByName,
    facts,
    binds: bindSet,
    open,
    capacities: capacities(tax, rules.scope.derive),
    isParty: new Map(tax.types.map((t) => [t.id, addresseeOfType(tax, t.id) === "regulated_party"])),
    actRule: new Map(rules.scope.acts.map((r) => [r.id, r])),
    partsByNode,
    verdict,
    outOfScope,
    derogations: derogationsInForce(derogations, date),
    order: new Map(derogations.map((d, i) => [d, i])),
  };
}

const outOf = (act: string, r: ScopeRule): OutOfScope => ({
  act,
  nodes: r.nodes,
  rule: r.id,
  provision: r.provision,
  reason: r.reason,
});

/** Derogations in force on the date, by the node they disapply: an atom looks up its own node and its ancestors. */
function derogationsInForce(derogations: Derogation[], date: string): Map<string, Derogation[]> {
  const byNode = new Map<string, Derogation[]>();
  for (const d of derogations) {
    if (!(d.from <= date && (d.until === null || date < d.until))) continue;
    for (const n of d.disapplies) byNode.set(n, [...(byNode.get(n) ?? []), d]);
  }
  return byNode;
}

/** One atom's decision, the steps of the module's comment in order; null when it never binds the profile. */
function decided(atom: BindingAtom, c: Deciding): Decision | null {
  // A permission binds no one, except as the correlative duty of a right held against a party.
  const correlative = atom.modality === "permission" ? (atom.owed_by ?? null) : null;
  if (atom.modality === "permission" && !correlative) return null;
  // 1. In force; 2. held by a party the profile is; 3. inside the act's and its parts' scope.
  if (atomStatus(atom, c.date) !== "in_force") return null;
  const addressee = atom.addressee ?? "regulated_party";
  const holders = holdersOf(atom, addressee, correlative, c);
  const held = holders.filter((t) => c.binds.has(t));
  // A duty of a type the profile may be, on facts it does not state, is undetermined (rules below).
  const openly = held.length === 0 ? holders.filter((t) => c.open.has(t)) : [];
  const reached = held.length > 0 ? held : openly;
  if (reached.length === 0) return null;
  const inScope = scopeOf(atom, c, openly.length > 0, held);
  if (!inScope) return null;
  const { scope, lineage } = inScope;
  const national = nationalLaw(atom, addressee, c.rules);
  const reasons: Reasons = {
    scope: scope.map((r) => ({ provision: r.provision, reason: r.reason })),
    entity_types: reached,
    correlative: correlative !== null,
    facts: scope.flatMap((r) => scopeFacts(c.verdict(r))),
    through_national_law: national,
    modified_by: [],
    excluded_by: null,
    undetermined_by: null,
  };
  const basis = `${correlative ? `the correlative duty of a right held against ${reached.join(", ")}` : `${national ? "binds through national law transposing " : "applies to "}${reached.join(", ")}`}; the profile is ${c.profile.entity_types.join(", ")}`;
  const decision: Decision = {
    atom,
    status: "applicable",
    applicable: true,
    basis,
    note: "",
    derogation: null,
    reasons,
  };
  // 4 and 5: derogations and modifications; then what a scope turning on an unstated fact leaves open.
  const notes = derogate(decision, lineage, c);
  scopeUndetermined(decision, scope, notes, c);
  if (openly.length > 0) openUndetermined(decision, openly, notes, c);
  if (decision.status !== "excluded")
    for (const m of reasons.modified_by) notes.push(`modified by ${m.provision}: ${m.change}`);
  decision.note = notes.join("; ");
  decision.applicable = decision.status === "applicable";
  // A lifted duty is not met at all, so nothing changes how it is met.
  if (decision.status === "excluded") reasons.modified_by = [];
  return decision;
}

/**
 * The types holding the duty: a regulated party's duty binds the parties it names; a Member State's,
 * the parties it prescribes conduct for (through national law); a right, the parties it is held
 * against. Duties of authorities and Union bodies bind no firm.
 */
function holdersOf(
  atom: BindingAtom,
  addressee: Addressee,
  correlative: string[] | null,
  c: Deciding,
): string[] {
  if (correlative) return correlative;
  if (addressee === "member_state") return atom.through_national_law ?? [];
  return addressee === "regulated_party" ? atom.applies_to.filter((t) => c.isParty.get(t)) : [];
}

/** A duty held only by types the profile may be: undetermined on the facts that decide the type. */
function openUndetermined(decision: Decision, openly: string[], notes: string[], c: Deciding): void {
  if (decision.status === "excluded") return;
  const why = openReason(openly, c.open);
  decision.status = "undetermined";
  decision.reasons.undetermined_by = { provision: why.provision, facts: why.facts };
  notes.unshift(why.note);
}

/**
 * The scope rules an atom sits under, its act's and then its parts', with the atom's lineage; null
 * when one of them does not reach the profile. A scope the profile may be in only as a type it may be
 * (a payer) reaches no duty held by a type it is (an undertaking's authorisation).
 */
function scopeOf(
  atom: BindingAtom,
  c: Deciding,
  openly: boolean,
  held: string[],
): { scope: ScopeRule[]; lineage: string[] } | null {
  const out = (r: ScopeRule) => {
    const v = c.verdict(r);
    return v.in === false || (v.in === "unknown" && v.open === true && !openly);
  };
  const act = c.actRule.get(atom.act);
  if (act && (out(act) || !inCapacity(c.verdict(act), held, c.capacities))) return null;
  const lineage = [atom.node, ...c.ancestry(atom.node)];
  const parts = lineage.flatMap((n) => c.partsByNode.get(n) ?? []);
  const partOut = parts.find(out);
  if (partOut) {
    if (!c.outOfScope.has(partOut.id)) c.outOfScope.set(partOut.id, outOf(atom.act, partOut));
    return null;
  }
  return { scope: [...(act ? [act] : []), ...parts], lineage };
}

/**
 * A directive binds a firm only through the national measures transposing it, whatever the
 * grammar of the sentence ("Member States shall ensure that entities …" or "The measures shall …").
 */
function nationalLaw(atom: BindingAtom, addressee: Addressee, rules: Rules): Reasons["through_national_law"] {
  const transposed = rules.transposition?.(atom.act) ?? null;
  return addressee === "member_state" || transposed
    ? {
        directive: atom.node,
        national_law_from: transposed?.date ?? null,
        provision: transposed?.provision ?? null,
        ...(transposed?.deadline
          ? {
              transposition_deadline: transposed.deadline,
              transposition_provision: transposed.deadline_provision ?? "",
            }
          : {}),
      }
    : null;
}

/**
 * The derogations in force on the atom's node or an ancestor, in their own order: a modification
 * changes how the duty is met and never lifts it; an exclusion lifts it, and the first that does
 * ends the look; one that turns on a fact the profile does not state leaves the duty undetermined.
 * Returns the decision's notes.
 */
function derogate(decision: Decision, lineage: string[], c: Deciding): string[] {
  const reasons = decision.reasons;
  const candidates: { d: Derogation; disapplied: string }[] = [];
  for (const n of lineage) for (const d of c.derogations.get(n) ?? []) candidates.push({ d, disapplied: n });
  // The derogations' own order, so the first that lifts is the same whatever the nesting.
  candidates.sort((x, y) => (c.order.get(x.d) ?? 0) - (c.order.get(y.d) ?? 0));
  const notes: string[] = [];
  for (const { d, disapplied } of candidates) {
    const types = d.exempts.entity_types ?? [];
    if (types.length > 0 && !types.some((t) => c.binds.has(t))) continue;
    const v = evaluate(d.exempts.when, d.exempts.unless, c.facts);
    if (v.truth === false) continue;
    if ((d.effect ?? "exclude") === "modify") {
      if (v.truth === true)
        reasons.modified_by.push({ id: d.id, provision: d.derogating, change: d.change ?? "" });
      else
        notes.push(
          `${d.derogating} would change how this is met if the profile stated ${v.unknown.join(" and ")}`,
        );
      continue;
    }
    if (v.truth === "unknown") {
      if (decision.status === "applicable") {
        decision.status = "undetermined";
        reasons.undetermined_by = { provision: d.derogating, facts: v.unknown };
        notes.push(
          `${d.derogating} disapplies this${before(d)} if ${v.unknown.join(" and ")}; the profile does not say`,
        );
      }
      continue;
    }
    // Lifted: what earlier derogations left open no longer matters.
    notes.length = 0;
    notes.push(exclude(decision, d, disapplied, v.used));
    break;
  }
  return notes;
}

/** The derogation lifts the duty: the decision says by what; returns the note. */
function exclude(decision: Decision, d: Derogation, disapplied: string, used: string[]): string {
  const types = d.exempts.entity_types ?? [];
  decision.status = "excluded";
  decision.reasons.undetermined_by = null;
  decision.reasons.excluded_by = { provision: d.derogating, kind: d.kind ?? "derogation", rule: d.id };
  decision.reasons.facts.push(...used);
  decision.derogation = {
    id: d.id,
    kind: d.kind ?? "derogation",
    derogating_node: d.derogating,
    derogating_eid: eidOf(d.derogating),
    disapplied_node: disapplied,
    disapplied_eid: eidOf(disapplied),
    exempted_types: types,
  };
  return `${d.kind === "lex_specialis" ? "displaced" : "disapplied"} by ${d.derogating} (${d.id}) for ${types.length ? types.join(", ") : "the entities it describes"}${before(d)}`;
}

/** A derogation that ends holds a duty back only until then: a stage of application (CSRD Art 5(2)). */
const before = (d: Derogation) => (d.until ? ` before ${d.until}` : "");

/**
 * A scope that turns on an unstated fact leaves the duty undetermined, unless a derogation lifts
 * it whatever that fact is (TLPT for a microenterprise: DORA Art 26(1) excludes it outright). A scope
 * unknown only through a type the profile may be is said by that type (openUndetermined).
 */
function scopeUndetermined(decision: Decision, scope: ScopeRule[], notes: string[], c: Deciding): void {
  const scopeUnknown = scope.find((r) => {
    const v = c.verdict(r);
    return v.in === "unknown" && v.open !== true;
  });
  if (!scopeUnknown || decision.status === "excluded") return;
  const v = c.verdict(scopeUnknown) as { facts: string[] };
  decision.reasons.undetermined_by = { provision: scopeUnknown.provision, facts: v.facts };
  decision.status = "undetermined";
  notes.unshift(
    `${scopeUnknown.provision} decides whether this binds; the profile does not state ${v.facts.join(" or ")}`,
  );
}

/** The register's counts, in all and by act. */
function counts(
  applicable: Decision[],
  excluded: Decision[],
  undetermined: Decision[],
): Applicability["counts"] {
  const byAct: Applicability["counts"]["by_act"] = {};
  for (const [list, k] of [
    [applicable, "applicable"],
    [excluded, "excluded"],
    [undetermined, "undetermined"],
  ] as const) {
    for (const d of list) {
      const row = byAct[d.atom.act] ?? { applicable: 0, excluded: 0, undetermined: 0 };
      row[k]++;
      byAct[d.atom.act] = row;
    }
  }
  return {
    applicable: applicable.length,
    excluded: excluded.length,
    undetermined: undetermined.length,
    by_act: Object.fromEntries(Object.entries(byAct).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

function scopeFacts(v: ScopeVerdict): string[] {
  return v.in === true ? v.facts : [];
}
