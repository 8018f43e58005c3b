/**
 * What 64 connections do to a server whose every answer costs the CPU time an acquis answer costs: a
 * bare node:http server answering an 18 KB body after spinning for `BENCH_WORK_MS` (default 2.5, the
 * engine's mean per cold answer in `node bench/answer-cost.ts`), and the same server with no work, in
 * one run; and the busy server again with its work run one request per event-loop turn (what acquis's
 * engine does, src/serve/engines.ts). It separates the tail latency that queueing on one saturated
 * thread causes from anything acquis itself does (docs/benchmarks.md, "Cold answers").
 */
import { createServer } from "node:http";
import autocannon from "autocannon";

const WORK_MS = Number(process.env.BENCH_WORK_MS ?? 2.5);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const body = Buffer.from(JSON.stringify({ padding: "x".repeat(18_000) }));

/** `perTurn`: the work queued and run one request per event-loop turn, as acquis's engine runs it. */
async function run(workMs: number, perTurn = false) {
  const queue: (() => void)[] = [];
  const next = () => {
    queue.shift()?.();
    if (queue.length > 0) setImmediate(next);
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const answer = () => {
        const until = performance.now() + workMs;
        while (performance.now() < until);
        res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
        res.end(body);
      };
      if (!perTurn) return answer();
      queue.push(answer);
      if (queue.length === 1) setImmediate(next);
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
    one_request_per_turn: perTurn,
    requests_per_s: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
  };
}

if (import.meta.main)
  process.stdout.write(
    `${JSON.stringify({ busy: await run(WORK_MS), busy_per_turn: await run(WORK_MS, true), bare: await run(0) }, null, 2)}\n`,
  );
