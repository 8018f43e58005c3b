/**
 * `acquis serve --mcp` through the MCP SDK's own Client and StdioClientTransport, against the real
 * process: the five tools, payload parity with REST byte for byte, refusals as tool errors.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { readReleases } from "../../src/release/releases.ts";
import { acquis, BIN } from "../helpers/cli.ts";
import { EU_SERVE_ARGS, MCP_TOOLS, type Server, startServer } from "../helpers/server.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const GDPR = "http://data.europa.eu/eli/reg/2016/679/oj";

function payloadText(r: CallToolResult): string {
  const item = r.content[0];
  assert.ok(item && item.type === "text");
  return item.text;
}

interface Register {
  applicable: { atom: string }[];
  excluded: { atom: string }[];
  undetermined: { atom: string }[];
  counts: unknown;
  page?: { offset: number; next_offset: number | null };
}

describe("acquis serve --mcp", () => {
  let client: Client;
  let rest: Server;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  before(async () => {
    assert.equal(acquis(["build", "eu"]).status, 0);
    client = new Client({ name: "acquis-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "serve", "--mcp", ...EU_SERVE_ARGS],
        stderr: "pipe",
      }),
    );
    rest = await startServer(EU_SERVE_ARGS);
    await rest.ready();
  });
  after(async () => {
    await client?.close();
    await rest?.stop();
  });

  test("the initialize result names the server and the release it serves", () => {
    const info = client.getServerVersion();
    assert.equal(info?.name, "acquis");
    assert.match(info?.title ?? "", new RegExp(`eu@${readReleases(ROOT, "eu").at(-1)?.tag}`, "u"));
    assert.match(client.getInstructions() ?? "", /search_regulation/u);
  });

  test("five tools, each with input and output schemas, a description and read-only annotations", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), MCP_TOOLS);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, "object");
      assert.equal((t.inputSchema as { additionalProperties?: boolean }).additionalProperties, false, t.name);
      assert.equal(t.outputSchema?.type, "object");
      assert.ok((t.description ?? "").length > 80, t.name);
      assert.equal(t.annotations?.readOnlyHint, true);
      assert.equal(t.annotations?.idempotentHint, true);
    }
  });

  test("structuredContent is the REST body, byte for byte, and the text item is the same JSON", async () => {
    const unit = await call("get_unit", { eid: "art_33__para_1", work_iri: GDPR });
    const atomId = (unit.structuredContent as { atoms: { id: string }[] }).atoms[0]?.id as string;
    const cases: [string, string, Record<string, unknown>][] = [
      ["search_regulation", "/v1/answer", { query: "When must a controller notify a personal data breach?" }],
      [
        "search_regulation",
        "/v1/answer",
        { query: "ICT risk management", entity_profile: "lt-micro-payment-institution", as_of: "2026-01-01" },
      ],
      ["search_regulation", "/v1/answer", { query: "What does HIPAA require?" }],
      ["get_unit", "/v1/unit", { eid: "art_33__para_1", work_iri: GDPR }],
      ["get_atom", "/v1/atom", { atom_id: atomId }],
      [
        "list_obligations",
        "/v1/obligations",
        { entity_profile: "de-large-bank", as_of: "2026-01-01", offset: 200, limit: 50 },
      ],
    ];
    for (const [tool, route, args] of cases) {
      const r = await call(tool, args);
      assert.notEqual(r.isError, true, `${tool} ${JSON.stringify(args)}`);
      const body = await (await rest.post(route, args)).text();
      assert.equal(payloadText(r), body, `${tool} text`);
      assert.equal(JSON.stringify(r.structuredContent), body, `${tool} structuredContent`);
    }
  });

  test("list_obligations pages within 64 KB; walking its pages gives REST's complete register", async () => {
    const args = { entity_profile: "de-large-bank", as_of: "2026-12-01" };
    const whole = (await (await rest.post("/v1/obligations", args)).json()) as Register;
    assert.equal(whole.page, undefined, "REST without offset or limit is the complete register");
    const seen: Register = { applicable: [], excluded: [], undetermined: [], counts: whole.counts };
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const r = await call("list_obligations", pages === 0 ? args : { ...args, offset });
      assert.notEqual(r.isError, true);
      assert.ok(
        Buffer.byteLength(payloadText(r)) <= 64 * 1024,
        `page ${pages} is ${Buffer.byteLength(payloadText(r))} bytes`,
      );
      const p = r.structuredContent as unknown as Register;
      assert.deepEqual(p.counts, whole.counts, "every page carries the totals");
      for (const k of ["applicable", "excluded", "undetermined"] as const) seen[k].push(...p[k]);
      assert.equal(p.page?.offset, offset);
      offset = p.page?.next_offset ?? null;
      pages++;
    }
    assert.ok(pages > 5, `${pages} pages`);
    for (const k of ["applicable", "excluded", "undetermined"] as const)
      assert.deepEqual(
        seen[k].map((x) => x.atom),
        whole[k].map((x) => x.atom),
        k,
      );
  });

  test("each error code both transports share: a tool error with REST's code and body shape", async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ["search_regulation", "/v1/answer", { query: "x", bogus: true }, "invalid_request"],
      ["search_regulation", "/v1/answer", { query: "x", release: "1999.1" }, "release_mismatch"],
      ["search_regulation", "/v1/answer", { query: "x", entity_profile: "nobody" }, "unknown_profile"],
      ["get_unit", "/v1/unit", { eid: "art_33" }, "invalid_request"],
      ["get_unit", "/v1/unit", { eid: "art_9999" }, "not_found"],
      ["get_atom", "/v1/atom", { atom_id: "atm_nope" }, "not_found"],
      ["list_obligations", "/v1/obligations", { entity_profile: "nobody" }, "unknown_profile"],
    ];
    for (const [tool, route, args, code] of cases) {
      const r = await call(tool, args);
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}`);
      const mcpBody = r.structuredContent as { error: { code: string; message: string; request_id: string } };
      const restBody = (await (await rest.post(route, args)).json()) as typeof mcpBody;
      assert.equal(mcpBody.error.code, code);
      assert.equal(restBody.error.code, code);
      assert.equal(mcpBody.error.message, restBody.error.message);
      assert.deepEqual(
        { ...mcpBody, error: { ...mcpBody.error, request_id: "" } },
        { ...restBody, error: { ...restBody.error, request_id: "" } },
      );
      assert.equal(JSON.parse(payloadText(r)).error.code, code);
    }
  });

  test("malformed tool calls are tool errors and the server carries on", async () => {
    const unknownArg = await call("get_atom", { atom_id: "atm_x", extra: 1 });
    assert.equal(unknownArg.isError, true);
    assert.match(
      (unknownArg.structuredContent as { error: { message: string } }).error.message,
      /unknown field "extra"/u,
    );
    const wrongType = await call("search_regulation", { query: 42 });
    assert.equal(wrongType.isError, true);
    assert.equal((wrongType.structuredContent as { error: { code: string } }).error.code, "invalid_request");
    const noTool = await call("delete_everything", {});
    assert.equal(noTool.isError, true);
    const still = await call("get_unit", { eid: "art_1", work_iri: GDPR });
    assert.notEqual(still.isError, true, "the server still answers");
  });

  test("diff_releases answers the manifest's one range and refuses any other pair", async () => {
    const r = await call("diff_releases", { kind: "atom", limit: 5 });
    assert.notEqual(r.isError, true);
    const d = r.structuredContent as {
      from: string | null;
      to: string;
      total: number;
      changes: { kind: string }[];
      notes: string[];
    };
    assert.equal(d.to, readReleases(ROOT, "eu").at(-1)?.tag);
    assert.equal(d.changes.length, 5);
    assert.ok(d.changes.every((c) => c.kind === "atom"));
    assert.ok(d.total >= 5);
    assert.match(d.notes[0] ?? "", /acquis pull/u);
    const same = await call("diff_releases", { from: d.from ?? undefined, to: d.to, limit: 1 });
    assert.notEqual(same.isError, true);
    const other = await call("diff_releases", { from: "2020.1.1", to: d.to });
    assert.equal(other.isError, true);
    assert.equal((other.structuredContent as { error: { code: string } }).error.code, "release_mismatch");
  });

  test("resources: the disclaimer", async () => {
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === "acquis://disclaimer"));
    const read = await client.readResource({ uri: "acquis://disclaimer" });
    assert.match(String((read.contents[0] as { text?: string }).text), /not legal advice/u);
  });
});
