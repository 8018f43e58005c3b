/**
 * MCP tool schemas every client accepts. The TypeBox schemas validate requests and responses; some MCP
 * clients reject what JSON Schema allows there (`$ref`, `anyOf` at the top, unions of literals, pattern
 * properties), so the tool list carries an equivalent plain form: literal unions as `enum`, a nullable
 * type as a type list, records as `additionalProperties`, and one output object whose members are the
 * payload's and the error body's (a result is either).
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** The schema with every construct some client rejects rewritten to an equivalent plain one. */
export function portable(schema: unknown): Json {
  const s = JSON.parse(JSON.stringify(schema)) as Json;
  return rewrite(s);
}

function rewrite(s: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "$id" || k === "$schema") continue;
    if (k === "properties" && isObject(v))
      out.properties = Object.fromEntries(Object.entries(v).map(([p, x]) => [p, rewrite(x as Json)]));
    else if ((k === "items" || k === "additionalProperties") && isObject(v)) out[k] = rewrite(v);
    else if (k === "patternProperties" && isObject(v)) {
      // A record: any key, each value of one schema.
      const only = Object.values(v)[0];
      if (isObject(only)) out.additionalProperties = rewrite(only);
    } else out[k] = v;
  }
  const union = (out.anyOf ?? out.oneOf) as Json[] | undefined;
  if (!union) return out;
  delete out.anyOf;
  delete out.oneOf;
  const parts = union.map(rewrite);
  if (parts.every((p) => "const" in p)) {
    const values = parts.map((p) => p.const);
    return { ...out, type: typeOf(values[0]), enum: values };
  }
  // Nullable and scalar unions: one type list, the non-null branch's constraints kept.
  const types = parts.flatMap((p) => (Array.isArray(p.type) ? p.type : [p.type]));
  const rich = parts.find((p) => p.type !== "null") ?? {};
  if (types.every((t) => typeof t === "string")) {
    const { type: _t, ...rest } = rich;
    return { ...out, ...rest, type: [...new Set(types as string[])] };
  }
  return { ...out, anyOf: parts };
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/**
 * A tool's output schema: the payload's members and the error body's, none required, in one object, so
 * no top-level `anyOf` is needed and both kinds of result validate.
 */
export function portableOutput(payload: unknown, error: unknown): Json {
  const p = portable(payload);
  const e = portable(error);
  return {
    type: "object",
    properties: { ...(e.properties as Json), ...(p.properties as Json) },
    additionalProperties: false,
    description: "the operation's payload or, for a refusal (isError), the error body",
  };
}
