/**
 * Security suite, releases (docs/security.md, findings 1, 2, 9 and 15): each test performs the attack
 * the review performed, against the real `acquis serve` and `acquis pull` processes.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { create as createTar } from "tar";
import { parse, stringify } from "yaml";
import { acquis } from "../helpers/cli.ts";
import { type FixtureRepo, fixtureWithReleases } from "../helpers/fixture-repo.ts";
import { startServer } from "../helpers/server.ts";

const POLICY = join(import.meta.dirname, "..", "..", "config", "serving.yaml");
const env = { COSIGN_PASSWORD: "pw" };
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/**
 * The forgery of finding 1: a unit's text altered, every digest in release-meta.yaml and the
 * provenance statement recomputed, the signature bundles deleted.
 */
function forge(dir: string): void {
  const corpus = join(dir, "corpus.json");
  writeFileSync(corpus, readFileSync(corpus, "utf8").replace(/shall/u, "may"));
  const metaFile = join(dir, "release-meta.yaml");
  const meta = parse(readFileSync(metaFile, "utf8")) as {
    artifacts: { name: string; sha256: string; size: number }[];
  };
  const provenance = JSON.parse(readFileSync(join(dir, "provenance.json"), "utf8")) as {
    subject: { name: string; digest: { sha256: string } }[];
  };
  for (const s of provenance.subject) s.digest.sha256 = sha(readFileSync(join(dir, s.name)));
  writeFileSync(join(dir, "provenance.json"), JSON.stringify(provenance));
  for (const a of meta.artifacts) {
    const b = readFileSync(join(dir, a.name));
    a.sha256 = sha(b);
    a.size = b.length;
  }
  writeFileSync(metaFile, stringify(meta));
  for (const f of readdirSync(dir)) if (f.endsWith(".sigstore.json")) rmSync(join(dir, f));
}

async function refusal(url: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const body = (await (await fetch(`${url}/readyz`)).json()) as { error?: { message: string } };
    if (body.error && /refused/u.test(body.error.message)) return body.error.message;
    await new Promise((r) => setTimeout(r, 50));
  }
  return "";
}

