/**
 * `acquis feed serve` as a process over the fixture regime, with real webhook receivers on loopback.
 * Signatures are checked with the schemes' own libraries; the retry schedule is walked by restarting
 * the service (after kill -9) at later instants with ACQUIS_NOW over the same store.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { verify as verifyGithub } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import { addressRefusal, send } from "../../src/feed/send.ts";
import { acquis } from "../helpers/cli.ts";
import { startFeedProcess } from "../helpers/feed.ts";
import {
  FIXTURE_SOURCES,
  type FixtureRepo,
  fixtureRepo,
  fixtureWithReleases,
} from "../helpers/fixture-repo.ts";
import { type Postgres, startPostgres } from "../helpers/postgres.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field and asserted on
type Loose = any;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver answering `status()` and keeping what it received. */
async function receiver(status: () => number): Promise<{ url: string; got: Received[]; server: Server }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.writeHead(status()).end("ok");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, got, server };
}

interface Feed {
  url: string;
  proc: ChildProcess;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Loose; text: string }>;
}

async function startFeed(root: string, store: string, at: string): Promise<Feed> {
  // The worker is off: these tests run its passes themselves (POST /deliveries/retry), at instants
  // they choose, to walk the retry schedule; test/security/outbox.test.ts runs it on its timer.
  const { url, proc } = await startFeedProcess(
    root,
    ["--allow-loopback-endpoints", "--worker-interval", "0"],
    { store, env: { ACQUIS_NOW: at } },
  );
  return {
    url,
    proc,
    async call(method, path, body) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let json: Loose = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
      return { status: res.status, json, text };
    },
  };
}

const kill9 = (f: Feed) =>
  new Promise<void>((ok) => {
    f.proc.once("exit", () => ok());
    f.proc.kill("SIGKILL");
  });

const later = (iso: string, seconds: number) =>
  new Date(Date.parse(iso) + seconds * 1000).toISOString().replace(/\.\d{3}Z$/u, "Z");

let postgres: Postgres;
before(async () => {
  postgres = await startPostgres();
});
after(() => postgres?.stop());

/** The same suite over each store: a SQLite file, or a PostgreSQL database of its own. */
const STORES: [string, () => Promise<string>][] = [
  ["SQLite", async () => join(mkdtempSync(join(tmpdir(), "acquis-feed-")), "feed.sqlite")],
  ["PostgreSQL", async () => postgres.database(`feed_${process.pid}_${Date.now()}`)],
];

