/**
 * Security suite, the serving API (docs/security.md, findings 4, 6, 7, 8, 10, 13): each test attacks
 * the real `acquis serve` process over real sockets, as the review did.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { acquis } from "../helpers/cli.ts";
import { type FixtureRepo, fixtureWithReleases } from "../helpers/fixture-repo.ts";
import { EU_SERVE_ARGS, type Server, startServer } from "../helpers/server.ts";

const TOKEN = "a-token-of-the-deployment";
/** A second credential with a budget of 3 a minute, spent only by the budget test. */
const SMALL = "a-token-with-a-small-budget";
const env = { COSIGN_PASSWORD: "pw" };

function policy(extra = ""): string {
  const file = join(mkdtempSync(join(tmpdir(), "acquis-policy-")), "serving.yaml");
  const sha = (t: string) => createHash("sha256").update(t).digest("hex");
  writeFileSync(
    file,
    `anonymous: { allowed: false }\ncredentials: [{ name: ops, sha256: "${sha(TOKEN)}", per_minute: 600 }, { name: small, sha256: "${sha(SMALL)}", per_minute: 3 }]\nshutdown: { drain_seconds: 5 }\n${extra}`,
  );
  return file;
}

/** Raw HTTP/1.1 over one socket: what a hostile client sends, byte for byte. */
function raw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((ok, fail) => {
    const s = connect(Number(port), hostname.replace(/^\[|\]$/gu, ""), () => s.write(bytes));
    let got = "";
    s.on("data", (d) => (got += d));
    s.on("close", () => ok(got));
    s.on("error", fail);
  });
}

