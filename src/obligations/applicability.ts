/**
 * The applicability engine: for an entity profile and a date, every atom that binds it and every
 * atom that would bind it but for a derogation in force. The same function serves `acquis coverage`
 * and the serving API's obligations route. Nothing is dropped: an atom whose exemption depends on a
 * fact the profile does not state is reported applicable, with a note naming that fact.
 */
import { parse } from "yaml";
import type { Atom } from "./atoms.ts";
import { ancestors, type Taxonomy } from "./taxonomy.ts";

export type Facts = Record<string, string | number | boolean | string[]>;

export interface Profile {
  id: string;
  name: string;
  description?: string;
  entity_types: string[];
  facts: Facts;
}

export interface Condition {
  fact: string;
  lt?: number;
  le?: number;
  gt?: number;
  ge?: number;
  eq?: string | number | boolean;
  in?: (string | number)[];
}

export interface Derogation {
  id: string;
  derogating: string;
  disapplies: string[];
  exempts: { entity_types?: string[]; when?: Condition[]; unless?: Condition[] };
  from: string;
  until: string | null;
  text: string;
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
}

export type AtomStatus = "in_force" | "pending" | "lapsed" | "deprecated";

export function atomStatus(
  a: Pick<BindingAtom, "effective" | "expires" | "status_basis">,
  date: string,
): AtomStatus {
  if (a.expires !== null && date >= a.expires) return a.status_basis === "deleted" ? "deprecated" : "lapsed";
  return date < a.effective ? "pending" : "in_force";
}

export function parseProfile(text: string, where: string): Profile {
  const p = parse(text) as Partial<Profile> | null;
  if (!p || typeof p.id !== "string" || !Array.isArray(p.entity_types)) {
    throw new Error(`${where}: a profile needs an id and entity_types`);
  }
  return {
    id: p.id,
    name: p.name ?? p.id,
    description: p.description,
    entity_types: p.entity_types,
    facts: p.facts ?? {},
  };
}

export function parseDerogations(text: string, where: string): Derogation[] {
  const d = parse(text) as { derogations?: Derogation[] } | null;
  return (d?.derogations ?? []).map((x) => {
    if (typeof x.id !== "string" || typeof x.derogating !== "string" || !Array.isArray(x.disapplies)) {
      throw new Error(`${where}: derogation ${JSON.stringify(x.id)} needs id, derogating and disapplies`);
    }
    return { ...x, exempts: x.exempts ?? {}, until: x.until ?? null };
  });
}

type Truth = true | false | "unknown";

function holds(c: Condition, facts: Facts): Truth {
  const v = facts[c.fact];
  if (v === undefined) return "unknown";
  if (c.eq !== undefined) return v === c.eq;
  if (c.in !== undefined)
    return Array.isArray(v) ? v.some((x) => c.in?.includes(x)) : c.in.includes(v as string | number);
  if (typeof v !== "number") return "unknown";
  if (c.lt !== undefined && !(v < c.lt)) return false;
  if (c.le !== undefined && !(v <= c.le)) return false;
  if (c.gt !== undefined && !(v > c.gt)) return false;
  if (c.ge !== undefined && !(v >= c.ge)) return false;
  return true;
}

function describe(c: Condition): string {
  const op =
    c.lt !== undefined
      ? `< ${c.lt}`
      : c.le !== undefined
        ? `<= ${c.le}`
        : c.gt !== undefined
          ? `> ${c.gt}`
          : c.ge !== undefined
            ? `>= ${c.ge}`
            : c.eq !== undefined
              ? `= ${c.eq}`
              : `in ${JSON.stringify(c.in)}`;
  return `${c.fact} ${op}`;
}

export interface DerogationRef {
  id: string;
  derogating_node: string;
  derogating_eid: string;
  disapplied_node: string;
  disapplied_eid: string;
  exempted_types: string[];
}

