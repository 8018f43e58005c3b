/**
 * Request validation shared by the transports: Ajv over the TypeBox schemas with nothing stripped,
 * coerced or defaulted, and one message format that names the offending field.
 */

import type { TSchema } from "@sinclair/typebox";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

export const AJV_OPTIONS = {
  removeAdditional: false,
  coerceTypes: false,
  useDefaults: false,
  allErrors: false,
} as const;

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  const where = e?.instancePath ? e.instancePath.slice(1).replaceAll("/", ".") : "body";
  const extra = (e?.params as { additionalProperty?: string } | undefined)?.additionalProperty;
  return extra
    ? `${where === "body" ? "" : `${where}: `}unknown field "${extra}"`
    : `${where}: ${e?.message ?? "invalid"}`;
}

const ajv = new Ajv({ ...AJV_OPTIONS, strict: false });
const compiled = new Map<TSchema, ValidateFunction>();

/** The path of the first string (key or value) in `v` that is not well-formed UTF-16, or null. */
export function illFormed(v: unknown, at: string): string | null {
  if (typeof v === "string") return v.isWellFormed() ? null : at;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = illFormed(v[i], `${at}[${i}]`);
      if (r !== null) return r;
    }
  } else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      if (!k.isWellFormed()) return at || "body";
      const r = illFormed(x, at ? `${at}.${k}` : k);
      if (r !== null) return r;
    }
  }
  return null;
}

/** The refusal for bad Unicode anywhere in a request, or null. */
export function unicodeProblem(value: unknown): string | null {
  const at = illFormed(value, "");
  return at === null ? null : `${at || "body"}: not well-formed Unicode (a lone surrogate)`;
}

/** null when the value satisfies the schema, else the message naming the field. */
export function check(schema: TSchema, value: unknown): string | null {
  const bad = unicodeProblem(value);
  if (bad !== null) return bad;
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(value) ? null : describeErrors(validate.errors);
}