for (const [kind, storeFor] of STORES)
  describe(`acquis feed serve over ${kind}`, () => {
    let repo: FixtureRepo;
    let store: string;
    let good: Awaited<ReturnType<typeof receiver>>;
    let bad: Awaited<ReturnType<typeof receiver>>;
    let feed: Feed;
    // Now, so the Standard Webhooks library (which refuses stale timestamps) accepts the first delivery.
    const T0 = new Date().toISOString().replace(/\.\d{3}Z$/u, "Z");

    before(async () => {
      repo = fixtureWithReleases();
      store = await storeFor();
      good = await receiver(() => 200);
      bad = await receiver(() => 503);
      feed = await startFeed(repo.root, store, T0);
    });
    after(async () => {
      feed?.proc.kill("SIGKILL");
      good?.server.close();
      bad?.server.close();
    });

    test("subscribe, publish, deliver signed payloads, and announce again without new deliveries", async () => {
      const root = await feed.call("GET", "/");
      assert.equal(root.status, 200);
      assert.deepEqual(root.json.filters, ["entity_type", "jurisdiction", "regime", "topic"]);
      const sub = await feed.call("POST", "/subscriptions", {
        endpoint: good.url,
        secret: "good-secret-of-at-least-24-bytes",
        filter: { entity_types: "manufacturer" },
      });
      assert.equal(sub.status, 201);
      assert.equal(sub.json.subscription.id, "sub-0001");
      assert.deepEqual(sub.json.subscription.filter, {
        entity_type: ["manufacturer"],
        jurisdiction: [],
        regime: [],
        topic: [],
      });
      assert.doesNotMatch(sub.text, /good-secret/u, "the secret is in no response");
      assert.equal(
        (
          await feed.call("POST", "/subscriptions", {
            id: "unece-watch",
            endpoint: good.url,
            secret: "x-secret-of-at-least-24-bytes",
            filter: { jurisdiction: ["UNECE"] },
          })
        ).status,
        201,
      );
      assert.doesNotMatch((await feed.call("GET", "/subscriptions")).text, /good-secret|"secret"/u);

      // The first release this feed publishes is a baseline: counted, not itemised.
      const base = await feed.call("POST", "/publish", { regime: "fixture", tag: "t1" });
      assert.equal(base.status, 200, base.text);
      assert.equal(base.json.publication.baseline, true);
      assert.ok(base.json.publication.changes > 0);
      assert.deepEqual(base.json.silent, ["unece-watch"]);
      assert.equal(base.json.deliveries.length, 1);
      const notice = JSON.parse((good.got.at(-1) as Received).body);
      assert.deepEqual(notice.changes, [], "a baseline's notice itemises nothing");
      assert.ok(notice.counts.changes > 0, "it counts what the filter matched");
      assert.equal(notice.omitted.reason, "baseline");
      assert.equal(notice.omitted.changes, notice.counts.changes);
      const full = await fetch(notice.omitted.url);
      assert.equal(full.status, 200, "the notice links to the full list, and the link resolves");
      assert.equal(((await full.json()) as Loose).tag, "t1");
      const baselineFeed = await feed.call("GET", "/feed.json?release=fixture@t1");
      assert.deepEqual(
        baselineFeed.json.items.map((i: Loose) => i.id),
        ["service:fixture@t1:baseline"],
        "one item stands for the baseline's changes",
      );
      assert.equal(baselineFeed.json.items[0]._service.baseline.changes, base.json.publication.changes);

      const pub = await feed.call("POST", "/publish", { regime: "fixture", tag: "t2" });
      assert.equal(pub.status, 200, pub.text);
      assert.equal(pub.json.publication.baseline, false);
      assert.equal(pub.json.publication.tag, "t2");
      assert.deepEqual(pub.json.silent, ["unece-watch"]);
      assert.equal(pub.json.deliveries.length, 1);
      assert.equal(pub.json.attempts[0].outcome, "delivered");
      assert.equal(pub.json.deliveries[0].state, "delivered");
      const hit = good.got.at(-1) as Received;
      assert.equal(hit.headers["x-service-delivery"], pub.json.deliveries[0].id);
      assert.equal(
        await verifyGithub(
          "good-secret-of-at-least-24-bytes",
          hit.body,
          hit.headers["x-service-signature"] as string,
        ),
        true,
      );
      const standard = new Webhook(Buffer.from("good-secret-of-at-least-24-bytes").toString("base64")).verify(
        hit.body,
        {
          "webhook-id": hit.headers["webhook-id"] as string,
          "webhook-timestamp": hit.headers["webhook-timestamp"] as string,
          "webhook-signature": hit.headers["webhook-signature"] as string,
        },
      );
      assert.equal((standard as Loose).event, "release.published");
      const payload = JSON.parse(hit.body);
      assert.ok(
        payload.changes.length > 0 &&
          payload.changes.every((c: Loose) =>
            c.facets.entity_types.some((t: string) => ["manufacturer", "economic_operator"].includes(t)),
          ),
      );
      assert.ok(hit.body.endsWith("}\n"));
      assert.equal(payload.counts.changes, payload.changes.length, "a small payload carries every change");
      assert.equal(payload.omitted, undefined);
      const t2 = await feed.call("GET", "/feed.json?release=fixture@t2&entity_type=manufacturer");
      assert.deepEqual(
        t2.json.items.map((i: Loose) => i._service.change.id),
        payload.changes.map((c: Loose) => c.id),
        "the payload carries the filtered feed's items of its release, in feed order",
      );
      assert.equal((await feed.call("GET", "/feed.json?release=t2")).status, 400);

      const again = await feed.call("POST", "/publish", { regime: "fixture", tag: "t2" });
      assert.equal(again.status, 200);
      assert.deepEqual(again.json.deliveries, []);
      assert.deepEqual(again.json.attempts, []);
    });

    test("a failing receiver is retried on the schedule until exhausted, across kill -9 and restarts", async () => {
      // A third release (the first revision again), so there is something new to owe.
      repo.commitRevision(1);
      const built = acquis([
        "build",
        "fixture",
        "--root",
        repo.root,
        "--sources",
        FIXTURE_SOURCES,
        "--tag",
        "t3",
      ]);
      assert.equal(built.status, 0, built.stderr);
      // The build blocked this process for seconds: let fetch see the idle connections the service closed
      // meanwhile before it picks one for the next call.
      await new Promise((ok) => setTimeout(ok, 100));
      const sub = await feed.call("POST", "/subscriptions", {
        id: "flaky",
        endpoint: bad.url,
        secret: "s-secret-of-at-least-24-bytes",
        filter: {},
      });
      assert.equal(sub.status, 201);
      const pub = await feed.call("POST", "/publish", { regime: "fixture", tag: "t3" });
      const mine = pub.json.attempts.find((a: Loose) => a.subscription === "flaky");
      assert.equal(mine.outcome, "failed");
      assert.equal(mine.status, 503);
      assert.equal(mine.retry_at, later(T0, 60));
      let at = T0;
      for (const [n, wait] of [
        [2, 60],
        [3, 300],
        [4, 1800],
        [5, 7200],
      ] as const) {
        await kill9(feed);
        at = later(at, wait);
        feed = await startFeed(repo.root, store, at);
        const early = await feed.call("POST", "/deliveries/retry");
        const attempt = early.json.attempts.find((a: Loose) => a.subscription === "flaky");
        assert.equal(attempt?.attempt, n, `attempt ${n} at ${at}`);
        assert.equal(attempt.retry_at, n < 5 ? later(at, [60, 300, 1800, 7200][n - 1] as number) : null);
      }
      const d = (await feed.call("GET", "/deliveries")).json.deliveries.find(
        (x: Loose) => x.subscription === "flaky",
      );
      assert.equal(d.state, "exhausted");
      assert.equal(d.attempts, 5);
      assert.equal(d.next_attempt_at, null);
      const log = (await feed.call("GET", "/log")).json.attempts.filter(
        (a: Loose) => a.subscription === "flaky",
      );
      assert.equal(log.length, 5);
      for (const a of log)
        for (const k of [
          "at",
          "attempt",
          "delivery",
          "subscription",
          "endpoint",
          "outcome",
          "status",
          "error",
          "retry_at",
        ])
          assert.ok(k in a, k);
      assert.equal(
        (await feed.call("POST", "/deliveries/retry")).json.attempts.filter(
          (a: Loose) => a.subscription === "flaky",
        ).length,
        0,
        "nothing after the fifth",
      );
      assert.ok(
        (await feed.call("GET", "/subscriptions")).json.subscriptions.some((s: Loose) => s.id === "sub-0001"),
        "acknowledged subscriptions survived kill -9",
      );
    });

    test("feeds and the manifest route", async () => {
      const all = await feed.call("GET", "/feed.json");
      assert.equal(all.status, 200);
      assert.ok(all.json.items.length > 0);
      const narrow = await feed.call("GET", "/feed.json?entity_type=manufacturer&regime=fixture");
      assert.ok(narrow.json.items.length > 0 && narrow.json.items.length < all.json.items.length);
      assert.deepEqual(narrow.json._service.filter.entity_type, ["manufacturer"]);
      const item = narrow.json.items[0];
      const manifest = await fetch(item.url.split("#")[0]);
      assert.equal(manifest.status, 200, "an item's url resolves");
      const bytes = Buffer.from(await manifest.arrayBuffer());
      assert.ok(
        bytes.equals(
          readFileSync(
            join(
              repo.root,
              "regimes",
              "fixture",
              "releases",
              item._service.release.tag,
              `${item._service.release.tag}.diff.json`,
            ),
          ),
        ),
        "byte for byte",
      );
      const rss = await feed.call("GET", "/feed.xml?jurisdictions=EU");
      assert.match(rss.text, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<rss version="2\.0"/u);
      assert.equal((await feed.call("GET", "/feed.json?sector=energy")).status, 400);
    });

    test("the feeds page: next_url and RSS rel=next walk every item once, with cursors that are item ids", async () => {
      const whole = (await feed.call("GET", "/feed.json?limit=1000")).json;
      assert.equal(whole.next_url, undefined, "one page holds the fixture's feed");
      const ids: string[] = [];
      let url: string | undefined = "/feed.json?regime=fixture&limit=3";
      while (url) {
        const page: Loose = (await feed.call("GET", url)).json;
        assert.ok(page.items.length <= 3);
        ids.push(...page.items.map((i: Loose) => i.id));
        url = page.next_url ? new URL(page.next_url).pathname + new URL(page.next_url).search : undefined;
        if (url) assert.match(url, /regime=fixture.*after=.*limit=3/u, "the next page keeps the filter");
      }
      assert.deepEqual(
        ids,
        whole.items.map((i: Loose) => i.id),
      );
      const second = await feed.call(
        "GET",
        `/feed.xml?limit=3&after=${encodeURIComponent(ids[2] as string)}`,
      );
      assert.match(second.text, /<atom:link href="[^"]*feed\.xml\?limit=3" rel="first"\/>/u);
      assert.match(second.text, /<atom:link href="[^"]*after=[^"]*" rel="next"\/>/u);
      assert.equal((await feed.call("GET", "/feed.json?limit=0")).status, 400);
      assert.equal((await feed.call("GET", "/feed.json?after=no-such-item")).status, 400);
    });

    test("Debian's python3-feedparser reads the RSS without complaint; offline items equal the server's", async () => {
      const rss = await feed.call("GET", "/feed.xml?regime=fixture");
      const py =
        "import feedparser,sys,json; d=feedparser.parse(sys.stdin.read()); print(json.dumps({'bozo': d.bozo, 'n': len(d.entries), 'guids': [e.id for e in d.entries]}))";
      const parsed = JSON.parse(
        execFileSync("/usr/bin/python3", ["-c", py], { input: rss.text, encoding: "utf8" }),
      );
      assert.equal(Number(parsed.bozo), 0, "bozo: feedparser found nothing malformed");
      assert.ok(parsed.n > 0);
      assert.ok(parsed.guids.every((g: string) => g.startsWith("service:fixture@")));
      const served = (await feed.call("GET", "/feed.json?entity_type=manufacturer")).json.items.filter(
        (i: Loose) => i._service.release.tag === "t2",
      );
      const offline = acquis([
        "feed",
        "fixture@t2",
        "--root",
        repo.root,
        "--filter",
        "entity_type=manufacturer",
        "--base-url",
        feed.url,
      ]);
      assert.equal(offline.status, 0, offline.stderr);
      assert.equal(
        JSON.stringify(JSON.parse(offline.stdout).items),
        JSON.stringify(served),
        "the offline items are the server's, byte for byte",
      );
    });

    test("every refusal of the contract", async () => {
      const err = async (method: string, path: string, body: unknown, status: number) => {
        const r = await feed.call(method, path, body);
        assert.equal(r.status, status, `${method} ${path} ${JSON.stringify(body)}: ${r.text}`);
        assert.equal(typeof r.json?.error, "string");
      };
      await err("POST", "/subscriptions", "[1]", 400);
      await err("POST", "/subscriptions", { secret: "s" }, 400);
      await err("POST", "/subscriptions", { endpoint: good.url }, 400);
      await err(
        "POST",
        "/subscriptions",
        { endpoint: good.url, secret: "s".repeat(24), filter: { sector: "x" } },
        400,
      );
      await err(
        "POST",
        "/subscriptions",
        { endpoint: "http://example.com/hook", secret: "s".repeat(24) },
        400,
      );
      await err("POST", "/subscriptions", { endpoint: "ftp://127.0.0.1/hook", secret: "s".repeat(24) }, 400);
      await err(
        "POST",
        "/subscriptions",
        { id: "unece-watch", endpoint: good.url, secret: "s".repeat(24) },
        409,
      );
      await err("DELETE", "/subscriptions/nobody", undefined, 404);
      await err("GET", "/nowhere", undefined, 404);
      await err("DELETE", "/feed.json", undefined, 404);
      await err("POST", "/publish", "{bad", 400);
      await err("POST", "/publish", { regime: "fixture" }, 400);
      await err("POST", "/publish", { regime: "fixture", tag: "t9" }, 404);
      const releases = join(repo.root, "regimes", "fixture", "releases");
      cpSync(join(releases, "t2"), join(releases, "t4"), { recursive: true });
      renameSync(join(releases, "t4", "t2.diff.json"), join(releases, "t4", "t4.diff.json"));
      await err("POST", "/publish", { regime: "fixture", tag: "t4" }, 409);
      rmSync(join(releases, "t4", "t4.diff.json"));
      await err("POST", "/publish", { regime: "fixture", tag: "t4" }, 422);
      rmSync(join(releases, "t4"), { recursive: true });
      // A diff manifest edited after the build no longer matches the digest release-meta.yaml declares.
      const manifestFile = join(releases, "t2", "t2.diff.json");
      const genuine = readFileSync(manifestFile);
      const forged = JSON.parse(genuine.toString("utf8"));
      const atom = forged.changes.find((c: Loose) => c.kind === "atom");
      atom.classification = atom.classification === "editorial" ? "substantive" : "editorial";
      writeFileSync(manifestFile, JSON.stringify(forged));
      try {
        const r = await feed.call("POST", "/publish", { regime: "fixture", tag: "t2" });
        assert.equal(r.status, 422, r.text);
        assert.match(r.json.error, /does not verify: .*t2\.diff\.json/u);
      } finally {
        writeFileSync(manifestFile, genuine);
      }
      const put = await fetch(`${feed.url}/subscriptions`, { method: "PUT" });
      assert.equal(put.status, 501);
      assert.equal((await fetch(`${feed.url}/feed.json`, { method: "HEAD" })).status, 501, "HEAD too");
      assert.match(put.headers.get("content-type") ?? "", /text\/html/u);
      const removed = await feed.call("DELETE", "/subscriptions/unece-watch");
      assert.deepEqual(removed.json, { removed: "unece-watch" });
    });
  });

