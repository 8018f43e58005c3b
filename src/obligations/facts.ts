/**
 * Profile facts: the schema a regime declares for them (`facts.yaml`), the conditions canon writes on
 * them, and the facts the engine derives from the stated ones.
 *
 * A fact not stated is unknown, never false: a condition on it is "unknown", and the engine reports the
 * duty it decides as undetermined, naming the fact. Conditions are checked when the canon is read, so a
 * misspelt operator or fact is an error there, not a silent exemption later.
 */

export type FactValue = string | number | boolean | string[];
export type Facts = Record<string, FactValue>;

export interface FactSpec {
  type: "integer" | "number" | "boolean" | "enum" | "enum-list" | "string";
  values?: string[];
  /** What the fact means and where the law defines it. */
  about: string;
  /** Derived by the engine from other facts (a profile may state it only if it agrees). */
  derived?: boolean;
  /** A boolean the law makes true for these types: a credit institution is a public-interest entity
   * (Directive 2013/34/EU Art 2(1)(c)), whatever the profile states or leaves out. */
  implied_by_types?: string[];
}

export type FactSchema = Record<string, FactSpec>;

const OPERATORS = ["lt", "le", "gt", "ge", "eq", "in"] as const;
type Operator = (typeof OPERATORS)[number];

export interface Condition {
  fact: string;
  lt?: number;
  le?: number;
  gt?: number;
  ge?: number;
  eq?: string | number | boolean;
  in?: (string | number)[];
}

export type Truth = true | false | "unknown";

/** A mistake in the obligations canon (profiles, facts, scope, derogations), named by file and key. */
export class ObligationsCanonError extends Error {}

const typeOf = (v: unknown) => (Array.isArray(v) ? "list" : v === null ? "null" : typeof v);

export function parseFactSchema(doc: unknown, where: string): FactSchema {
  const facts = (doc as { facts?: Record<string, FactSpec> } | null)?.facts;
  if (!facts || typeof facts !== "object")
    throw new ObligationsCanonError(`${where}: needs a "facts" mapping`);
  const kinds = ["integer", "number", "boolean", "enum", "enum-list", "string"];
  for (const [name, spec] of Object.entries(facts)) {
    if (!kinds.includes(spec?.type))
      throw new ObligationsCanonError(
        `${where}: fact ${name} has type ${JSON.stringify(spec?.type)}; allowed: ${kinds.join(", ")}`,
      );
    if ((spec.type === "enum" || spec.type === "enum-list") && !Array.isArray(spec.values))
      throw new ObligationsCanonError(`${where}: fact ${name} is an ${spec.type} and needs "values"`);
    if (
      spec.implied_by_types !== undefined &&
      (spec.type !== "boolean" || !Array.isArray(spec.implied_by_types))
    )
      throw new ObligationsCanonError(
        `${where}: fact ${name}: implied_by_types needs a boolean fact and a list of entity types`,
      );
  }
  return facts;
}

/**
 * The booleans the law makes true for a type the profile is (`implied_by_types`), given the profile's
 * types and all their ancestors. A profile that states such a fact false is refused: the law says otherwise.
 */
export function impliedFacts(
  schema: FactSchema | null,
  facts: Facts,
  types: string[],
  where: string,
): { facts: Facts; derived: string[] } {
  const out: Facts = { ...facts };
  const derived: string[] = [];
  for (const [name, spec] of Object.entries(schema ?? {})) {
    const by = types.find((t) => spec.implied_by_types?.includes(t));
    if (!by) continue;
    if (facts[name] === false)
      throw new ObligationsCanonError(
        `${where}: facts.${name} is false, but it is true by law for ${by} (${spec.about})`,
      );
    if (facts[name] === undefined) {
      out[name] = true;
      derived.push(`${name} = true (by law for ${by})`);
    }
  }
  return { facts: out, derived };
}

