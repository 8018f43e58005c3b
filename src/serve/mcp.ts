/**
 * The MCP transport of the serving API: five tools with the official SDK, over stdio (`serveMcp`) or
 * over Streamable HTTP at `/mcp` of `acquis serve` (http.ts, one stateless server per request). Four are the
 * REST operations (the same table, the same payload bytes: `structuredContent` is the REST body and the
 * one text item is that JSON); diff_releases has no REST route. A refusal is a tool error whose payload
 * is the contract's error body with the code REST would give. stdout carries only protocol messages.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { TSchema } from "@sinclair/typebox";
import type { FastifyBaseLogger } from "fastify";
import { DiffRequest, DiffResponse, ErrorBody, type ErrorCode } from "../contract/schemas.ts";
import { ServiceError } from "../engine/errors.ts";
import { PayloadCache } from "./cache.ts";
import type { Engines } from "./engines.ts";
import { DIFF_TOOL_NAME, OPERATIONS } from "./operations.ts";
import { portable, portableOutput } from "./portable-schema.ts";
import { payloadBytes, type ServeState } from "./state.ts";
import { check } from "./validate.ts";

interface Tool {
  name: string;
  description: string;
  request: TSchema;
  response: TSchema;
  mcpDefaults?(args: Record<string, unknown>): Record<string, unknown>;
}

const DIFF_TOOL: Tool = {
  name: DIFF_TOOL_NAME,
  description:
    "What changed in the served release against its predecessor, as its own diff manifest lists it: every obligation atom added, changed, removed or deprecated, classified substantive or editorial with the reason, and the unit changes. Answers exactly one range, from the tag the manifest names to the served tag; any other pair is refused (release_mismatch). Pages with offset and limit; filter with kind. Before acting on a change, verify the release containing it with `acquis pull`.",
  request: DiffRequest,
  response: DiffResponse,
};

const TOOLS: Tool[] = [...OPERATIONS.map((op) => ({ ...op, name: op.tool })), DIFF_TOOL];
const ANNOTATIONS = {
  readOnlyHint: true,
  idempotentHint: true,
  destructiveHint: false,
  openWorldHint: false,
};

/** MCP over stdio (`acquis serve --mcp`): one server for the life of the process. */
export async function serveMcp(opts: {
  state: ServeState;
  version: string;
  logger: FastifyBaseLogger;
  cacheBytes: number;
  engines: Engines;
}) {
  const server = mcpServer({ ...opts, cache: new PayloadCache(opts.cacheBytes) });
  await server.connect(new StdioServerTransport());
  const e = opts.state.engine;
  opts.logger.info({ release: e ? `${e.regime}@${e.tag}` : null }, "MCP server on stdio");
  return server;
}

/**
 * What the MCP server of the served release works from: the state it serves, its log, payload cache and
 * engines.
 */
interface McpOptions {
  state: ServeState;
  version: string;
  logger: FastifyBaseLogger;
  cache: PayloadCache;
  engines: Engines;
}

/**
 * The MCP server of the served release: its tools, resources and instructions, ready to connect to a
 * transport (stdio, or one Streamable HTTP request). `cache` and `engines` are those of the transport it
 * serves beside, so an MCP call and a REST call of the same request share their bytes and their engines.
 */
export function mcpServer(opts: McpOptions): Server {
  const { state } = opts;
  const release = state.engine ? `${state.engine.regime}@${state.engine.tag}` : null;
  const server = new Server(
    { name: "acquis", title: release ? `acquis ${release}` : "acquis", version: opts.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: release
        ? `acquis serves the EU regulation release ${release} (verification: ${String(state.engine?.stamps.verification.status)}). Start with search_regulation; cite by the blocks' eIds and release. Content is informational, not legal advice.`
        : `acquis could not serve a release: ${state.refused ?? "not loaded"}. Every tool refuses with not_ready.`,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: portable(t.request) as { type: "object" },
      // A result is the operation's payload or, for a refusal, the contract's error body.
      outputSchema: portableOutput(t.response, ErrorBody) as { type: "object" },
      annotations: ANNOTATIONS,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) =>
    callTool(opts, req, `mcp-${String(extra.requestId)}`),
  );
  // The disclaimer and the release's quality report, for clients that show resources.
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: listResources(state) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => readResource(state, req.params.uri));

  return server;
}

/**
 * One tool call: the operation's payload bytes (from the cache when the same request was answered), or a
 * refusal with the code REST would give.
 */
async function callTool(
  { state, logger, cache, engines }: McpOptions,
  req: CallToolRequest,
  requestId: string,
): Promise<CallToolResult> {
  const refuse = (code: ErrorCode, message: string) => toolRefusal(state, requestId, code, message);
  const tool = TOOLS.find((t) => t.name === req.params.name);
  if (!tool)
    return refuse("not_found", `no tool "${req.params.name}"; tools: ${TOOLS.map((t) => t.name).join(", ")}`);
  if (!state.engine || !state.scope)
    return refuse("not_ready", state.refused ?? "the release is being verified and loaded");
  const given = req.params.arguments ?? {};
  const problem = check(tool.request, given);
  if (problem) return refuse("invalid_request", problem);
  const args = tool.mcpDefaults ? tool.mcpDefaults(given) : given;
  try {
    const asOf = state.defaultAsOf();
    const bytes = await cache.get(tool.name, args, asOf, () => engines.run(tool.name, args, asOf));
    const text = bytes.toString("utf8");
    return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
  } catch (e) {
    if (e instanceof ServiceError) return refuse(e.code, e.message);
    logger.error({ err: e, request_id: requestId, tool: tool.name }, "unexpected exception");
    return refuse("internal", `an unexpected error occurred; quote request id ${requestId}`);
  }
}

/** A tool error whose payload is the contract's error body, stamped like every payload of the release. */
function toolRefusal(state: ServeState, requestId: string, code: ErrorCode, message: string): CallToolResult {
  const stamps = state.engine
    ? { disclaimer: state.engine.stamps.disclaimer, verification: state.engine.stamps.verification }
    : {};
  const body = { error: { code, message, request_id: requestId }, ...stamps };
  const text = payloadBytes(body);
  return { isError: true, content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
}

/** The disclaimer and the quality report, once a release is served. */
function listResources(state: ServeState) {
  return state.engine
    ? [
        {
          uri: "acquis://disclaimer",
          name: "disclaimer",
          mimeType: "text/plain",
          description: "What acquis content is and is not",
        },
        {
          uri: "acquis://release/quality.json",
          name: "quality report",
          mimeType: "application/json",
          description: "Every repair made to the sources and every defect left",
        },
      ]
    : [];
}

async function readResource(state: ServeState, uri: string) {
  const e = state.engine;
  if (!e) throw new ServiceError("not_ready", state.refused ?? "not loaded");
  if (uri === "acquis://disclaimer")
    return { contents: [{ uri, mimeType: "text/plain", text: e.stamps.disclaimer.text }] };
  if (uri === "acquis://release/quality.json") {
    const { readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    return {
      contents: [
        {
          uri,
          mimeType: "application/json",
          text: readFileSync(join(e.release.dir, "quality.json"), "utf8"),
        },
      ],
    };
  }
  throw new ServiceError("not_found", `no resource ${uri}`);
}
