import assert from "node:assert/strict";
import { connect, createServer } from "node:net";
import { test } from "node:test";
import { Turns } from "../../src/serve/turns.ts";

test("jobs run in the order they were queued, each settling its own promise", async () => {
  const turns = new Turns();
  const ran: number[] = [];
  const results = await Promise.allSettled(
    [0, 1, 2, 3].map((i) =>
      turns.run(() => {
        ran.push(i);
        if (i === 2) throw new Error("job 2 failed");
        return i * 10;
      }),
    ),
  );
  assert.deepEqual(ran, [0, 1, 2, 3]);
  assert.deepEqual(
    results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message)),
    [0, 10, "job 2 failed", 30],
  );
  assert.equal(turns.waiting, 0);
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
  const turns = new Turns();
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  const first = turns.run(() => {
    events.push("job 1");
    client.write("x");
    busy(50);
  });
  const second = turns.run(() => events.push("job 2"));
  assert.equal(turns.waiting, 2);
  await Promise.all([first, second]);
  client.destroy();
  server.close();
  assert.deepEqual(events, ["job 1", "read", "job 2"]);
});
