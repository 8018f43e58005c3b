import assert from "node:assert/strict";
import { connect, createServer } from "node:net";
import { test } from "node:test";
import { Engines, type LocalEngine } from "../../src/serve/engines.ts";
import type { ServeState } from "../../src/serve/state.ts";

const STATE: ServeState = {
  engine: null,
  scope: null,
  refused: null,
  draining: false,
  defaultAsOf: () => "2026-01-01",
};
/** Engines whose engine in this thread is `local`: the queue and the turns are what is under test. */
const engines = (local: LocalEngine) => new Engines(STATE, local);

test("calls are answered in the order they were queued, each settling its own promise", async () => {
  const ran: string[] = [];
  const e = engines((tool, args) => {
    ran.push(String(args));
    if (args === 2) throw new Error("call 2 failed");
    return `${tool}:${String(args)}`;
  });
  const results = await Promise.allSettled([0, 1, 2, 3].map((i) => e.run("get_unit", i, "2026-01-01")));
  assert.deepEqual(ran, ["0", "1", "2", "3"]);
  assert.deepEqual(
    results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message)),
    ["get_unit:0", "get_unit:1", "call 2 failed", "get_unit:3"],
  );
  assert.equal(e.waiting, 0);
  assert.equal(e.count, 1);
});

test("the event loop polls between two jobs: a request that arrives meanwhile is read before the next job", async () => {
  // A real socket: the data written during job 1 must be read before job 2 runs, which is what keeps a
  // connection from waiting behind requests that arrived after it.
  const events: string[] = [];
  const server = createServer((socket) => socket.on("data", () => events.push("read")));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  const client = connect(port, "127.0.0.1");
  await new Promise<void>((ok) => client.once("connect", ok));
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  const e = engines((tool) => {
    events.push(tool);
    if (tool === "job 1") {
      client.write("x");
      busy(50);
    }
    return "";
  });
  const first = e.run("job 1", {}, "2026-01-01");
  const second = e.run("job 2", {}, "2026-01-01");
  assert.equal(e.waiting, 2);
  await Promise.all([first, second]);
  client.destroy();
  server.close();
  assert.deepEqual(events, ["job 1", "read", "job 2"]);
});
