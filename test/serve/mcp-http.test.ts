/**
 * Remote MCP: `acquis serve` speaks MCP over Streamable HTTP at /mcp, tested with the SDK's own Client
 * and StreamableHTTPClientTransport against the real process: the same tools and payloads as REST and
 * stdio, behind the same bearer credentials and rate limit.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { acquis } from "../helpers/cli.ts";
import { EU_SERVE_ARGS, MCP_TOOLS, type Server, startServer } from "../helpers/server.ts";

const TOKEN = "remote-mcp-token-for-tests";
const GDPR = "http://data.europa.eu/eli/reg/2016/679/oj";

function policyFile(perMinute: number): string {
  const sha = createHash("sha256").update(TOKEN).digest("hex");
  const f = join(mkdtempSync(join(tmpdir(), "acquis-policy-")), "serving.yaml");
  writeFileSync(
    f,
    `anonymous: { allowed: false }\ncredentials:\n  - { name: agent, sha256: ${sha}, per_minute: ${perMinute} }\n`,
  );
  return f;
}

async function connect(url: string, token: string | null): Promise<Client> {
  const client = new Client({ name: "acquis-remote-test", version: "1.0.0" });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

const text = (r: CallToolResult) => {
  const item = r.content[0];
  assert.ok(item && item.type === "text");
  return item.text;
};

describe("acquis serve: MCP over Streamable HTTP", () => {
  let server: Server;
  let client: Client;

  before(async () => {
    assert.equal(acquis(["build", "eu"]).status, 0);
    server = await startServer([...EU_SERVE_ARGS, "--config", policyFile(600)]);
    await server.ready();
    client = await connect(server.url, TOKEN);
  });
  after(async () => {
    await client?.close();
    await server?.stop();
  });

  test("the same five tools as stdio, and the initialize result names the release", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), MCP_TOOLS);
    assert.match(client.getServerVersion()?.title ?? "", /^acquis eu@/u);
  });

  test("a tool result is the REST body, byte for byte", async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const cases: [string, string, Record<string, unknown>][] = [
      ["search_regulation", "/v1/answer", { query: "When must a controller notify a personal data breach?" }],
      ["get_unit", "/v1/unit", { eid: "art_33__para_1", work_iri: GDPR }],
      ["list_obligations", "/v1/obligations", { entity_profile: "de-large-bank", offset: 0, limit: 20 }],
    ];
    for (const [tool, route, args] of cases) {
      const r = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      assert.notEqual(r.isError, true, tool);
      assert.equal(text(r), await (await server.post(route, args, auth)).text(), tool);
    }
  });

  test("a refusal is a tool error with REST's code", async () => {
    const r = (await client.callTool({ name: "get_unit", arguments: { eid: "art_9999" } })) as CallToolResult;
    assert.equal(r.isError, true);
    assert.equal((r.structuredContent as { error: { code: string } }).error.code, "not_found");
  });

  test("without a credential the endpoint refuses, as REST does", async () => {
    await assert.rejects(connect(server.url, null), /401|unauthorized/iu);
    const raw = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(raw.status, 401);
    assert.equal(((await raw.json()) as { error: { code: string } }).error.code, "unauthorized");
  });

  test("GET, DELETE and other methods are refused with Allow: POST: the endpoint is stateless", async () => {
    const r = await fetch(`${server.url}/mcp`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get("allow"), "POST");
    const put = await fetch(`${server.url}/mcp`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get("allow"), "POST");
  });
});

describe("remote MCP shares the credential's rate limit", () => {
  test("over the limit, a tool call is refused 429 with Retry-After", async () => {
    const s = await startServer([...EU_SERVE_ARGS, "--config", policyFile(4)]);
    try {
      await s.ready();
      const call = () =>
        fetch(`${s.url}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            Authorization: `Bearer ${TOKEN}`,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await call()).status);
      assert.deepEqual(statuses, [200, 200, 200, 200]);
      const limited = await call();
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get("retry-after")) >= 1);
      assert.equal(((await limited.json()) as { error: { code: string } }).error.code, "rate_limited");
    } finally {
      await s.stop();
    }
  });
});
