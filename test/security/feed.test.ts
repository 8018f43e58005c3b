/**
 * Security suite, the feed service (docs/security.md, findings 3, 11, 12, 13, 16, 17): each test attacks
 * the real `acquis feed serve` process over HTTP as the review did.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { addressRefusal } from "../../src/feed/send.ts";
import { type FeedProcess, startFeedProcess } from "../helpers/feed.ts";
import { type FixtureRepo, fixtureWithReleases } from "../helpers/fixture-repo.ts";

const SECRET = "a-webhook-secret-of-32-bytes-len";

describe("security: the feed service", () => {
  let repo: FixtureRepo;
  let feed: FeedProcess;
  let dev: FeedProcess;
  const post = (base: string, path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  before(async () => {
    repo = fixtureWithReleases();
    feed = await startFeedProcess(repo.root);
    dev = await startFeedProcess(repo.root, ["--allow-loopback-endpoints"]);
  });
  after(() => {
    feed.proc.kill("SIGTERM");
    dev.proc.kill("SIGTERM");
  });

  test("finding 3: every encoding of a private address is refused, as a literal and once resolved", async () => {
    const hostile = [
      "127.0.0.1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
      "::ffff:0:a9fe:a9fe",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b::10.0.0.1",
      "2002:a9fe:a9fe::1",
      "2002:7f00:1::",
      "2001:0:4136:e378:8000:63bf:5601:fefe", // Teredo, client 169.254.1.1
      "169.254.169.254",
      "10.0.0.1",
      "0.0.0.0",
      "::",
      "fd00::1",
    ];
    for (const a of hostile) assert.notEqual(addressRefusal(a, false), null, a);
    for (const a of ["93.184.216.34", "::ffff:93.184.216.34", "64:ff9b::5db8:d822", "2606:4700::1"])
      assert.equal(addressRefusal(a, false), null, a);
    // Through the running service, written the ways a URL can spell them.
    for (const endpoint of [
      "https://[::ffff:127.0.0.1]/hook",
      "https://[::ffff:a9fe:a9fe]/hook",
      "https://[64:ff9b::a9fe:a9fe]/hook",
      "https://[2002:a9fe:a9fe::]/hook",
      "https://2130706433/hook",
      "https://0x7f.1/hook",
      "https://0177.0.0.1/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://localhost/hook",
      "http://127.0.0.1:9/hook",
    ]) {
      const r = await post(feed.url, "/subscriptions", { endpoint, secret: SECRET });
      assert.equal(r.status, 400, endpoint);
      assert.equal(typeof ((await r.json()) as { error: unknown }).error, "string");
    }
  });

  test("finding 11: a webhook secret with fewer than 24 bytes of key is refused, whsec_ included", async () => {
    for (const secret of ["whsec_", "whsec_AAAA", "short-secret"]) {
      const r = await post(dev.url, "/subscriptions", { endpoint: "http://127.0.0.1:9/hook", secret });
      assert.equal(r.status, 400, secret);
      assert.match(((await r.json()) as { error: string }).error, /at least 24 random bytes/u);
    }
    const ok = await post(dev.url, "/subscriptions", {
      endpoint: "http://127.0.0.1:9/hook",
      secret: `whsec_${Buffer.alloc(32, 7).toString("base64")}`,
    });
    assert.equal(ok.status, 201);
  });

  test("finding 12: a client cannot take an id of the minted form, so auto ids are never blocked", async () => {
    const taken = await post(dev.url, "/subscriptions", {
      id: "sub-0099",
      endpoint: "http://127.0.0.1:9/a",
      secret: SECRET,
    });
    assert.equal(taken.status, 400);
    for (let i = 0; i < 3; i++) {
      const r = await post(dev.url, "/subscriptions", { endpoint: "http://127.0.0.1:9/a", secret: SECRET });
      assert.equal(r.status, 201);
      assert.match(((await r.json()) as { subscription: { id: string } }).subscription.id, /^sub-\d{4}$/u);
    }
  });

  test("finding 13: __proto__, constructor and bad percent-encoding are 400s in the documented shape", async () => {
    for (const path of [
      "/feed.json?__proto__=x",
      "/feed.json?constructor=x",
      "/feed.xml?__proto__[polluted]=1",
      "/feed.json?entity_type=%zz",
    ]) {
      const r = await fetch(`${feed.url}${path}`);
      assert.ok(r.status === 400 || r.status === 200, `${path}: ${r.status}`);
      if (r.status === 400) assert.equal(typeof ((await r.json()) as { error: unknown }).error, "string");
    }
    const del = await fetch(`${feed.url}/subscriptions/%zz`, { method: "DELETE" });
    assert.equal(del.status, 400);
    assert.match(((await del.json()) as { error: string }).error, /percent-encoding/u);
    const big = await new Promise<string>((ok) => {
      const { hostname, port } = new URL(feed.url);
      const s = connect(Number(port), hostname, () =>
        s.write(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20000)}\r\n\r\n`),
      );
      let got = "";
      s.on("data", (d) => (got += d));
      s.on("close", () => ok(got));
    });
    assert.match(big, /^HTTP\/1\.1 431 /u);
    assert.equal(typeof JSON.parse(big.slice(big.indexOf("\r\n\r\n") + 4)).error, "string");
  });

  test("finding 16: the root document names the signature header, and its format apart", async () => {
    const root = (await (await fetch(`${feed.url}/`)).json()) as {
      signature: { header: string; format: string };
    };
    assert.equal(root.signature.header, "X-Service-Signature");
    assert.equal(root.signature.format, "sha256=<hex>");
  });

  test("finding 17: credentials in an endpoint URL are never echoed back", async () => {
    const endpoint = "http://alice:hunter2-password@127.0.0.1:9/hook";
    const r = await post(dev.url, "/subscriptions", { endpoint, secret: SECRET, id: "with-credentials" });
    assert.equal(r.status, 201);
    const created = await r.text();
    const listed = await (await fetch(`${dev.url}/subscriptions`)).text();
    for (const text of [created, listed]) {
      assert.doesNotMatch(text, /hunter2|alice/u);
      assert.match(text, /REDACTED@127\.0\.0\.1:9\/hook/u);
    }
  });
});
