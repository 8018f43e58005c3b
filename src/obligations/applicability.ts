/**
 * The applicability engine: for an entity profile and a date, the register of duties a compliance
 * officer signs (docs/obligations.md#applicability). The same function serves `acquis coverage`, the
 * serving API's obligations route and an answer's applicability section.
 *
 * In order, for every duty (obligations and prohibitions; a permission binds no one):
 *   1. in force on the date;
 *   2. held by a regulated party the profile is, or prescribed by a directive for such a party
 *      (binding through national law); duties of States, authorities and Union bodies never enter;
 *   3. inside the act's scope, then inside the scope of the part it sits in (`scope.yaml`);
 *   4. not lifted by a derogation or a rule of precedence (`derogations.yaml`, effect exclude);
 *   5. with the modifications that change how it is met (effect modify), which never lift it.
 * A step that turns on a fact the profile does not state makes the duty undetermined, naming the fact:
 * nothing is silently applicable and nothing silently dropped.
 */
import { parse } from "yaml";
import type { Atom } from "./atoms.ts";
import {
  CanonError,
  type Condition,
  checkCondition,
  checkFact,
  deriveFacts,
  evaluate,
  type FactSchema,
  type Facts,
} from "./facts.ts";
import { NO_SCOPE, reaches, type Scope, type ScopeRule } from "./scope.ts";
import { type Addressee, addresseeOfType, ancestors, type Taxonomy } from "./taxonomy.ts";

export type { Condition, Facts } from "./facts.ts";

export interface Profile {
  id: string;
  name: string;
  description?: string;
  entity_types: string[];
  facts: Facts;
}

export interface Derogation {
  id: string;
  /** derogation (default) or lex_specialis: another act or part takes precedence. */
  kind?: "derogation" | "lex_specialis";
  derogating: string;
  disapplies: string[];
  /** exclude (default): the duty does not bind; modify: it binds, met as `change` says. */
  effect?: "exclude" | "modify";
  change?: string;
  exempts: { entity_types?: string[]; when?: Condition[]; unless?: Condition[] };
  from: string;
  until: string | null;
  text: string;
  note?: string;
}

/** What the engine needs of an atom (the release's atoms.json carries it). */
export interface BindingAtom
  extends Pick<
    Atom,
    | "node"
    | "act"
    | "unit_eid"
    | "modality"
    | "actor"
    | "action"
    | "quoted_text"
    | "char_start"
    | "char_end"
    | "effective"
    | "expires"
  > {
  id: string;
  applies_to: string[];
  status_basis?: "deleted" | null;
  /** Absent in releases built before addressees were recorded: read as a regulated party's duty. */
  addressee?: Addressee;
  through_national_law?: string[] | null;
  owed_by?: string[] | null;
}

export type AtomStatus = "in_force" | "pending" | "lapsed" | "deprecated";

export function atomStatus(
  a: Pick<BindingAtom, "effective" | "expires" | "status_basis">,
  date: string,
): AtomStatus {
  if (a.expires !== null && date >= a.expires) return a.status_basis === "deleted" ? "deprecated" : "lapsed";
  return date < a.effective ? "pending" : "in_force";
}

/** A profile, checked against the regime's fact schema and taxonomy when they are given. */
export function parseProfile(
  text: string,
  where: string,
  schema: FactSchema | null = null,
  tax: Taxonomy | null = null,
): Profile {
  const p = parse(text) as Partial<Profile> | null;
  if (!p || typeof p.id !== "string" || !Array.isArray(p.entity_types)) {
    throw new CanonError(`${where}: a profile needs an id and entity_types`);
  }
  const facts = p.facts ?? {};
  if (typeof facts !== "object" || Array.isArray(facts))
    throw new CanonError(`${where}: facts must be a mapping`);
  if (tax) {
    const known = new Set(tax.types.map((t) => t.id));
    for (const t of p.entity_types) {
      if (!known.has(t)) {
        const near = [...known].filter((k) => k.startsWith(t.slice(0, 5))).slice(0, 8);
        throw new CanonError(
          `${where}: entity_types: unknown entity type "${t}"${near.length ? `; did you mean one of ${near.join(", ")}?` : ""} (regimes/<regime>/taxonomy.yaml lists them all)`,
        );
      }
      if (addresseeOfType(tax, t) !== "regulated_party")
        throw new CanonError(
          `${where}: entity_types: ${t} is a ${addresseeOfType(tax, t)}, not a regulated party`,
        );
    }
  }
  if (schema) for (const [k, v] of Object.entries(facts)) checkFact(schema, k, v, `${where}: facts`);
  if (schema) deriveFacts(facts, p.entity_types, where); // refuses a stated size its figures contradict
  return { id: p.id, name: p.name ?? p.id, description: p.description, entity_types: p.entity_types, facts };
}

