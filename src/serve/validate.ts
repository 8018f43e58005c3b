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

/** null when the value satisfies the schema, else the message naming the field. */
export function check(schema: TSchema, value: unknown): string | null {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(value) ? null : describeErrors(validate.errors);
}
