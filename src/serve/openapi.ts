/**
 * The OpenAPI 3.1.0 document, generated from the TypeBox schemas that validate requests. Written here
 * rather than by a swagger plugin because each operation must carry `x-service-mcp-tool` and the error
 * responses of the contract, and the document must be byte-stable (it is served as is).
 */
import { OPERATIONS } from "./operations.ts";
import { ErrorBody } from "./schemas.ts";

/** The refusals every POST operation can give (docs/serving.md). */
const ERROR_STATUSES = ["400", "401", "404", "405", "409", "413", "429", "500", "503"];

const strip = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema));

export function openApiDocument(): unknown {
  const paths: Record<string, unknown> = {};
  for (const op of OPERATIONS) {
    paths[op.route] = {
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