describe("several feed services over one PostgreSQL store", () => {
  test("two processes' concurrent retry passes never attempt the same delivery twice", async () => {
    const repo = fixtureRepo();
    repo.commitRevision(1);
    assert.equal(
      acquis(["build", "fixture", "--root", repo.root, "--sources", FIXTURE_SOURCES, "--tag", "t1"]).status,
      0,
    );
    const url = await postgres.database(`concurrent_${process.pid}_${Date.now()}`);
    const failing = await receiver(() => 500);
    const T0 = "2026-05-01T08:00:00Z";
    const first = await startFeed(repo.root, url, T0);
    try {
      for (let i = 0; i < 12; i++) {
        assert.equal(
          (
            await first.call("POST", "/subscriptions", {
              id: `s${i}`,
              endpoint: failing.url,
              secret: `k${i}-secret-of-at-least-24-bytes`,
            })
          ).status,
          201,
        );
      }
      const pub = await first.call("POST", "/publish", { regime: "fixture", tag: "t1" });
      assert.equal(pub.json.deliveries.length, 12);
    } finally {
      await kill9(first);
    }
    const at = later(T0, 61);
    const [a, b] = await Promise.all([startFeed(repo.root, url, at), startFeed(repo.root, url, at)]);
    try {
      const [ra, rb] = await Promise.all([
        a.call("POST", "/deliveries/retry"),
        b.call("POST", "/deliveries/retry"),
      ]);
      const ids = [...ra.json.attempts, ...rb.json.attempts].map((x: Loose) => x.delivery);
      assert.equal(ids.length, 12, "every due delivery attempted once across both processes");
      assert.equal(new Set(ids).size, 12, "no delivery attempted twice");
      const second = (await a.call("GET", "/log")).json.attempts.filter((x: Loose) => x.attempt === 2);
      assert.equal(second.length, 12);
    } finally {
      await Promise.all([kill9(a), kill9(b)]);
      failing.server.close();
    }
  });
});

