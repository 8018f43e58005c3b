/** What the serving API answers: payloads, citations, the error body and the stamps every answer carries. */
import { Type } from "@sinclair/typebox";
import { Nullable, NullableStrings, Strings } from "./primitives.ts";

export const Citation = Type.Object({
  release: Type.String(),
  as_of: Type.String(),
  label: Type.Optional(Type.String({ description: 'how a person cites it: "Article 33(1) GDPR"' })),
  atom: Type.Optional(Nullable(Type.String())),
  eid: Type.Optional(Nullable(Type.String())),
  expression_iri: Type.Optional(Nullable(Type.String())),
  node: Type.Optional(Nullable(Type.String())),
  valid_from: Type.Optional(Nullable(Type.String())),
  valid_to: Type.Optional(Nullable(Type.String())),
  work_iri: Type.Optional(Nullable(Type.String())),
  binding: Type.Optional(
    Type.Literal("through national law", {
      description: "a directive's provision: it binds firms only as transposed into national law",
    }),
  ),
  transposition_deadline: Type.Optional(
    Type.String({
      description: "a directive's provision: the date by which Member States had to transpose it",
    }),
  ),
});

export const Disclaimer = Type.Object({ release: Type.String(), text: Type.String() });
export const Verification = Type.Object(
  {
    status: Type.Union([Type.Literal("verified"), Type.Literal("digests-only"), Type.Literal("skipped")]),
    mode: Type.Union([Type.Literal("signed"), Type.Literal("local-build"), Type.Literal("unverified")]),
    checks: Strings,
    key_id: Type.Optional(Type.String()),
    statement: Type.String(),
  },
  { additionalProperties: true },
);