export function parseDerogations(
  text: string,
  where: string,
  schema: FactSchema | null = null,
): Derogation[] {
  const d = parse(text) as { derogations?: Derogation[] } | null;
  return (d?.derogations ?? []).map((x) => {
    if (typeof x.id !== "string" || typeof x.derogating !== "string" || !Array.isArray(x.disapplies)) {
      throw new CanonError(
        `${where}: derogation ${JSON.stringify(x.id)} needs id, derogating and disapplies`,
      );
    }
    if (x.effect !== undefined && x.effect !== "exclude" && x.effect !== "modify")
      throw new CanonError(
        `${where}: derogation ${x.id}: effect is ${JSON.stringify(x.effect)}; allowed: exclude, modify`,
      );
    if (x.effect === "modify" && typeof x.change !== "string")
      throw new CanonError(`${where}: derogation ${x.id}: a modification needs "change" (what it changes)`);
    const exempts = x.exempts ?? {};
    const at = `${where}: derogation ${x.id}`;
    return {
      ...x,
      exempts: {
        ...exempts,
        when: (exempts.when ?? []).map((c) => checkCondition(c, schema, `${at} when`)),
        unless: (exempts.unless ?? []).map((c) => checkCondition(c, schema, `${at} unless`)),
      },
      until: x.until ?? null,
    };
  });
}

export interface DerogationRef {
  id: string;
  kind: "derogation" | "lex_specialis";
  derogating_node: string;
  derogating_eid: string;
  disapplied_node: string;
  disapplied_eid: string;
  exempted_types: string[];
}

export interface Modification {
  id: string;
  provision: string;
  change: string;
}

export type RegisterStatus = "applicable" | "excluded" | "undetermined";

/** Why an item has its status: what a compliance officer checks before signing. */
export interface Reasons {
  scope: { provision: string; reason: string }[];
  entity_types: string[];
  facts: string[];
  /** The item is the duty owed under a right the text grants another ("the right to obtain from the controller"). */
  correlative: boolean;
  through_national_law: {
    directive: string;
    national_law_from: string | null;
    provision: string | null;
    /** The date by which Member States had to transpose the directive, and the article saying so. */
    transposition_deadline?: string;
    transposition_provision?: string;
  } | null;
  modified_by: Modification[];
  excluded_by: { provision: string; kind: string; rule: string } | null;
  undetermined_by: { provision: string; facts: string[] } | null;
}

export interface Decision {
  atom: BindingAtom;
  status: RegisterStatus;
  applicable: boolean;
  basis: string;
  note: string;
  derogation: DerogationRef | null;
  reasons: Reasons;
}

export interface OutOfScope {
  act: string;
  nodes: string[];
  rule: string;
  provision: string;
  reason: string;
}

export interface Applicability {
  entity_profile: string;
  entity_type: string;
  binds: string[];
  as_of: string;
  derived: string[];
  applicable: Decision[];
  excluded: Decision[];
  undetermined: Decision[];
  out_of_scope: OutOfScope[];
  counts: {
    applicable: number;
    excluded: number;
    undetermined: number;
    by_act: Record<string, { applicable: number; excluded: number; undetermined: number }>;
  };
}

