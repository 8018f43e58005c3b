/**
 * Typed contracts, checked against the real server: the OpenAPI document it serves is valid OpenAPI
 * 3.1 (by a maintained validator), every response it gives validates against the schema the document
 * states for it, and the MCP tool schemas are in the portable form every client accepts.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { BIN } from "../helpers/cli.ts";
import { EU_SERVE_ARGS, servedEu } from "../helpers/server.ts";

type Json = Record<string, unknown>;
const GDPR = "http://data.europa.eu/eli/reg/2016/679/oj";
const NIS2 = "http://data.europa.eu/eli/dir/2022/2555/oj";
const MIFID2 = "http://data.europa.eu/eli/dir/2014/65/oj";

describe("typed contracts", () => {
  const server = servedEu();
  let doc: Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  /** Follows a "#/components/…" reference of the served document. */
  const deref = (v: Json): Json =>
    typeof v.$ref === "string"
      ? deref(
          v.$ref
            .slice(2)
            .split("/")
            .reduce<unknown>((o, k) => (o as Json)[k], doc) as Json,
        )
      : v;
  /** The schema the served document states for a route's response of that status. */
  const schemaOf = (route: string, method: "get" | "post", status: string): Json => {
    const paths = doc.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
    const documented = paths[route]?.[method]?.responses[status];
    assert.ok(documented, `${method} ${route} ${status} is documented`);
    const content = deref(documented).content as Record<string, Json>;
    return deref(content["application/json"]?.schema as Json);
  };
  const conforms = (schema: Json, body: unknown, what: string) => {
    const ok = ajv.validate(schema, body);
    assert.ok(ok, `${what}: ${ajv.errorsText(ajv.errors, { separator: "\n" })}`);
  };

  test("the served OpenAPI document is valid OpenAPI 3.1, states the contract's API version and a server", async () => {
    doc = (await (await fetch(`${server().url}/openapi.json`)).json()) as Json;
    const result = await new Validator().validate(structuredClone(doc));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
    assert.equal(doc.openapi, "3.1.0");
    assert.equal((doc.info as Json).version, "0.1.0");
    assert.ok(Array.isArray(doc.servers) && doc.servers.length > 0);
  });

  test("every 200 response of each operation validates against the schema the document states", async () => {
    const s = server();
    const cases: [string, Json][] = [
      ["/v1/answer", { query: "When must a controller notify a personal data breach?" }],
      ["/v1/answer", { query: "ICT risk management", entity_profile: "lt-micro-payment-institution" }],
      ["/v1/answer", { query: "What does HIPAA require?" }],
      ["/v1/answer", { query: "Article 21(1) NIS2" }],
      ["/v1/unit", { eid: "art_33__para_1", work_iri: GDPR }],
      ["/v1/unit", { eid: "art_21__para_1", work_iri: NIS2 }],
      ["/v1/unit", { eid: "art_15", work_iri: MIFID2 }],
      ["/v1/unit", { eid: "gdpr/art_4__point_12" }],
      ["/v1/obligations", { entity_profile: "de-large-bank", as_of: "2026-12-01" }],
      ["/v1/obligations", { entity_profile: "lt-micro-payment-institution", offset: 10, limit: 30 }],
    ];
    const unit = (await (await s.post("/v1/unit", { eid: "art_33__para_1", work_iri: GDPR })).json()) as {
      atoms: { id: string }[];
    };
    cases.push(["/v1/atom", { atom_id: unit.atoms[0]?.id as string }]);
    for (const [route, body] of cases) {
      const r = await s.post(route, body);
      assert.equal(r.status, 200, `${route} ${JSON.stringify(body)}`);
      conforms(schemaOf(route, "post", "200"), await r.json(), `${route} ${JSON.stringify(body)}`);
    }
    for (const route of ["/healthz", "/readyz"])
      conforms(schemaOf(route, "get", "200"), await (await fetch(`${s.url}${route}`)).json(), route);
  });

  test("every refusal validates against the documented error body", async () => {
    const s = server();
    const cases: [string, Json, number][] = [
      ["/v1/answer", { query: "x", bogus: 1 }, 400],
      ["/v1/unit", { eid: "art_9999", work_iri: GDPR }, 404],
      ["/v1/obligations", { entity_profile: "nobody" }, 404],
      ["/v1/answer", { query: "x", release: "1999.1" }, 409],
    ];
    for (const [route, body, status] of cases) {
      const r = await s.post(route, body);
      assert.equal(r.status, status);
      conforms(schemaOf(route, "post", String(status)), await r.json(), `${route} ${status}`);
    }
  });

  test("MCP tool schemas are portable: no $ref, no anyOf/oneOf/allOf, every property typed", async () => {
    const client = new Client({ name: "contract-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "serve", "--mcp", ...EU_SERVE_ARGS],
      }),
    );
    try {
      const { tools } = await client.listTools();
      const problems: string[] = [];
      const walk = (s: Json, at: string) => {
        for (const bad of ["$ref", "anyOf", "oneOf", "allOf", "patternProperties"])
          if (bad in s) problems.push(`${at}: ${bad}`);
        for (const [name, p] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
          if (!("type" in p) && !("enum" in p) && !("const" in p)) problems.push(`${at}.${name}: untyped`);
          walk(p, `${at}.${name}`);
        }
        if (s.items && typeof s.items === "object") walk(s.items as Json, `${at}[]`);
        if (s.additionalProperties && typeof s.additionalProperties === "object")
          walk(s.additionalProperties as Json, `${at}{}`);
      };
      for (const t of tools) {
        walk(t.inputSchema as Json, `${t.name} input`);
        walk(t.outputSchema as Json, `${t.name} output`);
        assert.equal(t.outputSchema?.type, "object");
      }
      assert.deepEqual(problems, []);
      // The SDK client checks structuredContent against outputSchema: a payload and a refusal both pass.
      const ok = await client.callTool({
        name: "get_unit",
        arguments: { eid: "art_33__para_1", work_iri: GDPR },
      });
      assert.notEqual(ok.isError, true);
      const refused = await client.callTool({
        name: "get_unit",
        arguments: { eid: "art_9999", work_iri: GDPR },
      });
      assert.equal(refused.isError, true);
    } finally {
      await client.close();
    }
  });
});
