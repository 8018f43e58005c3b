/**
 * The contract layer: the one schema source of the serving API (TypeBox). Request validation
 * (Fastify's Ajv), the OpenAPI 3.1 document, the MCP tool schemas and the engine's request types all
 * read these definitions. It imports nothing of the engine or the servers (docs/architecture.md).
 */
export { DatePattern } from "./primitives.ts";
export * from "./requests.ts";
export * from "./responses.ts";