export interface Decision {
  atom: BindingAtom;
  applicable: boolean;
  basis: string;
  note: string;
  derogation: DerogationRef | null;
}

export interface Applicability {
  entity_profile: string;
  entity_type: string;
  binds: string[];
  as_of: string;
  applicable: Decision[];
  excluded: Decision[];
  counts: { applicable: number; excluded: number };
}

const eidOf = (node: string) => node.slice(node.indexOf("/") + 1);

/** "dora/art_5__para_1" -> "dora/art_5"; "dora/art_5" -> null. */
function parentNode(node: string): string | null {
  const i = node.lastIndexOf("__");
  return i < 0 ? null : node.slice(0, i);
}

export function decide(
  profile: Profile,
  date: string,
  atoms: BindingAtom[],
  tax: Taxonomy,
  derogations: Derogation[],
): Applicability {
  const binds = ancestors(tax, profile.entity_types);
  const bindSet = new Set(binds);
  // Derogations in force, by the node they disapply: an atom looks up its own node and its ancestors.
  const byNode = new Map<string, Derogation[]>();
  for (const d of derogations) {
    if (!(d.from <= date && (d.until === null || date < d.until))) continue;
    for (const n of d.disapplies) byNode.set(n, [...(byNode.get(n) ?? []), d]);
  }
  const applicable: Decision[] = [];
  const excluded: Decision[] = [];
  for (const atom of atoms) {
    if (atomStatus(atom, date) !== "in_force") continue;
    const reached = atom.applies_to.filter((t) => bindSet.has(t));
    if (reached.length === 0) continue;
    const basis = `applies to ${reached.join(", ")}; the profile is ${profile.entity_types.join(", ")}`;
    let decision: Decision = { atom, applicable: true, basis, note: "", derogation: null };
    const notes: string[] = [];
    const candidates: { d: Derogation; disapplied: string }[] = [];
    for (let n: string | null = atom.node; n !== null; n = parentNode(n)) {
      for (const d of byNode.get(n) ?? []) candidates.push({ d, disapplied: n });
    }
    // Keep the derogations' own order, so the first that exempts is the same whatever the nesting.
    candidates.sort((x, y) => derogations.indexOf(x.d) - derogations.indexOf(y.d));
    for (const { d, disapplied } of candidates) {
      const types = d.exempts.entity_types ?? [];
      if (types.length > 0 && !types.some((t) => bindSet.has(t))) continue;
      const when = (d.exempts.when ?? []).map((c) => ({ c, t: holds(c, profile.facts) }));
      const unless = (d.exempts.unless ?? []).map((c) => ({ c, t: holds(c, profile.facts) }));
      if (when.some((w) => w.t === false) || unless.some((u) => u.t === true)) continue;
      const ref: DerogationRef = {
        id: d.id,
        derogating_node: d.derogating,
        derogating_eid: eidOf(d.derogating),
        disapplied_node: disapplied,
        disapplied_eid: eidOf(disapplied),
        exempted_types: types,
      };
      const unknown = [
        ...when.filter((w) => w.t === "unknown").map((w) => describe(w.c)),
        ...unless.filter((u) => u.t === "unknown").map((u) => `not ${describe(u.c)}`),
      ];
      if (unknown.length > 0) {
        notes.push(`${d.derogating} would disapply this if the profile stated ${unknown.join(" and ")}`);
        continue;
      }
      decision = {
        atom,
        applicable: false,
        basis,
        note: `disapplied by ${d.derogating} (${d.id}) for ${types.length ? types.join(", ") : "the entities it describes"}`,
        derogation: ref,
      };
      break;
    }
    if (decision.applicable) {
      decision.note = notes.join("; ");
      applicable.push(decision);
    } else excluded.push(decision);
  }
  return {
    entity_profile: profile.id,
    entity_type: profile.entity_types[0] ?? "",
    binds,
    as_of: date,
    applicable,
    excluded,
    counts: { applicable: applicable.length, excluded: excluded.length },
  };
}