/** A fact's value checked against its declaration; the error names the file, the key and what is allowed. */
export function checkFact(schema: FactSchema, name: string, value: unknown, where: string): void {
  const spec = schema[name];
  if (!spec) {
    throw new ObligationsCanonError(
      `${where}: unknown fact "${name}"; known facts: ${Object.keys(schema).sort().join(", ")}`,
    );
  }
  const bad = (allowed: string) =>
    new ObligationsCanonError(
      `${where}: fact ${name} is ${JSON.stringify(value)} (${typeOf(value)}); allowed: ${allowed}`,
    );
  switch (spec.type) {
    case "integer":
      if (!Number.isInteger(value) || (value as number) < 0) throw bad("a whole number ≥ 0");
      return;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw bad("a number ≥ 0");
      return;
    case "boolean":
      if (typeof value !== "boolean") throw bad("true or false");
      return;
    case "string":
      if (typeof value !== "string" || value === "") throw bad("a non-empty string");
      return;
    case "enum":
      if (typeof value !== "string" || !spec.values?.includes(value))
        throw bad(`one of ${spec.values?.join(", ")}`);
      return;
    case "enum-list":
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || !spec.values?.includes(v)))
        throw bad(`a list of ${spec.values?.join(", ")}`);
      return;
  }
}

/** A canon condition: exactly one known operator, on a declared fact, with an operand of the fact's type. */
export function checkCondition(c: unknown, schema: FactSchema | null, where: string): Condition {
  if (!c || typeof c !== "object") throw new ObligationsCanonError(`${where}: a condition must be a mapping`);
  const { fact, ...rest } = c as Record<string, unknown>;
  if (typeof fact !== "string") throw new ObligationsCanonError(`${where}: a condition needs "fact"`);
  const ops = Object.keys(rest);
  const unknown = ops.filter((o) => !OPERATORS.includes(o as Operator));
  if (unknown.length > 0 || ops.length !== 1) {
    throw new ObligationsCanonError(
      `${where}: condition on ${fact} has operator(s) ${JSON.stringify(ops)}; exactly one of ${OPERATORS.join(", ")} is allowed`,
    );
  }
  const op = ops[0] as Operator;
  const operand = rest[op];
  if (["lt", "le", "gt", "ge"].includes(op) && typeof operand !== "number")
    throw new ObligationsCanonError(`${where}: condition ${fact} ${op} needs a number`);
  if (op === "in" && !Array.isArray(operand))
    throw new ObligationsCanonError(`${where}: condition ${fact} in needs a list`);
  if (schema) {
    const spec = schema[fact];
    if (!spec) throw new ObligationsCanonError(`${where}: condition on unknown fact "${fact}"`);
    if (op === "eq") checkFact(schema, fact, operand, `${where} (condition)`);
    if (op === "in")
      for (const v of operand as unknown[])
        checkFact(schema, fact, spec.type === "enum-list" ? [v] : v, `${where} (condition)`);
    if (["lt", "le", "gt", "ge"].includes(op) && spec.type !== "integer" && spec.type !== "number")
      throw new ObligationsCanonError(`${where}: condition ${fact} ${op}: ${fact} is not a number`);
  }
  return c as Condition;
}

export function holds(c: Condition, facts: Facts): Truth {
  const v = facts[c.fact];
  if (v === undefined) return "unknown";
  if (c.eq !== undefined) return v === c.eq;
  if (c.in !== undefined)
    return Array.isArray(v) ? v.some((x) => c.in?.includes(x)) : c.in.includes(v as string | number);
  if (typeof v !== "number") return false;
  if (c.lt !== undefined) return v < c.lt;
  if (c.le !== undefined) return v <= c.le;
  if (c.gt !== undefined) return v > c.gt;
  if (c.ge !== undefined) return v >= c.ge;
  return false;
}

export function describe(c: Condition): string {
  const [op, operand] = Object.entries(c).find(([k]) => k !== "fact") as [Operator, unknown];
  const sym = { lt: "<", le: "<=", gt: ">", ge: ">=", eq: "=", in: "in" }[op];
  return `${c.fact} ${sym} ${typeof operand === "object" ? JSON.stringify(operand) : String(operand)}`;
}

/** All of `when` hold and none of `unless`: true, false, or unknown with the facts that decide it. */
export function evaluate(
  when: Condition[] = [],
  unless: Condition[] = [],
  facts: Facts,
): { truth: Truth; unknown: string[]; used: string[] } {
  const w = when.map((c) => ({ c, t: holds(c, facts) }));
  const u = unless.map((c) => ({ c, t: holds(c, facts) }));
  const used = [...w, ...u].filter((x) => x.t !== "unknown").map((x) => describe(x.c));
  if (w.some((x) => x.t === false) || u.some((x) => x.t === true)) return { truth: false, unknown: [], used };
  const unknown = [
    ...w.filter((x) => x.t === "unknown").map((x) => describe(x.c)),
    ...u.filter((x) => x.t === "unknown").map((x) => `not ${describe(x.c)}`),
  ];
  return { truth: unknown.length > 0 ? "unknown" : true, unknown, used };
}