/** The canon the engine decides with. */
export interface Rules {
  taxonomy: Taxonomy;
  derogations: Derogation[];
  scope: Scope;
  /** For a directive: the date its national measures apply from, and the provision that says so. */
  transposition?: (
    act: string,
  ) => { date: string; provision: string; deadline: string | null; deadline_provision: string | null } | null;
  /** A unit's ancestors, nearest first, ending with its act's id. */
  ancestry?: (node: string) => string[];
}

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
): { facts: Facts; types: string[]; derived: string[] } {
  const base = deriveFacts(profile.facts, profile.entity_types, `profile ${profile.id}`);
  const types = new Set(base.types);
  const derived = [...base.derived];
  // A profile is a firm, an undertaking: a duty of "undertakings" in an act whose scope reaches it binds
  // it too. ("person" is not added: the actor map gives it to injured persons, users and claimants.)
  if (rules.taxonomy.types.some((t) => t.id === "undertaking")) types.add("undertaking");
  for (const d of rules.scope.derive) {
    if (evaluate(d.when, [], base.facts).truth === true && !types.has(d.type)) {
      types.add(d.type);
      derived.push(`${d.type} (${d.provision}: ${d.when.map((c) => `${c.fact}`).join(", ")})`);
    }
  }
  return { facts: base.facts, types: [...types].sort(), derived };
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
  const ancestry = rules.ancestry ?? ancestryByName;
  const profileNow = prepared(profile, rules);
  const binds = ancestors(tax, profileNow.types);
  const bindSet = new Set(binds);
  const isParty = new Map(tax.types.map((t) => [t.id, addresseeOfType(tax, t.id) === "regulated_party"]));
  const facts = profileNow.facts;

  const actRule = new Map(rules.scope.acts.map((r) => [r.id, r]));
  const partsByNode = new Map<string, ScopeRule[]>();
  for (const p of rules.scope.parts)
    for (const n of p.nodes) partsByNode.set(n, [...(partsByNode.get(n) ?? []), p]);
  const verdicts = new Map<ScopeRule, ReturnType<typeof reaches>>();
  const verdict = (r: ScopeRule) => {
    const known = verdicts.get(r);
    if (known) return known;
    const v = reaches(r, bindSet, facts);
    verdicts.set(r, v);
    return v;
  };
  const outOfScope = new Map<string, OutOfScope>();
  for (const r of rules.scope.acts)
    if (verdict(r).in === false)
      outOfScope.set(r.id, {
        act: r.id,
        nodes: r.nodes,
        rule: r.id,
        provision: r.provision,
        reason: r.reason,
      });

  // Derogations in force, by the node they disapply: an atom looks up its own node and its ancestors.
  const byNode = new Map<string, Derogation[]>();
  for (const d of derogations) {
    if (!(d.from <= date && (d.until === null || date < d.until))) continue;
    for (const n of d.disapplies) byNode.set(n, [...(byNode.get(n) ?? []), d]);
  }
  const order = new Map(derogations.map((d, i) => [d, i]));

  const applicable: Decision[] = [];
  const excluded: Decision[] = [];
  const undetermined: Decision[] = [];
  for (const atom of atoms) {
    // A permission binds no one, except as the correlative duty of a right held against a party.
    const correlative = atom.modality === "permission" ? (atom.owed_by ?? null) : null;
    if (atom.modality === "permission" && !correlative) continue;
    if (atomStatus(atom, date) !== "in_force") continue;
    const addressee = atom.addressee ?? "regulated_party";
    const holders = correlative
      ? correlative
      : addressee === "regulated_party"
        ? atom.applies_to.filter((t) => isParty.get(t))
        : addressee === "member_state"
          ? (atom.through_national_law ?? [])
          : [];
    const reached = holders.filter((t) => bindSet.has(t));
    if (reached.length === 0) continue;
    const act = actRule.get(atom.act);
    if (act && verdict(act).in === false) continue;
    const lineage = [atom.node, ...ancestry(atom.node)];
    const parts = lineage.flatMap((n) => partsByNode.get(n) ?? []);
    const partOut = parts.find((p) => verdict(p).in === false);
    if (partOut) {
      if (!outOfScope.has(partOut.id))
        outOfScope.set(partOut.id, {
          act: atom.act,
          nodes: partOut.nodes,
          rule: partOut.id,
          provision: partOut.provision,
          reason: partOut.reason,
        });
      continue;
    }
    // A directive binds a firm only through the national measures transposing it, whatever the
    // grammar of the sentence ("Member States shall ensure that entities …" or "The measures shall …").
    const transposed = rules.transposition?.(atom.act) ?? null;
    const national =
      addressee === "member_state" || transposed
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
    const reasons: Reasons = {
      scope: [...(act ? [act] : []), ...parts].map((r) => ({ provision: r.provision, reason: r.reason })),
      entity_types: reached,
      correlative: correlative !== null,
      facts: [...(act ? scopeFacts(verdict(act)) : []), ...parts.flatMap((p) => scopeFacts(verdict(p)))],
      through_national_law: national,
      modified_by: [],
      excluded_by: null,
      undetermined_by: null,
    };
    const basis = `${correlative ? `the correlative duty of a right held against ${reached.join(", ")}` : `${national ? "binds through national law transposing " : "applies to "}${reached.join(", ")}`}; the profile is ${profile.entity_types.join(", ")}`;
    const decision: Decision = {
      atom,
      status: "applicable",
      applicable: true,
      basis,
      note: "",
      derogation: null,
      reasons,
    };
    const candidates: { d: Derogation; disapplied: string }[] = [];
    for (const n of lineage) for (const d of byNode.get(n) ?? []) candidates.push({ d, disapplied: n });
    // The derogations' own order, so the first that lifts is the same whatever the nesting.
    candidates.sort((x, y) => (order.get(x.d) ?? 0) - (order.get(y.d) ?? 0));
    const notes: string[] = [];
    for (const { d, disapplied } of candidates) {
      const types = d.exempts.entity_types ?? [];
      if (types.length > 0 && !types.some((t) => bindSet.has(t))) continue;
      const v = evaluate(d.exempts.when, d.exempts.unless, facts);
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
            `${d.derogating} disapplies this if ${v.unknown.join(" and ")}; the profile does not say`,
          );
        }
        continue;
      }
      decision.status = "excluded";
      reasons.undetermined_by = null;
      reasons.excluded_by = { provision: d.derogating, kind: d.kind ?? "derogation", rule: d.id };
      reasons.facts.push(...v.used);
      decision.derogation = {
        id: d.id,
        kind: d.kind ?? "derogation",
        derogating_node: d.derogating,
        derogating_eid: eidOf(d.derogating),
        disapplied_node: disapplied,
        disapplied_eid: eidOf(disapplied),
        exempted_types: types,
      };
      notes.length = 0;
      notes.push(
        `${d.kind === "lex_specialis" ? "displaced" : "disapplied"} by ${d.derogating} (${d.id}) for ${types.length ? types.join(", ") : "the entities it describes"}`,
      );
      break;
    }
    // A scope that turns on an unstated fact leaves the duty undetermined, unless a derogation lifts
    // it whatever that fact is (TLPT for a microenterprise: DORA Art 26(1) excludes it outright).
    const scopeUnknown = [act, ...parts].find((r) => r && verdict(r).in === "unknown");
    if (scopeUnknown && decision.status !== "excluded") {
      const v = verdict(scopeUnknown) as { facts: string[] };
      reasons.undetermined_by = { provision: scopeUnknown.provision, facts: v.facts };
      decision.status = "undetermined";
      notes.unshift(
        `${scopeUnknown.provision} decides whether this binds; the profile does not state ${v.facts.join(" or ")}`,
      );
    }
    if (decision.status !== "excluded")
      for (const m of reasons.modified_by) notes.push(`modified by ${m.provision}: ${m.change}`);
    decision.note = notes.join("; ");
    decision.applicable = decision.status === "applicable";
    if (decision.status === "applicable") applicable.push(decision);
    else if (decision.status === "excluded") {
      reasons.modified_by = [];
      excluded.push(decision);
    } else undetermined.push(decision);
  }
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
    entity_profile: profile.id,
    entity_type: profile.entity_types[0] ?? "",
    binds,
    as_of: date,
    derived: profileNow.derived,
    applicable,
    excluded,
    undetermined,
    out_of_scope: [...outOfScope.values()].sort((a, b) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)),
    counts: {
      applicable: applicable.length,
      excluded: excluded.length,
      undetermined: undetermined.length,
      by_act: Object.fromEntries(Object.entries(byAct).sort(([a], [b]) => (a < b ? -1 : 1))),
    },
  };
}

function scopeFacts(v: ReturnType<typeof reaches>): string[] {
  return v.in === true ? v.facts : [];
}