describe("security: releases", () => {
  let repo: FixtureRepo;
  let keys: string;
  let t2: string;
  const copyOf = (tag: string) => {
    const base = join(mkdtempSync(join(tmpdir(), "acquis-forge-")), "releases");
    cpSync(join(repo.root, "regimes", "fixture", "releases"), base, { recursive: true });
    return join(base, tag);
  };
  const installed = (root: string) => {
    const dir = join(root, "regimes", "fixture", "releases");
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  before(() => {
    repo = fixtureWithReleases();
    keys = mkdtempSync(join(tmpdir(), "acquis-keys-"));
    assert.equal(acquis(["keygen", join(keys, "release")], { env }).status, 0);
    for (const tag of ["t1", "t2"]) {
      const r = acquis(["sign", `fixture@${tag}`, "--key", join(keys, "release.key"), "--root", repo.root], {
        env,
      });
      assert.equal(r.status, 0, r.stderr);
    }
    t2 = join(repo.root, "regimes", "fixture", "releases", "t2");
  });

  describe("finding 1: a forged unsigned release", () => {
    test("serve --key refuses it, naming the missing signature", async () => {
      const dir = copyOf("t2");
      forge(dir);
      const s = await startServer(
        ["--path", dir, "--root", repo.root, "--config", POLICY, "--key", join(keys, "release.pub")],
        env,
      );
      try {
        assert.match(await refusal(s.url), /signature: release-meta\.yaml\.sigstore\.json is missing/u);
        assert.equal((await s.post("/v1/unit", { eid: "art_1" })).status, 503);
      } finally {
        await s.stop();
      }
    });

    test("pull refuses it with or without a key, and installs nothing", () => {
      const dir = copyOf("t2");
      forge(dir);
      for (const withKey of [true, false]) {
        const checkout = mkdtempSync(join(tmpdir(), "acquis-checkout-"));
        const r = acquis([
          "pull",
          dir,
          "--root",
          checkout,
          ...(withKey ? ["--key", join(keys, "release.pub")] : []),
        ]);
        assert.notEqual(r.status, 0);
        assert.match(r.stderr, /verification failed: signature: .*unsigned/u);
        assert.deepEqual(installed(checkout), []);
      }
    });

    test("without a key, an unsigned local build is served saying nothing was verified beyond digests", async () => {
      const dir = copyOf("t2");
      for (const f of readdirSync(dir)) if (f.endsWith(".sigstore.json")) rmSync(join(dir, f));
      const s = await startServer([
        "--path",
        dir,
        "--root",
        repo.root,
        "--config",
        POLICY,
        "--as-of",
        "2102-01-01",
      ]);
      try {
        await s.ready();
        const u = (await (await s.post("/v1/unit", { eid: "art_3__para_2" })).json()) as {
          verification: { status: string; mode: string; statement: string };
        };
        assert.equal(u.verification.status, "digests-only");
        assert.equal(u.verification.mode, "local-build");
        assert.match(u.verification.statement, /only the digests .* Nothing verified who built/u);
      } finally {
        await s.stop();
      }
    });
  });

  describe("finding 2: pull path traversal", () => {
    const pullSigned = (source: string, checkout: string) =>
      acquis(["pull", source, "--root", checkout, "--key", join(keys, "release.pub")]);

    test("a manifest naming a tag or regime with ../ or an absolute path is refused before any write", () => {
      for (const [field, value] of [
        ["tag", "../../../escaped"],
        ["tag", "/tmp/escaped"],
        ["regime", "../escaped"],
      ] as const) {
        const dir = copyOf("t2");
        const metaFile = join(dir, "release-meta.yaml");
        const meta = parse(readFileSync(metaFile, "utf8")) as Record<string, unknown>;
        meta[field] = value;
        writeFileSync(metaFile, stringify(meta));
        const checkout = mkdtempSync(join(tmpdir(), "acquis-checkout-"));
        const r = pullSigned(dir, checkout);
        assert.notEqual(r.status, 0);
        assert.match(r.stderr, new RegExp(`${field} .* is not a`, "u"));
        assert.deepEqual(readdirSync(checkout), [], "nothing written into the checkout");
        assert.equal(existsSync(join(checkout, "..", "escaped")), false);
      }
    });

    test("an artifact named ../x in the manifest is refused", () => {
      const dir = copyOf("t2");
      const metaFile = join(dir, "release-meta.yaml");
      const meta = parse(readFileSync(metaFile, "utf8")) as { artifacts: { name: string }[] };
      (meta.artifacts[0] as { name: string }).name = "../../x.json";
      writeFileSync(metaFile, stringify(meta));
      const r = pullSigned(dir, mkdtempSync(join(tmpdir(), "acquis-checkout-")));
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /artifact name "\.\.\/\.\.\/x\.json" must be a plain file name/u);
    });

    test("files the manifest does not declare are not copied", () => {
      const dir = copyOf("t2");
      writeFileSync(join(dir, "extra.sh"), "#!/bin/sh\necho pwned\n");
      const checkout = mkdtempSync(join(tmpdir(), "acquis-checkout-"));
      const r = pullSigned(dir, checkout);
      assert.equal(r.status, 0, r.stderr);
      const got = readdirSync(join(checkout, "regimes", "fixture", "releases", "t2"));
      assert.equal(got.includes("extra.sh"), false);
      assert.equal(got.includes("release-meta.yaml.sigstore.json"), true);
    });

    test("an archive with a ../ entry or a symbolic link is refused, and nothing is written outside", async () => {
      const staging = mkdtempSync(join(tmpdir(), "acquis-evil-"));
      cpSync(t2, join(staging, "t2"), { recursive: true });
      mkdirSync(join(staging, "t2", "sub"));
      symlinkSync("/etc/passwd", join(staging, "t2", "sub", "link"));
      const withLink = join(staging, "link.tar.gz");
      await createTar({ gzip: true, file: withLink, cwd: staging }, ["t2"]);
      const checkout = mkdtempSync(join(tmpdir(), "acquis-checkout-"));
      const r = pullSigned(withLink, checkout);
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /SymbolicLink entry/u);
      assert.deepEqual(readdirSync(checkout), []);

      // node-tar refuses to *write* ../ names, so the hostile archive is made with preservePaths.
      const dotdot = join(staging, "dotdot.tar.gz");
      writeFileSync(join(staging, "evil.txt"), "outside\n");
      await createTar({ gzip: true, file: dotdot, cwd: join(staging, "t2"), preservePaths: true }, [
        "release-meta.yaml",
        "../evil.txt",
      ]);
      const r2 = pullSigned(dotdot, checkout);
      assert.notEqual(r2.status, 0);
      assert.match(r2.stderr, /a name outside the archive|\.\./u);
      assert.deepEqual(readdirSync(checkout), []);
    });
  });

  test("finding 15: keygen writes outside the checkout by default, 0600, never into a tracked path, never over a key", () => {
    const config = mkdtempSync(join(tmpdir(), "acquis-xdg-"));
    const r = acquis(["keygen"], { env: { ...env, XDG_CONFIG_HOME: config }, cwd: repo.root });
    assert.equal(r.status, 0, r.stderr);
    const key = join(config, "acquis", "keys", "release.key");
    assert.equal(statSync(key).mode & 0o777, 0o600);
    assert.deepEqual(
      readdirSync(repo.root).filter((f) => f.endsWith(".key")),
      [],
      "nothing in the checkout",
    );
    const again = acquis(["keygen"], { env: { ...env, XDG_CONFIG_HOME: config } });
    assert.notEqual(again.status, 0);
    assert.match(again.stderr, /never overwrites a key/u);
    const inTree = acquis(["keygen", join(repo.root, "release")], { env });
    assert.notEqual(inTree.status, 0);
    assert.match(inTree.stderr, /inside the git work tree .* not ignored by git/u);
    assert.equal(existsSync(join(repo.root, "release.key")), false);
    // A path git ignores is allowed.
    const ignored = acquis(["keygen", join(repo.root, "regimes", "fixture", "releases", "k", "release")], {
      env,
    });
    assert.equal(ignored.status, 0, ignored.stderr);
  });

  describe("finding 9: pull size caps, streamed", () => {
    let server: Server;
    let base: string;
    let archive: Buffer;
    before(async () => {
      const file = join(mkdtempSync(join(tmpdir(), "acquis-archive-")), "t2.tar.gz");
      await createTar({ gzip: true, file, cwd: join(t2, "..") }, ["t2"]);
      archive = readFileSync(file);
      server = createServer((req, res) => {
        if (req.url === "/redirect") return res.writeHead(302, { location: "/t2.tar.gz" }).end();
        if (req.url === "/endless") {
          // No content-length, bytes without end: only a streamed cap stops this.
          res.writeHead(200, { "content-type": "application/gzip" });
          const chunk = Buffer.alloc(64 * 1024, 7);
          const pump = () => {
            while (res.write(chunk)) {}
            res.once("drain", pump);
          };
          req.on("close", () => res.destroy());
          return pump();
        }
        res.writeHead(200, { "content-type": "application/gzip" }).end(archive);
      });
      await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    after(() => server.close());

    test("a download larger than --max-bytes is refused, declared or streamed", async () => {
      const checkout = mkdtempSync(join(tmpdir(), "acquis-checkout-"));
      const declared = await runPull(`${base}/t2.tar.gz`, checkout, ["--max-bytes", "1000"]);
      assert.notEqual(declared.status, 0);
      assert.match(declared.stderr, /larger than the cap of 1000 bytes/u);
      const endless = await runPull(`${base}/endless`, checkout, ["--max-bytes", "5000000"]);
      assert.notEqual(endless.status, 0);
      assert.match(endless.stderr, /larger than the cap of 5000000 bytes/u);
      assert.deepEqual(readdirSync(checkout), []);
    });

    test("a redirect is not followed", async () => {
      const checkout = mkdtempSync(join(tmpdir(), "acquis-checkout-"));
      const r = await runPull(`${base}/redirect`, checkout);
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /HTTP 302 redirect refused/u);
    });

    test("an artifact larger on disk than the manifest declares is refused before it is read", () => {
      const dir = copyOf("t2");
      writeFileSync(join(dir, "graph.json"), Buffer.alloc(statSync(join(dir, "graph.json")).size + 10, 32));
      const r = acquis([
        "pull",
        dir,
        "--root",
        mkdtempSync(join(tmpdir(), "acquis-checkout-")),
        "--key",
        join(keys, "release.pub"),
      ]);
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /graph\.json is \d+ bytes, more than \d+ declared/u);
    });

    async function runPull(url: string, checkout: string, more: string[] = []) {
      const { spawn } = await import("node:child_process");
      const { BIN } = await import("../helpers/cli.ts");
      return new Promise<{ status: number | null; stderr: string }>((ok) => {
        const child = spawn(process.execPath, [
          BIN,
          "pull",
          url,
          "--root",
          checkout,
          "--key",
          join(keys, "release.pub"),
          ...more,
        ]);
        let stderr = "";
        child.stderr.on("data", (d) => (stderr += d));
        child.on("exit", (status) => ok({ status, stderr }));
      });
    }
  });
});