const EU27 = new Set(
  "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" "),
);

type Size = "micro" | "small" | "medium" | "large";
const ORDER: Size[] = ["micro", "small", "medium", "large"];

/**
 * The enterprise category of Article 2 of the Annex to Recommendation 2003/361/EC: staff headcount
 * **and** (turnover **or** balance-sheet total) under the ceilings. Figures of partner and linked
 * enterprises count too (Art 6 of the Annex): with such enterprises and no consolidated figures, only
 * "large" can be read from the firm's own figures, since adding partners never makes a firm smaller.
 */
export function enterpriseSize(facts: Facts): { size: Size | null; basis: string } {
  const staff = facts.staff_headcount;
  const turnover = facts.annual_turnover_eur;
  const balance = facts.balance_sheet_total_eur;
  if (typeof staff !== "number" || (typeof turnover !== "number" && typeof balance !== "number"))
    return {
      size: null,
      basis: "staff_headcount and annual_turnover_eur or balance_sheet_total_eur not stated",
    };
  const fits = (maxStaff: number, maxTurnover: number, maxBalance: number) =>
    staff < maxStaff &&
    ((typeof turnover === "number" && turnover <= maxTurnover) ||
      (typeof balance === "number" && balance <= maxBalance));
  const own: Size = fits(10, 2e6, 2e6)
    ? "micro"
    : fits(50, 10e6, 10e6)
      ? "small"
      : fits(250, 50e6, 43e6)
        ? "medium"
        : "large";
  const figures = `staff ${staff}, turnover ${turnover ?? "not stated"}, balance sheet ${balance ?? "not stated"}`;
  const linked = facts.has_partner_or_linked_enterprises;
  if (linked === false || own === "large")
    return {
      size: own,
      basis: `Recommendation 2003/361/EC Annex Art 2: ${figures}${linked === false ? ", no partner or linked enterprises" : ""}`,
    };
  return {
    size: null,
    basis: `${figures} make a ${own} enterprise on its own figures, but has_partner_or_linked_enterprises is ${linked === true ? "true (their figures count, Annex Art 6)" : "not stated"}`,
  };
}

const SIZE_TYPES: Record<Size, string> = {
  micro: "microenterprise",
  small: "small_enterprise",
  medium: "medium_sized_enterprise",
  large: "large_undertaking",
};

/**
 * The facts and entity types the engine derives: `enterprise_size` and its entity type, and
 * `established_in_union` from the jurisdiction. A profile that states a size its figures contradict is
 * an error, not a silent override.
 */
export function deriveFacts(
  facts: Facts,
  entityTypes: string[],
  where: string,
): { facts: Facts; types: string[]; derived: string[] } {
  const out: Facts = { ...facts };
  const types = new Set(entityTypes);
  const derived: string[] = [];
  const { size, basis } = enterpriseSize(facts);
  const stated = facts.enterprise_size;
  if (size !== null && stated !== undefined && stated !== size)
    throw new ObligationsCanonError(
      `${where}: facts.enterprise_size is ${JSON.stringify(stated)} but the figures make it ${size} (${basis})`,
    );
  for (const [s, t] of Object.entries(SIZE_TYPES))
    if (types.has(t) && size !== null && s !== size)
      throw new ObligationsCanonError(
        `${where}: entity_types lists ${t} but the figures make it ${size} (${basis})`,
      );
  const effective = size ?? (typeof stated === "string" ? (stated as Size) : null);
  if (effective && ORDER.includes(effective)) {
    out.enterprise_size = effective;
    types.add(SIZE_TYPES[effective]);
    derived.push(`enterprise_size = ${effective} (${size ? basis : "as the profile states it"})`);
  }
  if (typeof facts.jurisdiction === "string" && out.established_in_union === undefined) {
    out.established_in_union = EU27.has(facts.jurisdiction);
    derived.push(`established_in_union = ${out.established_in_union} (jurisdiction ${facts.jurisdiction})`);
  }
  return { facts: out, types: [...types].sort(), derived };
}
