/**
 * The OpenAPI 3.1.0 document, generated from the TypeBox schemas that validate requests. Written here
 * rather than by a swagger plugin because each operation must carry `x-service-mcp-tool` and the error
 * responses of the contract, and the document must be byte-stable (it is served as is).
 */
import {
  AnswerRequest,
  AnswerResponse,
  AtomRequest,
  AtomResponse,
  ErrorBody,
  ObligationsRequest,
  ObligationsResponse,
  UnitRequest,
  UnitResponse,
} from "./schemas.ts";

const strip = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema));

interface Op {
  path: string;
  tool: string;
  summary: string;
  request: unknown;
  response: unknown;
  errors: string[];
}

const OPS: Op[] = [
  {
    path: "/v1/answer",
    tool: "search_regulation",
    summary:
      "Answer a question with the retrieval closure: matched units, their article and chapter, definitions, amendments, derogations and obligation atoms",
    request: AnswerRequest,
    response: AnswerResponse,
    errors: ["400", "401", "404", "409", "413", "429", "503"],
  },
  {
    path: "/v1/atom",
    tool: "get_atom",
    summary: "One obligation atom as it stood on a date, with the unit it is written into",
    request: AtomRequest,
    response: AtomResponse,
    errors: ["400", "401", "404", "409", "413", "429", "503"],
  },
  {
    path: "/v1/obligations",
    tool: "list_obligations",
    summary: "Every duty binding an entity profile on a date, and every duty a derogation lifts",
    request: ObligationsRequest,
    response: ObligationsResponse,
    errors: ["400", "401", "404", "409", "413", "429", "503"],
  },
  {
    path: "/v1/unit",
    tool: "get_unit",
    summary: "A provision as in force on a date, every version the release holds, and its atoms",
    request: UnitRequest,
    response: UnitResponse,
    errors: ["400", "401", "404", "409", "413", "429", "503"],
  },
];

export function openApiDocument(): unknown {
  const paths: Record<string, unknown> = {};
  for (const op of OPS) {
    paths[op.path] = {
      post: {
        operationId: op.tool,
        summary: op.summary,
        "x-service-mcp-tool": op.tool,
        security: [{ bearerAuth: [] }, {}],
        requestBody: { required: true, content: { "application/json": { schema: strip(op.request) } } },
        responses: {
          "200": {
            description: "the payload",
            content: { "application/json": { schema: strip(op.response) } },
          },
          ...Object.fromEntries(op.errors.map((s) => [s, { $ref: "#/components/responses/Error" }])),
          "500": { $ref: "#/components/responses/Error" },
        },
      },
    };
  }
  const probe = (summary: string) => ({
    get: {
      summary,
      responses: { "200": { description: "ok" }, "503": { $ref: "#/components/responses/Error" } },
    },
  });
  paths["/healthz"] = probe("Liveness: answers from boot");
  paths["/readyz"] = probe("Readiness: 200 once a verified release is loaded");
  paths["/metrics"] = {
    get: {
      summary: "Prometheus metrics",
      responses: { "200": { description: "text exposition format", content: { "text/plain": {} } } },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "acquis serving API",
      version: "0.1.0",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
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
