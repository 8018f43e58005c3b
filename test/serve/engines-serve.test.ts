/**
 * `acquis serve --engines 2`: a second engine in a worker thread answers beside the first, and every
 * payload is byte for byte what a one-engine server gives, refusals included. Real processes, real HTTP,
 * the payload cache off so every request is computed by whichever engine takes it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { acquis, BIN } from "../helpers/cli.ts";
import { EU_SERVE_ARGS, type Server, startServer } from "../helpers/server.ts";

const GDPR = "http://data.europa.eu/eli/reg/2016/679/oj";

/** Requests of every operation, and two the engine refuses. */
const REQUESTS: { path: string; body: unknown }[] = [
  ...[
    "When must a controller notify a personal data breach?",
    "Article 6(1)(f) GDPR legitimate interests",
    "incident reporting deadlines for essential entities",
    "prohibited AI practices",
    "Which ICT third-party risk rules apply to financial entities under DORA?",
    "What is a high-risk AI system?",
    "right to erasure",
    "Article 17 DSA statement of reasons",
  ].map((query) => ({ path: "/v1/answer", body: { query } })),
  { path: "/v1/answer", body: { query: "prohibited AI practices", detail: "full" } },
  { path: "/v1/unit", body: { eid: "art_33__para_1", work_iri: GDPR } },
  { path: "/v1/unit", body: { eid: "art_9999", work_iri: GDPR } },
  { path: "/v1/obligations", body: { entity_profile: "lt-micro-payment-institution", limit: 20 } },
  { path: "/v1/atom", body: { atom_id: "atm_aaaaaaaaaaaa" } },
];

function policy(): string {
  const f = join(mkdtempSync(join(tmpdir(), "acquis-engines-")), "serving.yaml");
  writeFileSync(f, "anonymous: { allowed: true, per_minute: 100000 }\n");
  return f;
}

async function metric(s: Server, line: RegExp): Promise<string | null> {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  return line.exec(text)?.[1] ?? null;
}

describe("acquis serve --engines 2", () => {
  let one: Server;
  let two: Server;
  before(async () => {
    assert.equal(acquis(["build", "eu"]).status, 0);
    const args = [...EU_SERVE_ARGS, "--config", policy()];
    const env = { ACQUIS_CACHE_MIB: "0" };
    [one, two] = await Promise.all([startServer(args, env), startServer([...args, "--engines", "2"], env)]);
    await Promise.all([one.ready(60_000), two.ready(60_000)]);
    // /readyz answers once this thread's engine is loaded; the worker's joins when it has verified the same release.
    const until = Date.now() + 120_000;
    while ((await metric(two, /^acquis_engines (\d+)$/mu)) !== "2") {
      assert.ok(Date.now() < until, `the worker engine never joined; stderr: ${two.stderr()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  after(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
  });

  test("every payload, refusals included, is the one-engine server's, byte for byte", async () => {
    const ask = async (s: Server, r: (typeof REQUESTS)[number], id: string) => {
      const res = await s.post(r.path, r.body, { "x-request-id": id });
      return `${res.status} ${await res.text()}`;
    };
    const expected: string[] = [];
    for (const [i, r] of REQUESTS.entries()) expected.push(await ask(one, r, `r${i}`));
    // All at once, three rounds: the queue spreads them over both engines.
    const rounds = await Promise.all(
      [0, 1, 2].map(() => Promise.all(REQUESTS.map((r, i) => ask(two, r, `r${i}`)))),
    );
    for (const got of rounds)
      got.forEach((g, i) => {
        assert.equal(g, expected[i], `${REQUESTS[i]?.path} ${JSON.stringify(REQUESTS[i]?.body)}`);
      });
    assert.ok(
      expected.some((e) => e.startsWith("404 ")),
      "the refusals are among the requests compared",
    );
  });

  test("both engines made payloads, and /metrics says how many each", async () => {
    const made = async (engine: number) =>
      Number(await metric(two, new RegExp(`^acquis_engine_payloads\\{engine="${engine}"\\} (\\d+)$`, "mu")));
    // On a loaded machine one batch's requests can arrive one by one, each answered by the main thread
    // before the next is queued (CI saw 33 and 0): more concurrent batches give the queue a backlog to
    // hand the worker. Each batch's statuses are the one-engine server's (the test above compares bytes).
    for (let batch = 0; batch < 20 && (await made(1)) === 0; batch++) {
      const requests = [...REQUESTS, ...REQUESTS, ...REQUESTS, ...REQUESTS];
      const got = await Promise.all(requests.map(async (r) => (await two.post(r.path, r.body)).status));
      const want = await Promise.all(requests.map(async (r) => (await one.post(r.path, r.body)).status));
      assert.deepEqual(got, want);
    }
    const local = await made(0);
    const worker = await made(1);
    assert.ok(local > 0 && worker > 0, `engine 0 made ${local}, engine 1 made ${worker}`);
    assert.equal(await metric(two, /^acquis_engine_queue (\d+)$/mu), "0");
  });
});

describe("acquis serve --mcp --engines 2", () => {
  test("search_regulation over stdio gives the REST payload of a one-engine server, once the worker has joined", async () => {
    assert.equal(acquis(["build", "eu"]).status, 0);
    const rest = await startServer([...EU_SERVE_ARGS, "--config", policy()], { ACQUIS_CACHE_MIB: "0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "serve", "--mcp", "--engines", "2", ...EU_SERVE_ARGS],
      env: {
        ...process.env,
        ACQUIS_CACHE_MIB: "0",
        ACQUIS_LOG_LEVEL: "info",
        ACQUIS_LOG_FORMAT: "json",
      } as Record<string, string>,
      stderr: "pipe",
    });
    let log = "";
    transport.stderr?.on("data", (d) => {
      log += String(d);
    });
    const client = new Client({ name: "acquis-engines-test", version: "1.0.0" });
    try {
      await client.connect(transport);
      await rest.ready(60_000);
      const until = Date.now() + 120_000;
      while (!log.includes("engine worker ready")) {
        assert.ok(Date.now() < until, `the worker engine never joined; stderr: ${log}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const questions = REQUESTS.filter((r) => r.path === "/v1/answer").map(
        (r) => r.body as Record<string, unknown>,
      );
      const overMcp = await Promise.all(
        questions.map(async (q) => {
          const r = (await client.callTool({ name: "search_regulation", arguments: q })) as CallToolResult;
          return (r.content[0] as { text: string }).text;
        }),
      );
      for (const [i, q] of questions.entries())
        assert.equal(overMcp[i], await (await rest.post("/v1/answer", q)).text(), JSON.stringify(q));
    } finally {
      await client.close();
      await rest.stop();
    }
  });
});

test("--engines must be a count of engines, or auto", () => {
  for (const bad of ["0", "two", "-1", "1.5"]) {
    const r = acquis(["serve", "--engines", bad, "--port", "0"]);
    assert.notEqual(r.status, 0);
    assert.match(
      r.stderr,
      new RegExp(
        `--engines "${bad.replace(".", "\\.")}" is not a count of engines \\(1-64, or auto: one per core`,
      ),
    );
  }
  // auto passes the check: what fails next is the release asked for.
  const r = acquis(["serve", "--engines", "auto", "--port", "0", "--path", "/nonexistent-release"]);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--path \/nonexistent-release: no release-meta\.yaml there/u);
});