describe("security: the serving API", () => {
  let repo: FixtureRepo;
  let server: Server;
  const auth = { authorization: `Bearer ${TOKEN}` };
  before(async () => {
    repo = fixtureWithReleases();
    server = await startServer(
      ["--release", "fixture@t2", "--root", repo.root, "--config", policy(), "--as-of", "2102-01-01"],
      env,
    );
    await server.ready();
  });
  after(() => server.stop());

  test("finding 4: a query longer than the contract's bound is refused, naming the field", async () => {
    const r = await server.post("/v1/answer", { query: "Annex 3 ".repeat(6600) }, auth);
    assert.equal(r.status, 400);
    const body = (await r.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, "invalid_request");
    assert.match(body.error.message, /query: must NOT have more than 2000 characters/u);
  });

  test("finding 7: a lone surrogate in a query is a 400, never a 500", async () => {
    for (const body of ['{"query": "breach \\ud800 notification"}', '{"query": "x", "as_of": "\\udc00"}']) {
      const r = await server.post("/v1/answer", body, auth);
      assert.equal(r.status, 400, body);
      const e = (await r.json()) as { error: { code: string; message: string } };
      assert.equal(e.error.code, "invalid_request");
      assert.match(e.error.message, /not well-formed Unicode/u);
    }
  });

  test("finding 13: 2026-02-30 is not a date", async () => {
    const r = await server.post("/v1/unit", { eid: "art_1", as_of: "2026-02-30" }, auth);
    assert.equal(r.status, 400);
    assert.match(((await r.json()) as { error: { message: string } }).error.message, /as_of/u);
  });

  test("finding 13: the auth scheme is case-insensitive; probes spend no budget; wrong tokens are limited", async () => {
    const s4 = await startServer(
      ["--release", "fixture@t2", "--root", repo.root, "--config", policy("probes_require_auth: true\n")],
      env,
    );
    try {
      const small = { authorization: `Bearer ${SMALL}` };
      for (let i = 0; i < 400; i++) {
        if ((await fetch(`${s4.url}/readyz`, { headers: auth })).status === 200) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      // per_minute is 3 for SMALL and probes need a token here: five probes, then three calls still pass.
      for (let i = 0; i < 5; i++)
        assert.equal((await fetch(`${s4.url}/healthz`, { headers: small })).status, 200);
      for (const scheme of ["bearer", "BEARER", "Bearer"]) {
        const r = await s4.post("/v1/unit", { eid: "art_1" }, { authorization: `${scheme} ${SMALL}` });
        assert.equal(r.status, 200, scheme);
      }
      assert.equal(
        (await s4.post("/v1/unit", { eid: "art_1" }, small)).status,
        429,
        "the fourth call is over budget",
      );
      let limited = 0;
      for (let i = 0; i < 25; i++) {
        const r = await s4.post("/v1/unit", { eid: "art_1" }, { authorization: `Bearer wrong-${i}` });
        if (r.status === 429) limited++;
        else assert.equal(r.status, 401);
      }
      assert.equal(limited, 5, "guessing is cut off after 20 rejected tokens a minute");
    } finally {
      await s4.stop();
    }
  });

  test("finding 13: 400 and 431 refusals made below the router are in the documented error shape", async () => {
    const big = await raw(
      server.url,
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20000)}\r\n\r\n`,
    );
    assert.match(big, /^HTTP\/1\.1 431 /u);
    assert.deepEqual(Object.keys(JSON.parse(big.slice(big.indexOf("\r\n\r\n") + 4)).error), [
      "code",
      "message",
      "request_id",
    ]);
    const bad = await raw(server.url, "GARBAGE\r\n\r\n");
    assert.match(bad, /^HTTP\/1\.1 400 /u);
    assert.equal(JSON.parse(bad.slice(bad.indexOf("\r\n\r\n") + 4)).error.code, "invalid_request");
  });

  test("finding 6: a client trickling its headers is cut off with 408", async () => {
    const s2 = await startServer(
      [
        "--release",
        "fixture@t2",
        "--root",
        repo.root,
        "--config",
        policy("timeouts: { headers_seconds: 1, request_seconds: 2 }\n"),
      ],
      env,
    );
    try {
      const { hostname, port } = new URL(s2.url);
      const got = await new Promise<string>((ok, fail) => {
        const sock = connect(Number(port), hostname, () =>
          sock.write("GET /healthz HTTP/1.1\r\nHost: x\r\n"),
        );
        let out = "";
        // One header byte every 200 ms, for ever: only the server's limit ends this.
        const drip = setInterval(() => sock.writable && sock.write("X"), 200);
        sock.on("data", (d) => (out += d));
        sock.on("close", () => {
          clearInterval(drip);
          ok(out);
        });
        sock.on("error", (e) => {
          clearInterval(drip);
          fail(e);
        });
      });
      assert.match(got, /^HTTP\/1\.1 408 /u);
    } finally {
      await s2.stop();
    }
  });

  describe("a refused release", () => {
    let refused: Server;
    let dir: string;
    before(async () => {
      const keys = mkdtempSync(join(tmpdir(), "acquis-keys-"));
      assert.equal(acquis(["keygen", join(keys, "k")], { env }).status, 0);
      dir = join(mkdtempSync(join(tmpdir(), "acquis-secret-path-")), "t2");
      cpSync(join(repo.root, "regimes", "fixture", "releases", "t2"), dir, { recursive: true });
      for (const f of readdirSync(dir)) if (f.endsWith(".sigstore.json")) rmSync(join(dir, f));
      refused = await startServer(
        ["--path", dir, "--root", repo.root, "--config", policy(), "--key", join(keys, "k.pub")],
        env,
      );
      for (let i = 0; i < 200; i++) {
        const r = (await (await fetch(`${refused.url}/readyz`)).json()) as { error: { message: string } };
        if (/refused/u.test(r.error.message)) break;
        await new Promise((res) => setTimeout(res, 50));
      }
    });
    after(() => refused.stop());

    test("finding 10: a percent-encoded path does not skip the readiness gate", async () => {
      for (const path of ["/%761/unit", "/v%31/unit", "/%76%31/unit"]) {
        const r = await refused.post(path, { eid: "art_1" }, auth);
        assert.equal(r.status, 503, path);
        assert.equal(((await r.json()) as { error: { code: string } }).error.code, "not_ready");
      }
    });

    test("finding 13: /readyz names the failing check but no absolute server path", async () => {
      const text = await (await fetch(`${refused.url}/readyz`)).text();
      assert.match(text, /signature/u);
      assert.doesNotMatch(text, /acquis-secret-path-|\/tmp\//u);
      assert.doesNotMatch(text, new RegExp(repo.root.replaceAll("/", "\\/"), "u"));
    });
  });

  test("finding 8: SIGTERM drains: a request on an open connection gets 503 with Retry-After, then the process exits", async () => {
    const s3 = await startServer(
      ["--release", "fixture@t2", "--root", repo.root, "--config", policy(), "--as-of", "2102-01-01"],
      env,
    );
    await s3.ready();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = () =>
      new Promise<{ status: number; retryAfter: string | undefined; body: string }>((ok, fail) => {
        const u = new URL(`${s3.url}/v1/unit`);
        const req = request(
          {
            host: u.hostname,
            port: u.port,
            path: u.pathname,
            method: "POST",
            agent,
            headers: { ...auth, "content-type": "application/json" },
          },
          (res) => {
            let body = "";
            res.on("data", (d) => (body += d));
            res.on("end", () =>
              ok({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"] as string, body }),
            );
          },
        );
        req.on("error", fail);
        req.end(JSON.stringify({ eid: "art_1" }));
      });
    assert.equal((await call()).status, 200, "the connection is open and kept alive");
    const exited = new Promise<number | null>((ok) => s3.proc.once("exit", ok));
    s3.proc.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    const during = await call();
    assert.equal(during.status, 503);
    assert.equal(during.retryAfter, "5");
    assert.equal(JSON.parse(during.body).error.code, "not_ready");
    agent.destroy();
    assert.equal(await exited, 0);
  });
});

describe("security: the serving API under a CPU flood (eu release)", () => {
  let eu: Server;
  before(async () => {
    eu = await startServer(EU_SERVE_ARGS);
    await eu.ready(120_000);
  });
  after(() => eu.stop());

  test("finding 4: six queries of 2000 characters of citation tokens at once, and the probes still answer", async () => {
    const flood = Array.from({ length: 300 }, (_, i) => `Annex ${(i % 20) + 1}`)
      .join(" ")
      .slice(0, 2000);
    const probes: Promise<number>[] = [];
    const answers = Array.from({ length: 6 }, () =>
      eu.post("/v1/answer", { query: flood }).then((r) => r.status),
    );
    for (let i = 0; i < 6; i++) {
      probes.push(fetch(`${eu.url}/healthz`).then((r) => r.status));
      probes.push(fetch(`${eu.url}/readyz`).then((r) => r.status));
    }
    assert.deepEqual(await Promise.all(answers), [200, 200, 200, 200, 200, 200]);
    assert.ok((await Promise.all(probes)).every((s) => s === 200));
    // One character more is refused before any analysis.
    assert.equal((await eu.post("/v1/answer", { query: `${flood}x`.padEnd(2001, "x") })).status, 400);
  });
});
