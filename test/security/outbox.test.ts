/**
 * Security suite, the feed's outbox (docs/security.md, findings 5 and 14): `kill -9` in the middle of a
 * publish loses no delivery. The publication and every delivery it owes are committed before any is
 * sent; a restarted service's worker resumes; announcing again owes nothing.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { PER_ENDPOINT } from "../../src/feed/service.ts";
import { startFeedProcess } from "../helpers/feed.ts";
import { fixtureWithReleases } from "../helpers/fixture-repo.ts";

const SECRET = "an-outbox-secret-of-32-bytes-xxx";

const startFeed = (root: string, store: string) =>
  startFeedProcess(root, ["--allow-loopback-endpoints", "--worker-interval", "1", "--lease-seconds", "2"], {
    store,
  });

test("kill -9 during a publish: after a restart every subscription gets its delivery, and announcing again owes nothing", async () => {
  const repo = fixtureWithReleases();
  const store = join(mkdtempSync(join(tmpdir(), "acquis-outbox-")), "feed.sqlite");
  // A slow receiver: each delivery takes 150 ms, so the publish is still sending when it is killed.
  const seen: string[] = [];
  const started: string[] = [];
  const receiver = createServer((req, res) => {
    started.push(String(req.headers["webhook-id"]));
    req.resume();
    req.on("end", () =>
      setTimeout(() => {
        seen.push(String(req.headers["webhook-id"]));
        res.writeHead(200).end("ok");
      }, 150),
    );
  });
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const N = 30;
  let feed = await startFeed(repo.root, store);
  try {
    for (let i = 0; i < N; i++) {
      const r = await fetch(`${feed.url}/subscriptions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: `watch-${String(i).padStart(2, "0")}`, endpoint: hook, secret: SECRET }),
      });
      assert.equal(r.status, 201);
    }
    void fetch(`${feed.url}/publish`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ regime: "fixture", tag: "t2" }),
    }).catch(() => {});
    for (let i = 0; i < 400 && seen.length < 3; i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(seen.length >= 3 && seen.length < N, `killed mid-publish (${seen.length} of ${N} sent)`);
    const killed = new Promise((ok) => feed.proc.once("exit", ok));
    feed.proc.kill("SIGKILL");
    await killed;
    const startedBeforeKill = new Set(started);
    const beforeRestart = new Set(seen).size;

    feed = await startFeed(repo.root, store);
    const owed = (await (await fetch(`${feed.url}/deliveries`)).json()) as { deliveries: { id: string }[] };
    assert.equal(
      owed.deliveries.length,
      N,
      "every delivery the publication owes was committed before sending",
    );
    for (let i = 0; i < 600 && new Set(seen).size < N; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(
      new Set(seen).size,
      N,
      `every subscription got its delivery (${beforeRestart} before the kill)`,
    );
    const states = (await (await fetch(`${feed.url}/deliveries`)).json()) as {
      deliveries: { state: string }[];
    };
    for (let i = 0; i < 100 && states.deliveries.some((d) => d.state !== "delivered"); i++) {
      await new Promise((r) => setTimeout(r, 50));
      Object.assign(states, await (await fetch(`${feed.url}/deliveries`)).json());
    }
    assert.ok(states.deliveries.every((d) => d.state === "delivered"));
    // At-least-once: only a delivery in flight at the kill (sent, its outcome not yet recorded) can arrive
    // twice, with the same webhook-id, and it had begun before the kill. The publish's own pass and the
    // background worker's each have at most PER_ENDPOINT attempts in flight to this one receiver.
    const twice = [...new Set(seen.filter((id, k) => seen.indexOf(id) !== k))];
    assert.ok(twice.length <= 2 * PER_ENDPOINT, `${twice.length} arrived twice: ${twice.join(", ")}`);
    for (const id of twice)
      assert.ok(startedBeforeKill.has(id), `${id} arrived twice but had not begun before the kill`);
    assert.equal(seen.length - N, twice.length, "none arrived three times");

    const again = (await (
      await fetch(`${feed.url}/publish`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ regime: "fixture", tag: "t2" }),
      })
    ).json()) as { deliveries: unknown[]; attempts: unknown[] };
    assert.deepEqual(again.deliveries, []);
    assert.deepEqual(again.attempts, []);
  } finally {
    feed.proc.kill("SIGTERM");
    receiver.close();
  }
});
