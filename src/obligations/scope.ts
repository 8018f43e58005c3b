/**
 * Act scope before atom scope (`scope.yaml`, docs/obligations.md#scope): each act's personal and
 * material scope, and the narrower scope of some of its parts, as canon data naming the provision it
 * comes from. The engine checks them before it looks at any duty of the act, so an act that cannot
 * apply to a firm (the Law Enforcement Directive to a bank) is reported once, with its reason.
 */
import { parse } from "yaml";
import {
  type Condition,
  checkCondition,
  evaluate,
  type FactSchema,
  type Facts,
  ObligationsCanonError,
} from "./facts.ts";
import { addresseeOfType, type Taxonomy } from "./taxonomy.ts";

/** One way a scope can reach a profile: one of the types (or a narrower one), and all conditions. */
export interface Reach {
  types: string[];
  when?: Condition[];
}

export interface ScopeRule {
  /** The act id for an act's scope; a slug for a part's. */
  id: string;
  /** Act ids or unit nodes (a unit covers its subtree). */
  nodes: string[];
  provision: string;
  reason: string;
  reaches: Reach[];
  /**
   * For an act all of whose duties fall on one kind of party (a delegated act for financial
   * entities): the holder of a duty whose subject is a thing and names no one ("the size … shall be
   * taken into account").
   */
  holder?: string;
  /**
   * For an act that gives subscribers, users or end-users rights and names no one they are held against
   * ("Subscribers shall have the right to receive non-itemised bills", ePrivacy Art 7(1); "ensure that
   * any subscriber has the possibility … of stopping automatic call forwarding", Art 11): the regulated
   * parties that owe them, the providers of the act's services.
   */
  rights_against?: string[];
}

export interface DerivedType {
  type: string;
  provision: string;
  when: Condition[];
  /**
   * A type any firm may have without a register knowing (paying and being paid, PSD2 Art 4(8)-(10)):
   * while the profile does not state the facts, the type stays open and its duties are undetermined,
   * naming them. A type a firm would know it has (identified as a critical entity) is not open.
   */
  open?: boolean;
}

/** The types a profile may be but does not say it is, each with the provision and facts that decide it. */
export type OpenTypes = Map<string, { label: string; provision: string; facts: string[] }>;

export interface Scope {
  acts: ScopeRule[];
  parts: ScopeRule[];
  derive: DerivedType[];
}

export const NO_SCOPE: Scope = { acts: [], parts: [], derive: [] };

export function parseScope(
  text: string,
  where: string,
  schema: FactSchema | null,
  types: Set<string>,
): Scope {
  const doc = (parse(text) ?? {}) as {
    acts?: (Omit<ScopeRule, "id" | "nodes"> & { act: string })[];
    parts?: ScopeRule[];
    derive?: DerivedType[];
  };
  const rule = (r: Partial<ScopeRule>, id: string, nodes: string[], at: string): ScopeRule => {
    if (
      typeof r.provision !== "string" ||
      typeof r.reason !== "string" ||
      !Array.isArray(r.reaches) ||
      r.reaches.length === 0
    )
      throw new ObligationsCanonError(`${at}: needs provision, reason and at least one entry under reaches`);
    const reaches = r.reaches.map((x, i) => {
      if (!Array.isArray(x?.types) || x.types.length === 0)
        throw new ObligationsCanonError(`${at}: reaches[${i}] needs types`);
      for (const t of x.types)
        if (!types.has(t))
          throw new ObligationsCanonError(`${at}: reaches[${i}] names unknown entity type ${t}`);
      return {
        types: x.types,
        when: (x.when ?? []).map((c) => checkCondition(c, schema, `${at}: reaches[${i}]`)),
      };
    });
    if (r.holder !== undefined && !types.has(r.holder))
      throw new ObligationsCanonError(`${at}: holder names unknown entity type ${r.holder}`);
    for (const t of r.rights_against ?? [])
      if (!types.has(t))
        throw new ObligationsCanonError(`${at}: rights_against names unknown entity type ${t}`);
    return {
      id,
      nodes,
      provision: r.provision,
      reason: r.reason,
      reaches,
      ...(r.holder ? { holder: r.holder } : {}),
      ...(r.rights_against ? { rights_against: r.rights_against } : {}),
    };
  };
  const acts = (doc.acts ?? []).map((a, i) => {
    if (typeof a.act !== "string") throw new ObligationsCanonError(`${where}: acts[${i}] needs act`);
    return rule(a, a.act, [a.act], `${where}: act ${a.act}`);
  });
  const seen = new Set<string>();
  for (const a of acts) {
    if (seen.has(a.id)) throw new ObligationsCanonError(`${where}: act ${a.id} is listed twice`);
    seen.add(a.id);
  }
  const parts = (doc.parts ?? []).map((p, i) => {
    if (typeof p.id !== "string" || !Array.isArray(p.nodes) || p.nodes.length === 0)
      throw new ObligationsCanonError(`${where}: parts[${i}] needs id and nodes`);
    return rule(p, p.id, p.nodes, `${where}: part ${p.id}`);
  });
  const derive = (doc.derive ?? []).map((d, i) => {
    if (!types.has(d?.type))
      throw new ObligationsCanonError(`${where}: derive[${i}] names unknown entity type ${d?.type}`);
    return {
      type: d.type,
      provision: d.provision,
      when: (d.when ?? []).map((c) => checkCondition(c, schema, `${where}: derive ${d.type}`)),
      ...(d.open === true ? { open: true } : {}),
    };
  });
  return { acts, parts, derive };
}

export type ScopeVerdict =
  | { in: true; reach: Reach; facts: string[] }
  | { in: false }
  | { in: "unknown"; facts: string[] /** only through types the profile may be */; open?: true };

/**
 * Whether a scope rule reaches a profile of these (closed-upwards) types with these facts; a reach
 * through a type the profile may be (open) is unknown, on the facts that would decide the type.
 */
export function reaches(
  rule: ScopeRule,
  binds: Set<string>,
  facts: Facts,
  open: OpenTypes = new Map(),
): ScopeVerdict {
  const unknown: string[] = [];
  let openOnly = true;
  for (const r of rule.reaches) {
    const openly = r.types.some((t) => binds.has(t)) ? null : r.types.find((t) => open.has(t));
    if (openly === undefined) continue;
    const v = evaluate(r.when, [], facts);
    if (openly !== null) {
      if (v.truth !== false) unknown.push(...(open.get(openly)?.facts ?? []), ...v.unknown);
      continue;
    }
    if (v.truth === true) return { in: true, reach: r, facts: v.used };
    if (v.truth === "unknown") {
      unknown.push(...v.unknown);
      openOnly = false;
    }
  }
  if (unknown.length === 0) return { in: false };
  return { in: "unknown", facts: [...new Set(unknown)], ...(openOnly ? { open: true as const } : {}) };
}

/** Rules 6: the regulated parties an act reaches hold its impersonal duties ("it shall be prohibited to …"). */
export function actParties(scope: Scope, tax: Taxonomy): Map<string, string[]> {
  const parties = new Map<string, string[]>();
  for (const r of scope.acts) {
    const types = r.reaches
      .flatMap((x) => x.types)
      .filter((t) => addresseeOfType(tax, t) === "regulated_party");
    parties.set(r.id, [...new Set([...(parties.get(r.id) ?? []), ...types])].sort());
  }
  return parties;
}
