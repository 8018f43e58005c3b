/** What clients send: the request bodies and queries of the serving API, with their limits. */
import { type Static, Type } from "@sinclair/typebox";
import { Day, Strings } from "./primitives.ts";

export const MODES = ["auto", "lexical", "exact"] as const;
export const MAX_MATCHES = 100;
/** A question, not a document: bounds the work one request can ask for (docs/security.md). */
export const MAX_QUERY_CHARS = 2000;

export const Filters = Type.Object(
  {
    eids: Type.Optional(Strings),
    entity_types: Type.Optional(Strings),
    exclude_jurisdictions: Type.Optional(Strings),
    exclude_regimes: Type.Optional(Strings),
    jurisdictions: Type.Optional(Strings),
    languages: Type.Optional(Strings),
    regimes: Type.Optional(Strings),
    entity_profile: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** The most a page of /v1/obligations (and every list_obligations result) may weigh, in bytes. */
export const OBLIGATIONS_PAGE_BYTES = 64 * 1024;
/** The page size list_obligations uses when the caller names neither offset nor limit. */
export const OBLIGATIONS_MCP_LIMIT = 100;

export const AnswerRequest = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: MAX_QUERY_CHARS,
      description: `the question, in plain words or citing provisions (at most ${MAX_QUERY_CHARS} characters)`,
    }),
    as_of: Type.Optional(Day),
    release: Type.Optional(Type.String({ description: "release tag; defaults to the one served" })),
    entity_profile: Type.Optional(
      Type.String({ description: "decide applicability for this entity profile" }),
    ),
    mode: Type.Optional(
      Type.Union(
        MODES.map((m) => Type.Literal(m)),
        { description: "auto (default), lexical, or exact (only cited provisions)" },
      ),
    ),
    matches: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_MATCHES,
        description: "how many units to match (default 5, or 10 with detail: full)",
      }),
    ),
    filters: Type.Optional(Filters),
    detail: Type.Optional(
      Type.Unsafe<"compact" | "full">({
        type: "string",
        enum: ["compact", "full"],
        description:
          "compact (default): the matched units' text, the rest of the closure as excerpts with their citations, within 44 KB, 5 matches unless asked; full: the whole closure with full texts, 10 matches unless asked",
      }),
    ),
  },
  { additionalProperties: false },
);
export type AnswerRequest = Static<typeof AnswerRequest>;

export const AtomRequest = Type.Object(
  {
    atom_id: Type.String({ minLength: 1, description: "a permanent atom id, e.g. atm_rbfvw4ydaxff" }),
    as_of: Type.Optional(Day),
    release: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type AtomRequest = Static<typeof AtomRequest>;

export const ObligationsRequest = Type.Object(
  {
    entity_profile: Type.String({ minLength: 1, description: "an entity profile id of the release" }),
    as_of: Type.Optional(Day),
    release: Type.Optional(Type.String()),
    offset: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: "paging: skip this many items of applicable, then excluded, then undetermined",
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description: `paging: at most this many items; a page also stays within ${OBLIGATIONS_PAGE_BYTES / 1024} KB. Without offset or limit the register is complete in one response`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type ObligationsRequest = Static<typeof ObligationsRequest>;

export const UnitRequest = Type.Object(
  {
    eid: Type.String({
      minLength: 1,
      description:
        "an Akoma Ntoso eId, e.g. art_33__para_1, or a node an answer block names (gdpr/art_33__para_1)",
    }),
    as_of: Type.Optional(Day),
    release: Type.Optional(Type.String()),
    work_iri: Type.Optional(
      Type.String({ description: "the act's work IRI, when the eId names units of several acts" }),
    ),
  },
  { additionalProperties: false },
);
export type UnitRequest = Static<typeof UnitRequest>;

export const DiffRequest = Type.Object(
  {
    from: Type.Optional(
      Type.String({ description: "the tag the manifest is measured from (the only one accepted)" }),
    ),
    to: Type.Optional(Type.String({ description: "the served tag (the only one accepted)" })),
    kind: Type.Optional(
      Type.Union([Type.Literal("atom"), Type.Literal("unit")], {
        description: "only atom or only unit changes",
      }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, description: "skip this many changes (paging)" })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: "at most this many changes (default 200)" }),
    ),
  },
  { additionalProperties: false },
);
export type DiffRequest = Static<typeof DiffRequest>;
