/**
 * Fan-out at scale, in small: a payload over its budget carries the first changes that fit and links
 * to the rest; deliveries go out concurrently, never more than PER_ENDPOINT at once to one endpoint;
 * the store keeps each change once (in compressed blocks) and no payload bytes.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { inflateRawSync } from "node:zlib";
import type { Change, ReleaseRef } from "../../src/feed/changes.ts";
import { Fanout } from "../../src/feed/fanout.ts";
import { readFilter } from "../../src/feed/filter.ts";
import { PER_ENDPOINT } from "../../src/feed/service.ts";
import { WEBHOOK_CHANGES_BUDGET } from "../../src/feed/webhook.ts";
import { startFeedProcess } from "../helpers/feed.ts";
import { fixtureWithReleases } from "../helpers/fixture-repo.ts";

const release: ReleaseRef = {
  regime: "eu",
  tag: "2026.11.3",
  commit: "c".repeat(40),
  as_of: "2026-11-26",
  built_at: "2026-11-26T00:00:00Z",
  diff_manifest: "2026.11.3.diff.json",
};

/** A change of about 1 KB, as a changed atom with its text before and after. */
const change = (n: number): Change => {
  const atom = `atm_${String(n).padStart(12, "0")}`;
  return {
    id: `service:eu@2026.11.3:${atom}`,
    atom,
    change: "changed",
    classification: "substantive",
    classification_basis: "the duty's words changed",
    citation: {
      node: "gdpr/art_33/para_1",
      eid: "art_33__para_1",
      quoted_text: "The controller shall notify the supervisory authority. ".repeat(8),
      char_start: 0,
      char_end: 440,
    },
    detail: {
      before: null,
      after: null,
      instruction: {
        from_commit: null,
        to_commit: "c",
        act: "gdpr",
        source_changed: true,
        statement: "x".repeat(300),
      },
    },
    facets: { entity_types: ["controller"], jurisdiction: ["EU"], regime: "eu", topics: [] },
  };
};

test("a payload over its budget carries the first changes that fit and links to the rest of its release", () => {
  const changes = Array.from({ length: 500 }, (_, i) => change(i));
  const fanout = new Fanout(release, changes, { types: [], actors: [] }, false, "https://feed.example");
  const plan = fanout.plan(readFilter({ regime: "eu" }));
  assert.equal(plan.basis.matched, 500);
  const carried = plan.carried.length;
  assert.ok(carried > 1 && carried < 500, `${carried} carried`);
  assert.deepEqual(plan.carried, changes.slice(0, carried), "the first changes, in feed order");
  const bytes = plan.carried.reduce((n, c) => n + Buffer.byteLength(JSON.stringify(c)), 0);
  assert.ok(bytes <= WEBHOOK_CHANGES_BUDGET, `${bytes} bytes of changes`);
  assert.deepEqual(plan.basis.omitted, {
    changes: 500 - carried,
    reason: "budget",
    url: `https://feed.example/feed.json?regime=eu&release=eu%402026.11.3&after=${encodeURIComponent((changes[carried - 1] as Change).id)}`,
  });
  const payload = JSON.parse(fanout.payload("sub-0001", plan));
  assert.equal(payload.counts.changes, 500);
  assert.equal(payload.changes.length, carried);
  assert.equal(payload.omitted.reason, "budget");
  assert.equal(fanout.plan(readFilter({ regime: "eu" })), plan, "one filter is planned once");

  const baseline = new Fanout(release, changes, { types: [], actors: [] }, true, "https://feed.example");
  const notice = JSON.parse(baseline.payload("sub-0001", baseline.plan(readFilter({}))));
  assert.deepEqual(notice.changes, []);
  assert.deepEqual(notice.omitted, {
    changes: 500,
    reason: "baseline",
    url: "https://feed.example/releases/eu/2026.11.3/diff.json",
  });
});

test("deliveries go out concurrently, at most PER_ENDPOINT at once to one endpoint, and the store keeps no payload bytes", async () => {
  const repo = fixtureWithReleases();
  const store = join(mkdtempSync(join(tmpdir(), "acquis-fanout-")), "feed.sqlite");
  let inFlight = 0;
  let most = 0;
  const receiver = createServer((req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    req.resume();
    req.on("end", () =>
      setTimeout(() => {
        inFlight--;
        res.writeHead(204).end();
      }, 60),
    );
  });
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const feed = await startFeedProcess(repo.root, ["--allow-loopback-endpoints", "--worker-interval", "0"], {
    store,
  });
  try {
    const N = 3 * PER_ENDPOINT;
    for (let i = 0; i < N; i++) {
      const r = await fetch(`${feed.url}/subscriptions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ endpoint: hook, secret: `secret-${i}-of-at-least-24-bytes` }),
      });
      assert.equal(r.status, 201);
    }
    for (const tag of ["t1", "t2"]) {
      const pub = (await (
        await fetch(`${feed.url}/publish`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ regime: "fixture", tag }),
        })
      ).json()) as { deliveries: { id: string; subscription: string }[]; attempts: { delivery: string }[] };
      assert.equal(pub.deliveries.length, N);
      assert.deepEqual(
        pub.attempts.map((a) => a.delivery),
        pub.deliveries.map((d) => d.id),
        "the first attempts are listed in subscription order, whatever order they landed in",
      );
    }
    assert.ok(most > 1, "deliveries went out concurrently");
    assert.ok(most <= PER_ENDPOINT, `${most} at once to one endpoint`);
  } finally {
    const exited = new Promise((ok) => feed.proc.once("exit", ok));
    feed.proc.kill("SIGTERM");
    await exited;
    receiver.close();
  }
  const db = new DatabaseSync(store, { readOnly: true });
  const rows = db.prepare("SELECT payload, basis FROM deliveries").all() as {
    payload: string;
    basis: string;
  }[];
  assert.equal(rows.length, 2 * 3 * PER_ENDPOINT);
  assert.ok(
    rows.every((r) => r.payload === "" && r.basis.length > 0),
    "a basis per delivery, no bytes",
  );
  const blocks = db.prepare("SELECT body FROM change_blocks").all() as { body: Uint8Array }[];
  const ids = blocks.flatMap((b) =>
    (JSON.parse(inflateRawSync(b.body).toString("utf8")) as Change[]).map((c) => c.id),
  );
  assert.ok(ids.length > 0);
  assert.equal(
    new Set(ids).size,
    ids.length,
    "each change stored once, whatever the number of subscriptions",
  );
  db.close();
});
