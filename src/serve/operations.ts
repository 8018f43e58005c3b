/**
 * The four operations both transports carry: each names its MCP tool and REST route, its request and
 * response schema, a description written for a model choosing tools, and the one engine call that
 * produces its payload. REST routes, the OpenAPI document and the MCP tool list are all read from here.
 */
import type { TSchema } from "@sinclair/typebox";
import {
  AnswerRequest,
  AnswerResponse,
  AtomRequest,
  AtomResponse,
  type DiffRequest,
  OBLIGATIONS_MCP_LIMIT,
  OBLIGATIONS_PAGE_BYTES,
  ObligationsRequest,
  ObligationsResponse,
  UnitRequest,
  UnitResponse,
} from "../contract/schemas.ts";
import { answer } from "../engine/answer.ts";
import { getAtom } from "../engine/atom.ts";
import type { Engine } from "../engine/context.ts";
import { diffReleases } from "../engine/diff.ts";
import { obligations } from "../engine/obligations.ts";
import type { ScopeReader } from "../engine/scope.ts";
import { getUnit } from "../engine/unit.ts";
import { payloadBytes } from "./state.ts";

/** Where `acquis serve` speaks MCP over Streamable HTTP (the five tools below, and diff_releases). */
export const MCP_ROUTE = "/mcp";

export interface Operation {
  tool: string;
  route: string;
  summary: string;
  description: string;
  request: TSchema;
  response: TSchema;
  /** The body has been validated against `request` before the call. */
  run(engine: Engine, scope: ScopeReader, body: unknown, defaultAsOf: string): unknown;
  /**
   * Arguments the MCP tool adds when the caller leaves them out: an agent's context has a budget, so
   * list_obligations pages there by default. The payload is still the one `run` makes for those arguments.
   */
  mcpDefaults?(args: Record<string, unknown>): Record<string, unknown>;
}

export const OPERATIONS: Operation[] = [
  {
    tool: "search_regulation",
    route: "/v1/answer",
    summary:
      "Answer a question with the retrieval closure: matched units, their article and chapter, definitions, amendments, derogations and obligation atoms",
    description:
      "Search the EU regulations of the served release and get the provisions that answer a question, with everything needed to cite them: the matched units (articles, paragraphs, points, recitals, annexes), the article and chapter each sits in, the definitions in force for the terms used, what amends or disapplies them, and the obligation atoms (duties with actor, modality and deadlines such as 72 hours). Use it first for any question about what EU law says; cite provisions as the blocks' citations give them (eId, ELI work IRI, release tag). Name an entity_profile to decide which duties bind that firm on the date. Provisions not yet applicable on as_of are flagged, never presented as law in force; questions about instruments outside the release (e.g. HIPAA, CCPA, the CRR) come back out-of-scope.",
    request: AnswerRequest,
    response: AnswerResponse,
    run: (e, scope, body, asOf) => answer(e, scope, body as AnswerRequest, asOf),
  },
  {
    tool: "get_unit",
    route: "/v1/unit",
    summary: "A provision as in force on a date, every version the release holds, and its atoms",
    description:
      "Read one provision exactly, by its Akoma Ntoso eId (e.g. art_33__para_1, art_4__point_7, rec_83, anx_III): its text, citation label, ELI IRI, validity dates and the obligation atoms written into it. Many acts share eIds: pass work_iri (e.g. http://data.europa.eu/eli/reg/2016/679/oj) when the eId is ambiguous; the refusal lists the candidates. Use it to quote or verify a provision found by search_regulation.",
    request: UnitRequest,
    response: UnitResponse,
    run: (e, _scope, body, asOf) => getUnit(e, body as UnitRequest, asOf),
  },
  {
    tool: "get_atom",
    route: "/v1/atom",
    summary: "One obligation atom as it stood on a date, with the unit it is written into",
    description:
      "Get one duty by its permanent atom id (e.g. atm_rbfvw4ydaxff, as returned in search_regulation or list_obligations): modality (obligation, prohibition, permission), actor, action, the entity types it applies to, the executable constant (name, unit, value, e.g. 72 hours), its exact quoted words with their character span in the unit, and the unit itself. Refused as not_found when the atom states no duty in force on as_of.",
    request: AtomRequest,
    response: AtomResponse,
    run: (e, _scope, body, asOf) => getAtom(e, body as AtomRequest, asOf),
  },
  {
    tool: "list_obligations",
    route: "/v1/obligations",
    summary: "Every duty binding an entity profile on a date, and every duty a derogation lifts",
    description: `List every duty that binds an entity profile of the release on a date (complete, never ranked), every duty a derogation or rule of precedence in force lifts (naming the provision and the entity types it reaches), and every duty that turns on a fact the profile does not state (naming the fact). counts gives the totals per status and per act. Results come in pages of at most ${OBLIGATIONS_MCP_LIMIT} items and ${OBLIGATIONS_PAGE_BYTES / 1024} KB: page.next_offset is the offset of the next page (null on the last). Use it for compliance coverage questions such as 'what must this firm do under DORA'.`,
    request: ObligationsRequest,
    response: ObligationsResponse,
    run: (e, _scope, body, asOf) => obligations(e, body as ObligationsRequest, asOf),
    mcpDefaults: (args) =>
      args.offset === undefined && args.limit === undefined
        ? { ...args, limit: OBLIGATIONS_MCP_LIMIT }
        : args,
  },
];

/** diff_releases, the tool MCP adds to the operations (REST serves diffs from the feed server). */
export const DIFF_TOOL_NAME = "diff_releases";
const diffRun: Operation["run"] = (e, _scope, args) => diffReleases(e, args as DiffRequest);

/** The MCP tools' names: the operations' and diff_releases. */
export const TOOL_NAMES = [...OPERATIONS.map((op) => op.tool), DIFF_TOOL_NAME];

const RUNS = new Map<string, Operation["run"]>([
  ...OPERATIONS.map((op) => [op.tool, op.run] as const),
  [DIFF_TOOL_NAME, diffRun],
]);

/**
 * The payload bytes of a tool call whose arguments were validated: what every engine makes, in this
 * thread or a worker's (src/serve/engines.ts). Throws the engine's ServiceError for a refusal.
 */
export function payloadOf(
  engine: Engine,
  scope: ScopeReader,
  tool: string,
  args: unknown,
  asOf: string,
): string {
  const run = RUNS.get(tool);
  if (!run) throw new Error(`no operation "${tool}"`);
  return payloadBytes(run(engine, scope, args, asOf));
}
