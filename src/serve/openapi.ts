/**
 * The OpenAPI 3.1.0 document, generated from the TypeBox schemas that validate requests. Written here
 * rather than by a swagger plugin because each operation must carry `x-service-mcp-tool` and the error
 * responses of the contract, and the document must be byte-stable (it is served as is).
 */

import { ErrorBody, HealthResponse, ReadyResponse } from "../contract/schemas.ts";
import { MCP_ROUTE, OPERATIONS, type Operation, TOOL_NAMES } from "./operations.ts";

/** The API version the serving contract states (spec: Versioning). */
export const API_VERSION = "0.1.0";

const JSON_RPC = {
  type: "object",
  required: ["jsonrpc"],
  properties: {
    jsonrpc: { type: "string", enum: ["2.0"] },
    id: { type: ["string", "integer"] },
    method: { type: "string" },
    params: { type: "object" },
    result: { type: "object" },
    error: { type: "object" },
  },
};

/** The refusals every POST operation can give (docs/serving.md). */
const ERROR_STATUSES = ["400", "401", "404", "405", "409", "413", "429", "500", "503"];

const strip = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema));

export function openApiDocument(): unknown {
  const paths: Record<string, unknown> = {};
  for (const op of OPERATIONS) paths[op.route] = operationPath(op);
  paths["/healthz"] = probePath("Liveness: answers from boot", HealthResponse);
  paths["/readyz"] = probePath("Readiness: 200 once a verified release is loaded", ReadyResponse);
  paths["/metrics"] = {
    get: {
      summary: "Prometheus metrics",
      responses: {
        "200": {
          description: "the Prometheus text exposition format",
          content: { "text/plain": { schema: { type: "string" } } },
        },
      },
    },
  };
  paths["/openapi.json"] = {
    get: {
      summary: "This document",
      responses: {
        "200": {
          description: "OpenAPI 3.1.0",
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    },
  };
  paths[MCP_ROUTE] = mcpPath();
  return {
    openapi: "3.1.0",
    info: {
      title: "acquis serving API",
      // The API version the contract states; the package version is what `acquis --version` prints.
      version: API_VERSION,
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    // Relative: the server that serves this document answers the routes it lists.
    servers: [{ url: "/", description: "the acquis server that served this document" }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      schemas: { Error: strip(ErrorBody) },
      responses: {
        Error: {
          description: "a refusal",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    },
  };
}

/** A REST operation: its MCP tool, request and payload schemas, and the contract's refusals. */
function operationPath(op: Operation) {
  return {
    post: {
      operationId: op.tool,
      summary: op.summary,
      description: op.description,
      "x-service-mcp-tool": op.tool,
      security: [{ bearerAuth: [] }, {}],
      requestBody: { required: true, content: { "application/json": { schema: strip(op.request) } } },
      responses: {
        "200": {
          description: "the payload",
          content: { "application/json": { schema: strip(op.response) } },
        },
        ...Object.fromEntries(ERROR_STATUSES.map((s) => [s, { $ref: "#/components/responses/Error" }])),
      },
    },
  };
}

/** A probe (/healthz, /readyz): GET, 200 with its body or 503. */
function probePath(summary: string, schema: unknown) {
  return {
    get: {
      summary,
      security: [{ bearerAuth: [] }, {}],
      responses: {
        "200": { description: "ok", content: { "application/json": { schema: strip(schema) } } },
        "503": { $ref: "#/components/responses/Error" },
      },
    },
  };
}

/** MCP over Streamable HTTP: one JSON-RPC message per POST. */
function mcpPath() {
  return {
    post: {
      operationId: "mcp",
      summary: "The Model Context Protocol over Streamable HTTP (stateless): one JSON-RPC message per POST",
      description: `The ${TOOL_NAMES.length} MCP tools (${TOOL_NAMES.join(", ")}) for hosted agents; send Accept: application/json, text/event-stream. Same credentials and rate limit as the REST routes.`,
      security: [{ bearerAuth: [] }, {}],
      requestBody: { required: true, content: { "application/json": { schema: JSON_RPC } } },
      responses: {
        "200": {
          description: "the JSON-RPC response",
          content: { "application/json": { schema: JSON_RPC } },
        },
        "202": { description: "a notification was accepted" },
        ...Object.fromEntries(
          ["400", "401", "405", "413", "429", "503"].map((st) => [
            st,
            { $ref: "#/components/responses/Error" },
          ]),
        ),
      },
    },
  };
}
