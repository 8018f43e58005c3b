/**
 * The JSON Schemas of the regime canon files (TypeBox, so one definition gives the schema, the
 * validator and the editor's schema in docs/schemas/), and YAML validation whose errors name the file,
 * the line and the key, because a person fixes a canon mistake from the message.
 */
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { isMap, isScalar, LineCounter, parseDocument } from "yaml";
import type { ActType } from "./model.ts";

export class CanonError extends Error {}

export const PARSER_VERSIONS = [1, 2, 3, 4, 5] as const;
const ACT_TYPES: ActType[] = ["reg", "dir", "reg_del", "reg_impl", "un_reg"];

const closed = { additionalProperties: false } as const;
const Text = Type.String({ minLength: 1 });
/** YAML reads an unquoted 155 as a number; a number stands for its digits where text is expected. */
const TextOrNumber = Type.Union([Text, Type.Number()]);
const Day = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "a date, YYYY-MM-DD" });
const Texts = Type.Array(Text);

const DateAmendment = Type.Object(
  {
    celex: Text,
    provision: Type.String({ minLength: 1, description: "the amending act's provision: Art 1(2)" }),
    original_from: Day,
  },
  { ...closed, description: "a date an amending act set in place of the one the adopted text states" },
);

const StatedDate = Type.Object(
  {
    date: Day,
    provision: Type.Optional(Text),
    basis: Type.Optional(Text),
    set_by: Type.Optional(DateAmendment),
  },
  {
    ...closed,
    description: "a date and the provision (or, where no article states it, the basis) that gives it",
  },
);

const ScheduleStep = Type.Object(
  {
    from: Day,
    until: Type.Optional(Day),
    scope: Texts,
    except: Type.Optional(Texts),
    provision: Text,
    source_defect: Type.Optional(Text),
    set_by: Type.Optional(DateAmendment),
    basis: Type.Optional(Text),
  },
  { ...closed, description: "one step of the act's staged application" },
);

const AmendingAct = Type.Object(
  {
    celex: Type.String({ pattern: "^3\\d{4}[LRD]\\d{4}$", description: "CELEX of an act: 3YYYYLNNNN" }),
    title: Text,
    published: Day,
    provision: Text,
    changes: Text,
    amends_text: Type.Optional(Texts),
  },
  closed,
);

export const ActFile = Type.Object(
  {
    id: Type.String({
      pattern: "^[a-z0-9][a-z0-9_-]*$",
      description: "the act id; the file is named <id>.yaml",
    }),
    source: Text,
    sha256: Type.String({
      pattern: "^[0-9a-f]{64}$",
      description: "SHA-256 of the source file, lowercase hex",
    }),
    short_name: Text,
    aliases: Type.Optional(Texts),
    title: Text,
    number: TextOrNumber,
    type: Type.Unsafe<ActType>({ type: "string", enum: ACT_TYPES }),
    celex: Text,
    eli: Type.Optional(Text),
    jurisdiction: Text,
    language: Text,
    published: Type.Optional(Day),
    entry_into_force: StatedDate,
    application: StatedDate,
    transposition: Type.Optional(StatedDate),
    schedule: Type.Optional(Type.Array(ScheduleStep)),
    caveats: Type.Optional(Texts),
    amended_by: Type.Optional(Type.Array(AmendingAct)),
    notes: Type.Optional(Text),
  },
  { ...closed, $id: "https://acquis.invalid/schemas/act-canon.json", title: "acquis act canon" },
);
export type ActFile = Static<typeof ActFile>;

export const RegimeFile = Type.Object(
  {
    regime: Text,
    title: Text,
    as_of: Day,
    licence: Type.Object({ corpus: Text, attribution: Text }, closed),
    parser: Type.Optional(Type.Unsafe<number>({ type: "integer", enum: [...PARSER_VERSIONS] })),
  },
  { ...closed, $id: "https://acquis.invalid/schemas/regime-canon.json", title: "acquis regime canon" },
);
export type RegimeFile = Static<typeof RegimeFile>;

const ajv = new Ajv({
  allErrors: false,
  strict: false,
  coerceTypes: false,
  useDefaults: false,
  verbose: true,
});
const compiled = new Map<TSchema, ValidateFunction>();

/** Parse a YAML canon file and check it against its schema; the error names file, line and key. */
export function validateYaml<S extends TSchema>(schema: S, text: string, file: string): Static<S> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const line = (offset: number | undefined) => (offset === undefined ? null : lines.linePos(offset).line);
  if (doc.errors.length > 0) {
    const e = doc.errors[0] as { message: string; pos: [number, number] };
    throw new CanonError(`${file}:${line(e.pos[0])}: not valid YAML: ${e.message.split("\n")[0]}`);
  }
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  const value: unknown = doc.toJS();
  if (!validate(value)) {
    const e = validate.errors?.[0] as ErrorObject;
    const path = e.instancePath
      .split("/")
      .slice(1)
      .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"))
      .map((p) => (/^\d+$/u.test(p) ? Number(p) : p));
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    const node = doc.getIn(path, true) as { range?: [number, number] } | undefined;
    let at = line(node?.range?.[0]) ?? 1;
    if (extra !== undefined && isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && p.key.value === extra);
      at = line((pair?.key as { range?: [number, number] } | undefined)?.range?.[0]) ?? at;
    }
    const key = [...path, ...(extra !== undefined ? [extra] : [])]
      .map((p, i) => (typeof p === "number" ? `[${p}]` : `${i > 0 ? "." : ""}${p}`))
      .join("");
    throw new CanonError(`${file}:${at}: ${key ? `${key}: ` : ""}${explain(e, extra, doc.getIn(path))}`);
  }
  return value as Static<S>;
}

function explain(e: ErrorObject, extra: string | undefined, value: unknown): string {
  const p = e.params as { missingProperty?: string; allowedValues?: unknown[]; pattern?: string };
  if (extra !== undefined) return `unknown key "${extra}"`;
  if (p.missingProperty) return `missing key "${p.missingProperty}"`;
  if (p.allowedValues) return `${JSON.stringify(value)} is not one of ${p.allowedValues.join(", ")}`;
  if (e.keyword === "pattern")
    return `${JSON.stringify(value)} does not match ${(e.parentSchema as { description?: string })?.description ?? p.pattern}`;
  if (e.keyword === "minLength") return "expected a non-empty string";
  return e.message ?? "invalid";
}
