/**
 * Load on `acquis serve`: time from process start to /readyz 200, resident memory after warm-up, and
 * autocannon at 64 connections on a mix of answer, atom, unit and obligations requests, beside a bare
 * node:http server answering a static JSON body of the mix's mean size in the same run (the ratio is
 * the figure; these machines are noisy). Also answer requests alone, for the answer p99.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
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

async function run(url: string, requests: Req[] | undefined) {
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

/** `cacheMiB: 0` disables the payload cache: every request is computed (the engine's cold cost). */
export async function benchServe(cacheMiB = 64) {
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
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      for (const r of mix) {
        const res = await fetch(`${url}${r.path}`, { method: "POST", headers: r.headers, body: r.body });
        bytes += (await res.arrayBuffer()).byteLength;
      }
    }
    const rss = rssMiB(proc.pid as number);
    const meanBody = Math.round(bytes / (5 * mix.length));
    const ours = await run(url, mix);
    const answerOnly = await run(url, answers);
    const body = Buffer.from(JSON.stringify({ padding: "x".repeat(Math.max(0, meanBody - 16)) }));
    const bare = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      res.end(body);
    });
    await new Promise<void>((r) => bare.listen(0, "127.0.0.1", r));
    const address = bare.address() as { port: number };
    const baseline = await run(`http://127.0.0.1:${address.port}`, undefined);
    bare.close();
    return {
      ready_ms: readyMs,
      rss_after_warmup_mib: rss,
      mix_mean_body_bytes: meanBody,
      mix: ours,
      answer_only: answerOnly,
      bare_node_http_same_size: baseline,
      throughput_vs_bare: Math.round((ours.requests_per_s / baseline.requests_per_s) * 1000) / 1000,
    };
  } finally {
    proc.kill("SIGTERM");
  }
}

if (import.meta.main) {
  const cached = await benchServe(64);
  const uncached = await benchServe(0);
  process.stdout.write(`${JSON.stringify({ cached, uncached }, null, 2)}\n`);
}