describe("sending is safe", () => {
  test("non-public addresses are forbidden off loopback, IPv4-mapped IPv6 included", () => {
    for (const a of [
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "127.0.0.1",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
    ]) {
      assert.notEqual(addressRefusal(a, false), null, a);
    }
    for (const a of ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:93.184.216.34"])
      assert.equal(addressRefusal(a, false), null, a);
  });

  test("a redirect is not followed: the attempt fails with the 3xx and the target is never contacted", async () => {
    let reached = 0;
    const target = createServer((_req, res) => {
      reached++;
      res.writeHead(200).end();
    });
    await new Promise<void>((ok) => target.listen(0, "127.0.0.1", ok));
    const redirecting = createServer((_req, res) => {
      res
        .writeHead(302, { location: `http://127.0.0.1:${(target.address() as { port: number }).port}/` })
        .end();
    });
    await new Promise<void>((ok) => redirecting.listen(0, "127.0.0.1", ok));
    try {
      const r = await send(
        `http://127.0.0.1:${(redirecting.address() as { port: number }).port}/hook`,
        { "content-type": "application/json" },
        "{}",
        true,
      );
      assert.equal(r.status, 302);
      assert.equal(reached, 0);
    } finally {
      target.close();
      redirecting.close();
    }
  });

  test("an endpoint resolving to a private address is refused when sending, without a connection", async () => {
    const r = await send("https://10.0.0.1/hook", { "content-type": "application/json" }, "{}");
    assert.equal(r.status, null);
    assert.match(r.error ?? "", /non-public/u);
  });
});
