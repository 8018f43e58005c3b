/**
 * Entity profiles and derogations as the obligations canon states them (`profiles/*.yaml`,
 * `derogations.yaml`), read and checked against the regime's fact schema and taxonomy: a profile names
 * regulated parties and states facts of the schema's types; a derogation names what it disapplies, its
 * effect, and the conditions it turns on.
 */
import { parse } from "yaml";
import {
  type Condition,
  checkCondition,
  checkFact,
  deriveFacts,
  type FactSchema,
  type Facts,
  impliedFacts,
  ObligationsCanonError,
} from "./facts.ts";
import { addresseeOfType, ancestors, type Taxonomy } from "./taxonomy.ts";

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

/** A profile, checked against the regime's fact schema and taxonomy when they are given. */
export function parseProfile(
  text: string,
  where: string,
  schema: FactSchema | null = null,
  tax: Taxonomy | null = null,
): Profile {
  const p = parse(text) as Partial<Profile> | null;
  if (!p || typeof p.id !== "string" || !Array.isArray(p.entity_types)) {
    throw new ObligationsCanonError(`${where}: a profile needs an id and entity_types`);
  }
  const facts = p.facts ?? {};
  if (typeof facts !== "object" || Array.isArray(facts))
    throw new ObligationsCanonError(`${where}: facts must be a mapping`);
  if (tax) {
    const known = new Set(tax.types.map((t) => t.id));
    for (const t of p.entity_types) {
      if (!known.has(t)) {
        const near = [...known].filter((k) => k.startsWith(t.slice(0, 5))).slice(0, 8);
        throw new ObligationsCanonError(
          `${where}: entity_types: unknown entity type "${t}"${near.length ? `; did you mean one of ${near.join(", ")}?` : ""} (regimes/<regime>/taxonomy.yaml lists them all)`,
        );
      }
      if (addresseeOfType(tax, t) !== "regulated_party")
        throw new ObligationsCanonError(
          `${where}: entity_types: ${t} is a ${addresseeOfType(tax, t)}, not a regulated party`,
        );
    }
  }
  if (schema) for (const [k, v] of Object.entries(facts)) checkFact(schema, k, v, `${where}: facts`);
  if (schema) deriveFacts(facts, p.entity_types, where); // refuses a stated size its figures contradict
  if (schema && tax) impliedFacts(schema, facts, ancestors(tax, p.entity_types), where); // and a fact the law contradicts
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
      throw new ObligationsCanonError(
        `${where}: derogation ${JSON.stringify(x.id)} needs id, derogating and disapplies`,
      );
    }
    if (x.effect !== undefined && x.effect !== "exclude" && x.effect !== "modify")
      throw new ObligationsCanonError(
        `${where}: derogation ${x.id}: effect is ${JSON.stringify(x.effect)}; allowed: exclude, modify`,
      );
    if (x.effect === "modify" && typeof x.change !== "string")
      throw new ObligationsCanonError(
        `${where}: derogation ${x.id}: a modification needs "change" (what it changes)`,
      );
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
