/**
 * Load on `acquis serve`: time from process start to /readyz 200, resident memory after warm-up, and
 * autocannon at 64 connections on a mix of answer, atom, unit and obligations requests, beside a bare
 * node:http server answering a static JSON body of the mix's mean size in the same run (the ratio is
 * the figure; these machines are noisy). Also answer requests alone, for the answer p99, beside a bare
 * server answering a body of the answers' mean size. The bare servers run in their own process, as acquis
 * does, so the load generator does not share their thread. `engines` is `acquis serve --engines`.
 *
 *   node bench/serve.ts [engines...]     each count of engines, cache on (1 engine) and off
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";

const root = join(import.meta.dirname, "..");
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;

type Req = { method: "POST"; path: string; headers: Record<string, string>; body: string };
const post = (path: string, body: unknown): Req => ({
  method: "POST",
  path,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

export async function run(url: string, requests: Req[] | undefined) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests,
    pipelining: 1,
  });
  return {
    requests_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/u.exec(status)?.[1] ?? 0) / 1024);
}

/**
 * A baseline server in its own process: `script` (run by `node -e`, with `args` before it) listens on a
 * free port and prints it. Resolves once it has.
 */
export async function spawnServer(
  script: string,
  args: string[] = [],
): Promise<{ url: string; stop: () => void }> {
  const proc = spawn(process.execPath, [...args, "-e", script], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve) =>
    proc.stdout.once("data", (d) => resolve(String(d).trim())),
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => proc.kill() };
}

/** A bare node:http server in its own process, answering `bytes` bytes of JSON to every request. */
export function bareServer(bytes: number): Promise<{ url: string; stop: () => void }> {
  return spawnServer(`const body = Buffer.from(JSON.stringify({ padding: "x".repeat(${Math.max(0, bytes - 16)}) }));
require("node:http").createServer((req, res) => { req.resume(); req.on("end", () => {
  res.writeHead(200, { "content-type": "application/json", "content-length": body.length }); res.end(body); }); })
  .listen(0, "127.0.0.1", function () { console.log(this.address().port); });`);
}

/** Waits until `engines` engines take requests (workers join after /readyz). */
async function enginesJoined(url: string, engines: number): Promise<void> {
  const until = Date.now() + 120_000;
  for (;;) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const joined = Number(/^acquis_engines (\d+)$/mu.exec(text)?.[1] ?? 0);
    if (joined >= engines) return;
    if (Date.now() > until) throw new Error(`only ${joined} of ${engines} engines joined`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `cacheMiB: 0` disables the payload cache: every request is computed (the engine's cold cost). */
export async function benchServe(cacheMiB = 64, engines = 1) {
  // A policy whose rate limit the load cannot reach: the bench measures serving, not refusing.
  const policy = join(mkdtempSync(join(tmpdir(), "acquis-bench-")), "serving.yaml");
  writeFileSync(policy, "anonymous: { allowed: true, per_minute: 1000000000 }\n");
  const started = performance.now();
  const args = [
    join(root, "bin", "acquis"),
    "serve",
    "--port",
    "0",
    "--as-of",
    "2026-11-22",
    "--config",
    policy,
    "--engines",
    String(engines),
  ];
  const proc = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "ignore"],
    env: { ...process.env, ACQUIS_CACHE_MIB: String(cacheMiB) },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (\S+)/u.exec(out);
      if (m) resolve(m[1] as string);
    });
    proc.on("exit", () => reject(new Error("server exited")));
  });
  while ((await fetch(`${url}/readyz`).catch(() => null))?.status !== 200)
    await new Promise((r) => setTimeout(r, 5));
  const readyMs = Math.round(performance.now() - started);
  try {
    const atoms = JSON.parse(
      readFileSync(
        join(
          root,
          "regimes",
          "eu",
          "releases",
          JSON.parse(await (await fetch(`${url}/readyz`)).text()).release.split("@")[1],
          "atoms.json",
        ),
        "utf8",
      ),
    ).atoms as { id: string; effective: string }[];
    const atom = atoms.find((a) => a.effective <= "2026-11-22")?.id as string;
    const answers = [
      post("/v1/answer", { query: "When must a controller notify a personal data breach?" }),
      post("/v1/answer", { query: "Article 6(1)(f) GDPR legitimate interests" }),
      post("/v1/answer", { query: "incident reporting deadlines for essential entities" }),
      post("/v1/answer", { query: "prohibited AI practices" }),
    ];
    const mix = [
      ...answers,
      post("/v1/atom", { atom_id: atom }),
      post("/v1/unit", { eid: "art_33__para_1", work_iri: "http://data.europa.eu/eli/reg/2016/679/oj" }),
      post("/v1/unit", { eid: "art_23", work_iri: "http://data.europa.eu/eli/dir/2022/2555/oj" }),
      post("/v1/obligations", { entity_profile: "lt-micro-payment-institution" }),
    ];
    await enginesJoined(url, engines);
    let bytes = 0;
    let answerBytes = 0;
    for (let i = 0; i < 5; i++) {
      for (const r of mix) {
        const res = await fetch(`${url}${r.path}`, { method: "POST", headers: r.headers, body: r.body });
        const n = (await res.arrayBuffer()).byteLength;
        bytes += n;
        if (answers.includes(r)) answerBytes += n;
      }
    }
    const rss = rssMiB(proc.pid as number);
    const meanBody = Math.round(bytes / (5 * mix.length));
    const meanAnswer = Math.round(answerBytes / (5 * answers.length));
    // Answers alone first: the mix's obligations pages (megabytes each) leave a heap that slows what follows.
    const answerOnly = await run(url, answers);
    const ours = await run(url, mix);
    const ratio = (a: { requests_per_s: number }, b: { requests_per_s: number }) =>
      Math.round((a.requests_per_s / b.requests_per_s) * 1000) / 1000;
    const bare = await bareServer(meanBody);
    const baseline = await run(bare.url, undefined);
    bare.stop();
    const bareAnswer = await bareServer(meanAnswer);
    const answerBaseline = await run(bareAnswer.url, undefined);
    bareAnswer.stop();
    return {
      engines,
      ready_ms: readyMs,
      rss_after_warmup_mib: rss,
      mix_mean_body_bytes: meanBody,
      answer_mean_body_bytes: meanAnswer,
      mix: ours,
      answer_only: answerOnly,
      bare_node_http_same_size: baseline,
      bare_node_http_answer_size: answerBaseline,
      throughput_vs_bare: ratio(ours, baseline),
      answer_throughput_vs_bare: ratio(answerOnly, answerBaseline),
    };
  } finally {
    proc.kill("SIGTERM");
  }
}

if (import.meta.main) {
  const counts = process.argv.slice(2).map(Number);
  const out: Record<string, unknown> = { cached: await benchServe(64) };
  for (const n of counts.length > 0 ? counts : [1, availableParallelism()])
    out[`uncached_${n}_engines`] = await benchServe(0, n);
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}
