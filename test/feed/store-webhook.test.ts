/**
 * The feed store over SQLite (durable, idempotent publications and deliveries, versioned migrations)
 * and webhook signatures checked with the schemes' own libraries, not with our code.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { verify as verifyGithub } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import type { Change, ReleaseRef } from "../../src/feed/changes.ts";
import { readFilter } from "../../src/feed/filter.ts";
import { PgStore } from "../../src/feed/pg-store.ts";
import { SqliteStore } from "../../src/feed/sqlite-store.ts";
import type { Delivery, FeedStore } from "../../src/feed/store.ts";
import { deliveryHeaders, deliveryId, webhookBody, webhookPayload } from "../../src/feed/webhook.ts";
import { type Postgres, startPostgres } from "../helpers/postgres.ts";

const release: ReleaseRef = {
  regime: "fixture",
  tag: "t2",
  commit: "c".repeat(40),
  as_of: "2100-06-01",
  built_at: "2026-01-02T12:00:00Z",
  diff_manifest: "t2.diff.json",
};
const change = (atom: string): Change => ({
  id: `service:fixture@t2:${atom}`,
  atom,
  change: "added",
  classification: "substantive",
  classification_basis: "new duty",
  citation: {
    node: "widgets/art_4",
    eid: "art_4",
    quoted_text: "Importers shall verify.",
    char_start: 0,
    char_end: 23,
  },
  detail: {
    before: null,
    after: null,
    instruction: { from_commit: null, to_commit: "c", act: "widgets", source_changed: true, statement: "" },
  },
  facets: { entity_types: ["importer"], jurisdiction: ["EU"], regime: "fixture", topics: [] },
});

let postgres: Postgres;
before(async () => {
  postgres = await startPostgres();
});
after(() => postgres?.stop());

/** The one store suite, run against each implementation. */
const STORES: [string, () => Promise<() => Promise<FeedStore>>][] = [
  [
    "SQLite",
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), "acquis-store-")), "feed.sqlite");
      return async () => new SqliteStore(file);
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const url = await postgres.database(`store_${process.pid}_${Date.now()}`);
      return () => PgStore.open(url);
    },
  ],
];

for (const [name, make] of STORES)
  describe(`the ${name} feed store`, () => {
    test("what it acknowledged is there after reopening; publications and deliveries are idempotent", async () => {
      const open = await make();
      const a = await open();
      await a.addSubscription(
        {
          id: "sub-0001",
          name: "r",
          endpoint: "http://127.0.0.1:9/hook",
          filter: readFilter({ entity_types: "importer" }),
          active: true,
          created_at: "2026-01-01T00:00:00Z",
        },
        "s3cret",
      );
      const payload = webhookBody(webhookPayload(release, "sub-0001", readFilter({}), [change("atm_a")]));
      const basis = { filter: readFilter({}), matched: 1, carried: [change("atm_a").id], omitted: null };
      const d: Delivery = {
        id: deliveryId("sub-0001", payload),
        subscription: "sub-0001",
        regime: "fixture",
        tag: "t2",
        event: "release.published",
        state: "pending",
        attempts: 0,
        created_at: "2026-01-03T00:00:00Z",
        last_error: null,
        next_attempt_at: "2026-01-03T00:00:00Z",
        signature: "",
      };
      assert.equal(await a.publishedBefore("fixture"), false);
      assert.equal(
        await a.addPublication(
          { ...release, published_at: "2026-01-03T00:00:00Z", changes: 2, baseline: false },
          [change("atm_b"), change("atm_a")],
          [{ delivery: d, basis }],
          new Map([["tpl", payload]]),
        ),
        "recorded",
      );
      assert.equal(
        await a.addPublication(
          { ...release, published_at: "2026-01-04T00:00:00Z", changes: 1, baseline: false },
          [change("atm_a")],
          [{ delivery: { ...d, created_at: "2026-01-04T00:00:00Z" }, basis }],
          new Map([["tpl", "another"]]),
        ),
        "already",
        "announcing twice records nothing new and owes nothing new",
      );
      assert.equal(
        await a.addPublication(
          { ...release, tag: "t3", published_at: "2026-01-04T00:00:00Z", changes: 0, baseline: true },
          [],
          [],
          new Map(),
        ),
        "raced",
        "a baseline is refused once another release of its regime has been published",
      );
      assert.equal(await a.publication("fixture", "t3"), null, "a raced baseline writes nothing");
      assert.equal(await a.publishedBefore("fixture"), true);
      assert.equal((await a.deliveries()).length, 1);
      await a.close();
      const b = await open();
      assert.equal((await b.subscriptions())[0]?.id, "sub-0001");
      assert.equal(await b.secretOf("sub-0001"), "s3cret");
      assert.equal((await b.published())[0]?.changes[0]?.atom, "atm_a");
      assert.deepEqual(await b.owedOf(d.id), { basis, payload: null }, "the basis is stored, not the bytes");
      assert.equal(await b.templateOf("tpl"), payload, "a template is stored once, as first written");
      assert.equal(await b.templateOf("none"), null);
      assert.deepEqual(
        (await b.published())[0]?.changes.map((c) => c.atom),
        ["atm_a", "atm_b"],
        "the changes come back in id order",
      );
      assert.deepEqual(
        (await b.deliveriesById([d.id])).map((x) => x.id),
        [d.id],
      );
      assert.equal((await b.publication("fixture", "t2"))?.baseline, false);
      const lease = (worker: string, at: string, until: string) => ({ worker, at, until });
      assert.deepEqual(
        (
          await b.claimDue(
            "2026-01-03T00:00:00Z",
            lease("w1", "2026-06-01T00:00:00.000Z", "2026-06-01T00:00:30.000Z"),
            8,
          )
        ).map((x) => x.id),
        [d.id],
      );
      // A second worker finds it leased, also after w1 renewed past the first lease's end.
      await b.renewLeases([d.id], lease("w1", "2026-06-01T00:00:20.000Z", "2026-06-01T00:00:50.000Z"));
      assert.deepEqual(
        await b.claimDue(
          "2026-01-03T00:00:00Z",
          lease("w2", "2026-06-01T00:00:40.000Z", "2026-06-01T00:01:10.000Z"),
          8,
        ),
        [],
      );
      // Once the lease lapses w2 takes it; w1's late attempt is then not recorded, w2's is.
      assert.equal(
        (
          await b.claimDue(
            "2026-01-03T00:00:00Z",
            lease("w2", "2026-06-01T00:01:00.000Z", "2026-06-01T00:01:30.000Z"),
            8,
          )
        ).length,
        1,
      );
      const attempt = {
        at: "2026-01-03T00:00:00Z",
        attempt: 1,
        delivery: d.id,
        subscription: "sub-0001",
        endpoint: "http://127.0.0.1:9/hook",
        outcome: "delivered" as const,
        status: 200,
        error: null,
        retry_at: null,
      };
      const done = { ...d, state: "delivered" as const, attempts: 1, next_attempt_at: null };
      assert.deepEqual(
        await b.recordAttempts([{ attempt, delivery: done }], "w1"),
        [false],
        "a worker that lost its claim records nothing",
      );
      assert.deepEqual(await b.recordAttempts([{ attempt, delivery: done }], "w2"), [true]);
      assert.equal((await b.attempts()).length, 1);
      assert.equal(await b.nextSubscriptionSerial(), 2);
      await b.close();
    });
  });

