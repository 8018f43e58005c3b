/**
 * The floor under issue [5/6]'s cold-answer target: "throughput ≥ 0.5 of a bare node:http server returning
 * a body of the same size, in the same run". Measured in one run:
 *   - a bare node:http server and a bare Fastify server, each answering a static body of the answers'
 *     mean size, at 64 connections (their own processes, as acquis runs);
 *   - per question, in this process: `JSON.stringify` of the answer payload alone (no search, no HTTP),
 *     the whole answer (`answer()` then `JSON.stringify`), and SQLite FTS5's top 10 over the same
 *     corpus's articles (the reference engine of eval/baselines/fts5.ts).
 * The target leaves each answer at most cores / (0.5 × bare req/s) of CPU, and less, since the load
 * generator runs on the same cores. And the floor under "start to /readyz ≤ 0.5 s with every digest
 * checked": a bare Fastify process's start to its first 200, reading and hashing the release's
 * artifacts, and `JSON.parse` of the four the engine reads. `node bench/cold-floor.ts` (BENCH_SECONDS,
 * default 10).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { fts5System } from "../eval/baselines/fts5.ts";
import { bootOurs } from "../eval/systems.ts";
import { answer } from "../src/engine/answer.ts";
import { newestBuilt } from "../src/release/releases.ts";
import { bareServer, run, spawnServer } from "./serve.ts";

const root = join(import.meta.dirname, "..");
const AS_OF = "2026-11-22";

/** A bare Fastify server in its own process, answering `bytes` bytes of JSON to every POST. */
function bareFastify(bytes: number): Promise<{ url: string; stop: () => void }> {
  return spawnServer(
    `import Fastify from "fastify";
const body = Buffer.from(JSON.stringify({ padding: "x".repeat(${Math.max(0, bytes - 16)}) }));
const app = Fastify({ logger: false });
app.post("/v1/answer", async (_req, reply) => reply.type("application/json").send(body));
app.get("/readyz", async () => ({ ready: true }));
await app.listen({ port: 0, host: "127.0.0.1" });
console.log(app.server.address().port);`,
    ["--input-type=module"],
  );
}

/** Milliseconds from spawning a bare Fastify process to its first 200 (node, the imports, listen). */
async function bareFastifyReady(): Promise<number> {
  const t0 = performance.now();
  const server = await bareFastify(16);
  while ((await fetch(`${server.url}/readyz`).catch(() => null))?.status !== 200);
  const ms = performance.now() - t0;
  server.stop();
  return Math.round(ms);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Reading and SHA-256 of every artifact of a release directory, and JSON.parse of what the engine reads. */
function releaseFloor(dir: string) {
  let bytes = 0;
  const t0 = performance.now();
  for (const f of readdirSync(dir).sort()) {
    const body = readFileSync(join(dir, f));
    bytes += body.length;
    createHash("sha256").update(body).digest("hex");
  }
  const hashed = performance.now();
  for (const f of ["corpus.json", "index.json", "graph.json", "atoms.json"])
    JSON.parse(readFileSync(join(dir, f), "utf8"));
  return {
    artifacts_mib: Math.round(bytes / 2 ** 20),
    read_and_sha256_ms: Math.round(hashed - t0),
    json_parse_ms: Math.round(performance.now() - hashed),
  };
}

/** Mean microseconds per question of `f` over every question, after one pass to warm up. */
function perQuestion(questions: string[], f: (q: string) => void, passes = 3): number {
  for (const q of questions) f(q);
  const t0 = performance.now();
  for (let i = 0; i < passes; i++) for (const q of questions) f(q);
  return Math.round(((performance.now() - t0) * 1000) / (passes * questions.length));
}

export async function benchColdFloor() {
  const record = newestBuilt(root, "eu");
  if (!record) throw new Error("no eu release built: run `npx acquis build eu`");
  const { engine, scope } = bootOurs(root, join(root, "regimes", "eu", "releases", record.tag));
  const questions: string[] = [];
  const dir = join(root, "eval", "questions");
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith(".yaml"))
    .sort())
    for (const q of parse(readFileSync(join(dir, f), "utf8")) as { query: string }[]) questions.push(q.query);

  const ask = (query: string) => answer(engine, scope, { query }, AS_OF);
  const payloads = new Map(questions.map((q) => [q, ask(q)]));
  const meanBytes = Math.round(
    [...payloads.values()].reduce((n, p) => n + Buffer.byteLength(JSON.stringify(p)), 0) / payloads.size,
  );
  const fts = fts5System([...engine.release.byNode.values()]);
  const costs = {
    stringify_us: perQuestion(questions, (q) => JSON.stringify(payloads.get(q))),
    answer_and_stringify_us: perQuestion(questions, (q) => JSON.stringify(ask(q))),
    fts5_top10_us: perQuestion(questions, (q) => fts.rank(q), 1),
  };
  fts.close();

  const bare = await bareServer(meanBytes);
  const bareRun = await run(bare.url, undefined);
  bare.stop();
  const fastify = await bareFastify(meanBytes);
  const request = {
    method: "POST" as const,
    path: "/v1/answer",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "x" }),
  };
  const fastifyRun = await run(fastify.url, [request]);
  fastify.stop();

  const readies: number[] = [];
  for (let i = 0; i < 3; i++) readies.push(await bareFastifyReady());
  const release = releaseFloor(join(root, "regimes", "eu", "releases", record.tag));

  const cores = cpus().length;
  const budget = Math.round((cores * 1e6) / (0.5 * bareRun.requests_per_s));
  return {
    machine: `${cores} cores, ${cpus()[0]?.model ?? "unknown cpu"}, node ${process.version}`,
    release: `eu@${record.tag}`,
    questions: questions.length,
    mean_answer_bytes: meanBytes,
    bare_node_http: bareRun,
    bare_fastify: fastifyRun,
    fastify_over_bare: Math.round((fastifyRun.requests_per_s / bareRun.requests_per_s) * 100) / 100,
    per_answer: costs,
    target_cpu_budget_us_at_most: budget,
    stringify_over_budget: Math.round((costs.stringify_us / budget) * 100) / 100,
    answer_over_budget: Math.round((costs.answer_and_stringify_us / budget) * 100) / 100,
    fts5_over_budget: Math.round((costs.fts5_top10_us / budget) * 100) / 100,
    ready: { bare_fastify_start_to_200_ms_median: median(readies), ...release },
  };
}

if (import.meta.main) process.stdout.write(`${JSON.stringify(await benchColdFloor(), null, 2)}\n`);
