/**
 * Security suite, fuzzing (docs/security.md): every POST route of the serving API and of the feed
 * service, and the query parameters of every GET route, with fast-check under a fixed seed, at least
 * 1,000 cases per route. Each case asserts: never a 500, an answer within 2 s, and a refusal always in
 * the documented error shape. Bodies include non-JSON, lone surrogates, prototype keys and huge values.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { type FeedProcess, startFeedProcess } from "../helpers/feed.ts";
import { type FixtureRepo, fixtureWithReleases } from "../helpers/fixture-repo.ts";
import { type Server, startServer } from "../helpers/server.ts";

const RUNS = 1000;
const SEED = 20261125;
const LIMIT_MS = 2000;

const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
/** Strings a hostile client sends: any code unit (lone surrogates too), long runs, citation-like tokens. */
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.string({ unit: fc.oneof(fc.constantFrom("a", " ", "Annex", "3", "Article", "(1)", "§"), surrogate) }),
  fc.constantFrom("__proto__", "constructor", "prototype", "toString", "2026-02-30", "9999-99-99", ""),
  fc.nat({ max: 70_000 }).map((n) => "Annex 3 ".repeat(Math.ceil(n / 8)).slice(0, n)),
);
const hostileValue = fc.oneof(hostileString, fc.jsonValue(), fc.constant(null), fc.integer(), fc.double());
/** A body as bytes: not JSON at all, JSON of another type, or an object with the route's keys and others. */
function bodies(keys: string[]) {
  return fc.oneof(
    hostileString,
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .record(Object.fromEntries(keys.map((k) => [k, hostileValue])), { requiredKeys: [] })
      .map((o) => JSON.stringify(o)),
    fc
      .dictionary(fc.oneof(hostileString, fc.constantFrom(...keys, "__proto__")), hostileValue)
      .map((o) => JSON.stringify(o)),
  );
}

async function timed(
  url: string,
  init: RequestInit,
): Promise<{ status: number; ms: number; text: string; headers: Headers }> {
  const t = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  return { status: res.status, ms: performance.now() - t, text, headers: res.headers };
}

describe("security: fuzzing the serving API", () => {
  let repo: FixtureRepo;
  let server: Server;
  before(async () => {
    repo = fixtureWithReleases();
    const policy = join(mkdtempSync(join(tmpdir(), "acquis-fuzz-")), "serving.yaml");
    writeFileSync(policy, "anonymous: { allowed: true, per_minute: 1000000 }\n");
    server = await startServer(["--release", "fixture@t2", "--root", repo.root, "--config", policy]);
    await server.ready();
  });
  after(() => server.stop());

  const ROUTES: [string, string[]][] = [
    ["/v1/answer", ["query", "as_of", "release", "matches", "mode", "filters", "entity_profile"]],
    ["/v1/unit", ["eid", "work_iri", "as_of", "release"]],
    ["/v1/atom", ["atom_id", "as_of", "release"]],
    ["/v1/obligations", ["entity_profile", "as_of", "release", "offset", "limit"]],
  ];
  for (const [route, keys] of ROUTES) {
    test(`POST ${route}: ${RUNS} hostile bodies, never a 500, always within 2 s, refusals in the error shape`, async () => {
      await fc.assert(
        fc.asyncProperty(bodies(keys), async (raw) => {
          const r = await timed(`${server.url}${route}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: raw,
          });
          assert.notEqual(r.status, 500, raw.slice(0, 200));
          assert.ok(r.ms < LIMIT_MS, `${r.ms.toFixed(0)} ms for ${raw.slice(0, 200)}`);
          const json = JSON.parse(r.text) as {
            error?: { code?: unknown; message?: unknown; request_id?: unknown };
          };
          if (r.status !== 200) {
            assert.equal(typeof json.error?.code, "string", raw.slice(0, 200));
            assert.equal(typeof json.error?.message, "string");
            assert.equal(json.error?.request_id, r.headers.get("x-request-id"));
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });
  }

  test(`GET routes: ${RUNS} hostile paths and query strings, never a 500, refusals in the error shape`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/healthz", "/readyz", "/openapi.json", "/%761/answer", "/v1/unit", "/nowhere"),
        fc.webQueryParameters(),
        fc.webSegment(),
        async (path, query, segment) => {
          const r = await timed(`${server.url}${path}${segment ? `/${segment}` : ""}?${query}`, {
            method: "GET",
          });
          assert.notEqual(r.status, 500, `${path} ${query}`);
          assert.ok(r.ms < LIMIT_MS);
          if (r.status >= 400)
            assert.equal(typeof (JSON.parse(r.text) as { error: { code: unknown } }).error.code, "string");
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });
});

describe("security: fuzzing the feed service", () => {
  let repo: FixtureRepo;
  let feed: FeedProcess;
  before(async () => {
    repo = fixtureWithReleases();
    feed = await startFeedProcess(repo.root, ["--worker-interval", "0"]);
  });
  after(() => feed.proc.kill("SIGTERM"));

  const ROUTES: [string, string[]][] = [
    ["/subscriptions", ["endpoint", "secret", "id", "name", "active", "filter"]],
    ["/publish", ["regime", "tag"]],
    ["/deliveries/retry", []],
  ];
  for (const [route, keys] of ROUTES) {
    test(`POST ${route}: ${RUNS} hostile bodies, never a 500, always within 2 s, refusals in the error shape`, async () => {
      await fc.assert(
        fc.asyncProperty(bodies(keys.length ? keys : ["x"]), async (raw) => {
          const r = await timed(`${feed.url}${route}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: raw,
          });
          assert.notEqual(r.status, 500, raw.slice(0, 200));
          assert.ok(r.ms < LIMIT_MS, `${r.ms.toFixed(0)} ms`);
          if (r.status >= 400)
            assert.equal(
              typeof (JSON.parse(r.text) as { error: unknown }).error,
              "string",
              raw.slice(0, 200),
            );
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });
  }

  test(`GET /feed.json and /feed.xml: ${RUNS} hostile query strings, never a 500`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/feed.json", "/feed.xml", "/subscriptions/", "/releases/fixture/"),
        fc.oneof(
          fc.webQueryParameters(),
          fc.constantFrom("__proto__=1", "constructor=x", "entity_type=%zz", "%zz=1", "regime=__proto__"),
        ),
        fc.webSegment(),
        async (path, query, segment) => {
          const r = await timed(`${feed.url}${path}${path.endsWith("/") ? segment : ""}?${query}`, {
            method: path === "/subscriptions/" ? "DELETE" : "GET",
          });
          assert.notEqual(r.status, 500, `${path} ${query}`);
          assert.ok(r.ms < LIMIT_MS);
          if (r.status >= 400 && r.status !== 501)
            assert.equal(
              typeof (JSON.parse(r.text) as { error: unknown }).error,
              "string",
              `${path}${segment} ${query}`,
            );
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
