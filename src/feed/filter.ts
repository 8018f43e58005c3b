/**
 * Subscription filters (change-feed contract): four dimensions, each a sorted list of terms; an empty
 * dimension matches everything, a dimension with terms matches a change carrying any of them, and all
 * dimensions must match (an AND of ORs). entity_type follows the taxonomy's parent relation: a change
 * declared on a broader type reaches a subscription for a narrower one, not the reverse. topic is wired
 * but matches nothing yet (no atom carries a subject vocabulary).
 */
import { ancestors, type Taxonomy } from "../obligations/taxonomy.ts";
import type { Change } from "./changes.ts";

export const DIMENSIONS = ["entity_type", "jurisdiction", "regime", "topic"] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export type Filter = Record<Dimension, string[]>;

export class FilterError extends Error {}

/**
 * A filter as a caller writes it: any dimension may be left out, given as a string or a list, spelled
 * singular or plural (the service reads a plural by stripping trailing letters); other keys are refused.
 */
export function readFilter(raw: unknown): Filter {
  const filter: Filter = { entity_type: [], jurisdiction: [], regime: [], topic: [] };
  if (raw === undefined || raw === null) return filter;
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new FilterError("filter must be an object of dimensions");
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const dim = DIMENSIONS.find(
      (d) => key === d || (key.startsWith(d) && /^[a-z]{1,3}$/u.test(key.slice(d.length))),
    );
    if (!dim)
      throw new FilterError(`unknown filter dimension "${key}"; dimensions: ${DIMENSIONS.join(", ")}`);
    const terms = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : null;
    if (!terms || terms.some((t) => typeof t !== "string"))
      throw new FilterError(`filter ${key}: a term or a list of terms`);
    for (const t of terms as string[])
      if (t.trim() !== "" && !filter[dim].includes(t.trim())) filter[dim].push(t.trim());
  }
  for (const d of DIMENSIONS) filter[d].sort();
  return filter;
}

/** A filter compiled against a taxonomy: the types each term reaches are computed once, not per change. */
export function compileFilter(filter: Filter, tax: Taxonomy): (change: Change) => boolean {
  const reach = filter.entity_type.map((t) => new Set(ancestors(tax, [t])));
  return (change) => {
    if (filter.regime.length > 0 && !filter.regime.includes(change.facets.regime)) return false;
    if (
      filter.jurisdiction.length > 0 &&
      !change.facets.jurisdiction.some((j) => filter.jurisdiction.includes(j))
    )
      return false;
    if (filter.topic.length > 0 && !change.facets.topics.some((t) => filter.topic.includes(t))) return false;
    // A subscription for type T is reached by changes declared on T or on any type broader than T.
    if (reach.length > 0 && !reach.some((types) => change.facets.entity_types.some((d) => types.has(d))))
      return false;
    return true;
  };
}