export const ERROR_CODES = [
  "internal",
  "invalid_request",
  "method_not_allowed",
  "not_found",
  "not_ready",
  "payload_too_large",
  "rate_limited",
  "release_mismatch",
  "unauthorized",
  "unknown_profile",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorBody = Type.Object({
  error: Type.Object({
    code: Type.Union(ERROR_CODES.map((c) => Type.Literal(c))),
    message: Type.String(),
    request_id: Type.String(),
  }),
  disclaimer: Type.Optional(Disclaimer),
  verification: Type.Optional(Verification),
});

const Block = Type.Object({
  id: Type.String(),
  role: Type.String(),
  text: Type.String(),
  citation: Citation,
  attached_to: Type.Optional(Nullable(Type.String())),
  detail: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export const AnswerResponse = Type.Object(
  {
    as_of: Type.String(),
    release: Type.String(),
    query: Type.String(),
    status: Type.String(),
    in_force: Type.Boolean(),
    notes: Strings,
    out_of_scope: Strings,
    blocks: Type.Array(Block),
    omitted: Type.Optional(
      Type.Record(Type.String(), Type.Integer(), {
        description:
          "compact answers: blocks of the closure left out to stay within the size budget, by role",
      }),
    ),
    sections: Type.Object({
      match: Strings,
      ancestor: Strings,
      definition: Strings,
      obligation: Strings,
      amendment: Strings,
      amended: Strings,
      derogation: Strings,
    }),
    retrieval: Type.Object({
      mode: Type.String(),
      matches: Type.Integer(),
      requested: Type.Integer(),
      considered: Type.Integer(),
      admitted: Type.Integer(),
    }),
    request: Type.Object({
      query: Type.String(),
      as_of: Type.String(),
      release: Type.String(),
      matches: Type.Integer(),
      mode: Type.String(),
      as_of_defaulted: Type.Boolean(),
      release_defaulted: Type.Boolean(),
      filters: Type.Object({
        entity_profile: Nullable(Type.String()),
        regimes: NullableStrings,
        jurisdictions: NullableStrings,
        languages: NullableStrings,
        eids: NullableStrings,
        entity_types: NullableStrings,
        exclude_regimes: Strings,
        exclude_jurisdictions: Strings,
      }),
      detail: Type.Optional(Type.Unsafe<string>({ type: "string", enum: ["compact", "full"] })),
    }),
    applicability: Type.Object({}, { additionalProperties: true }),
    corpus: Type.Object({}, { additionalProperties: true }),
    disclaimer: Disclaimer,
    verification: Verification,
  },
  { additionalProperties: true },
);

/** Responses whose members beyond the contract's are open: described, not closed. */
/** An object whose members beyond the typed ones are allowed: reasons and details grow by addition. */
const Extensible = Type.Object({}, { additionalProperties: true });
const Stamps = { disclaimer: Disclaimer, verification: Verification };

const UnitView = Type.Object(
  {
    node: Type.String(),
    eid: Type.String(),
    provision: Type.String({ description: 'the human citation: "Article 33(1) GDPR"' }),
    text: Type.String(),
    own_text: Type.String(),
    shown: Type.String(),
    citation: Citation,
    celex: Nullable(Type.String()),
    expression_iri: Type.String(),
    jurisdiction: Type.String(),
    language: Type.String(),
    work_iri: Type.String(),
    nested: Type.Boolean(),
    valid_from: Type.String(),
    valid_to: Nullable(Type.String()),
    amended_by: Type.Optional(
      Type.Array(
        Type.Object(
          {
            celex: Type.String(),
            title: Type.String(),
            what: Type.Unsafe<"date" | "text">({ type: "string", enum: ["date", "text"] }),
            provision: Type.String(),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    binding: Type.Optional(
      Type.Unsafe<"through national law">({ type: "string", enum: ["through national law"] }),
    ),
    transposition_deadline: Type.Optional(Type.String()),
    lost_in_source: Type.Optional(Type.String({ description: "why the release has no text for this unit" })),
  },
  { additionalProperties: false },
);

const Modality = Type.Unsafe<string>({ type: "string", enum: ["obligation", "prohibition", "permission"] });

export const UnitResponse = Type.Object(
  {
    as_of: Type.String(),
    release: Type.String(),
    in_force: Type.Boolean(),
    unit: UnitView,
    versions: Type.Array(
      Type.Object(
        {
          node: Type.String(),
          valid_from: Type.String(),
          valid_to: Nullable(Type.String()),
          in_force: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
    ),
    atoms: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          modality: Modality,
          actor: Type.String(),
          action: Type.String(),
          status: Type.String(),
          quoted_text: Type.String(),
          citation: Citation,
        },
        { additionalProperties: false },
      ),
    ),
    notes: Strings,
    ...Stamps,
  },
  { additionalProperties: false },
);

export const AtomResponse = Type.Object(
  {
    as_of: Type.String(),
    release: Type.String(),
    atom: Type.Object(
      {
        id: Type.String(),
        unit_eid: Type.String(),
        modality: Modality,
        actor: Type.String(),
        action: Type.String(),
        status: Type.String(),
        applies_to: Strings,
        effective: Type.String(),
        expires: Nullable(Type.String()),
        quoted_text: Type.String(),
        source: Type.String({ description: "the human citation of the unit the duty is written into" }),
        executable_name: Nullable(Type.String()),
        executable_unit: Nullable(Type.String()),
        executable_value: Type.Union([Type.Number(), Type.String(), Type.Null()]),
        citation: Type.Object(
          {
            release: Type.String(),
            as_of: Type.String(),
            unit_eid: Type.String(),
            quoted_text: Type.String(),
            char_start: Type.Integer(),
            char_end: Type.Integer(),
            executable: Nullable(Type.String()),
            source: Type.String(),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    unit: Nullable(UnitView),
    notes: Strings,
    ...Stamps,
  },
  { additionalProperties: false },
);

const RegisterItem = Type.Object(
  {
    atom: Type.String(),
    act: Type.String(),
    unit_eid: Type.String(),
    citation: Citation,
    provision: Type.String(),
    status: Type.Unsafe<string>({ type: "string", enum: ["applicable", "excluded", "undetermined"] }),
    modality: Modality,
    actor: Type.String(),
    addressee: Type.String(),
    action: Type.String(),
    quoted_text: Type.String(),
    basis: Type.String(),
    note: Type.String(),
    reasons: Extensible,
    modified_by: Type.Array(Extensible),
    derogation: Type.Union([Extensible, Type.Null()]),
  },
  { additionalProperties: false },
);
const StatusCounts = Type.Object(
  { applicable: Type.Integer(), excluded: Type.Integer(), undetermined: Type.Integer() },
  { additionalProperties: false },
);

export const ObligationsResponse = Type.Object(
  {
    as_of: Type.String(),
    release: Type.String(),
    entity_profile: Type.String(),
    entity_type: Type.String(),
    binds: Strings,
    derived: Strings,
    counts: Type.Object(
      {
        applicable: Type.Integer(),
        excluded: Type.Integer(),
        undetermined: Type.Integer(),
        by_act: Type.Record(Type.String(), StatusCounts),
      },
      { additionalProperties: false },
    ),
    out_of_scope: Type.Array(Extensible),
    applicable: Type.Array(RegisterItem),
    excluded: Type.Array(RegisterItem),
    undetermined: Type.Array(RegisterItem),
    page: Type.Optional(
      Type.Object(
        {
          offset: Type.Integer(),
          limit: Type.Integer(),
          items: Type.Integer(),
          total: Type.Integer(),
          next_offset: Nullable(Type.Integer()),
        },
        { additionalProperties: false, description: "present when offset or limit was asked" },
      ),
    ),
    ...Stamps,
  },
  { additionalProperties: false },
);

export const DiffResponse = Type.Object(
  {
    release: Type.String(),
    from: Nullable(Type.String()),
    to: Type.String(),
    counts: Type.Object(
      {
        atoms: Type.Record(Type.String(), Type.Integer()),
        units: Type.Record(Type.String(), Type.Integer()),
      },
      { additionalProperties: false },
    ),
    total: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    changes: Type.Array(Extensible),
    notes: Strings,
    corpus_release_meta_sha256: Type.String({
      description: "SHA-256 of the served release's release-meta.yaml",
    }),
    ...Stamps,
  },
  { additionalProperties: false },
);

export const HealthResponse = Type.Object(
  {
    alive: Type.Boolean(),
    ready: Type.Boolean(),
    draining: Type.Boolean(),
    disclaimer: Type.Optional(Disclaimer),
    verification: Type.Optional(Verification),
  },
  { additionalProperties: false },
);
export const ReadyResponse = Type.Object(
  { ready: Type.Literal(true), release: Type.String({ description: "regime@tag" }) },
  { additionalProperties: false },
);
