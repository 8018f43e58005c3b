/**
 * What 64 connections do to a server whose every answer costs the CPU time an acquis answer costs: a
 * bare node:http server answering an 18 KB body after spinning for `BENCH_WORK_MS` (default 2.5, the
 * engine's mean per cold answer in `node bench/answer-cost.ts`), and the same server with no work, in
 * one run. It separates the tail latency that queueing on one saturated thread causes from anything
 * acquis itself does (docs/benchmarks.md, "Cold answers").
 */
import { createServer } from "node:http";
import autocannon from "autocannon";

const WORK_MS = Number(process.env.BENCH_WORK_MS ?? 2.5);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const body = Buffer.from(JSON.stringify({ padding: "x".repeat(18_000) }));

async function run(workMs: number) {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const until = performance.now() + workMs;
      while (performance.now() < until);
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      res.end(body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 64,
    duration: DURATION,
    method: "POST",
    body: "{}",
  });
  server.close();
  return {
    work_ms: workMs,
    requests_per_s: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
  };
}

if (import.meta.main)
  process.stdout.write(`${JSON.stringify({ busy: await run(WORK_MS), bare: await run(0) }, null, 2)}\n`);