describe("webhook payloads and signatures", () => {
  const payload = webhookBody(
    webhookPayload(release, "sub-0001", readFilter({ regime: "fixture" }), [
      change("atm_b"),
      change("atm_a"),
    ]),
  );

  test("payload bytes: keys sorted, two-space indent, one trailing newline; the delivery id is a function of subscription and bytes", () => {
    assert.ok(payload.endsWith("}\n") && !payload.endsWith("\n\n"));
    assert.match(payload, /^\{\n {2}"changes": \[/u);
    const keys = Object.keys(JSON.parse(payload));
    assert.deepEqual(keys, [...keys].sort());
    assert.equal(deliveryId("sub-0001", payload), deliveryId("sub-0001", payload));
    assert.notEqual(deliveryId("sub-0002", payload), deliveryId("sub-0001", payload));
  });

  test("GitHub's scheme verifies X-Service-Signature with @octokit/webhooks-methods", async () => {
    const h = deliveryHeaders("dlv_x", "s3cret", payload, 1_767_225_600);
    assert.equal(await verifyGithub("s3cret", payload, h["x-service-signature"] as string), true);
    assert.equal(await verifyGithub("wrong", payload, h["x-service-signature"] as string), false);
  });

  test("the Standard Webhooks headers verify with standardwebhooks, for plain and whsec_ secrets", () => {
    const whsec = `whsec_${Buffer.from("a-standard-secret-of-enough-bytes").toString("base64")}`;
    const now = Math.floor(Date.now() / 1000);
    for (const secret of [whsec]) {
      const h = deliveryHeaders("dlv_y", secret, payload, now);
      const verified = new Webhook(secret).verify(payload, {
        "webhook-id": h["webhook-id"] as string,
        "webhook-timestamp": h["webhook-timestamp"] as string,
        "webhook-signature": h["webhook-signature"] as string,
      });
      assert.deepEqual(verified, JSON.parse(payload));
    }
    const plain = deliveryHeaders("dlv_z", "s3cret", payload, now);
    const key = Buffer.from("s3cret", "utf8").toString("base64");
    assert.doesNotThrow(() =>
      new Webhook(key).verify(payload, {
        "webhook-id": "dlv_z",
        "webhook-timestamp": plain["webhook-timestamp"] as string,
        "webhook-signature": plain["webhook-signature"] as string,
      }),
    );
  });
});
