/**
 * Signing and verification on the fixture regime, with fresh keys and a local transparency log:
 * the chain verifies, a second implementation (@sigstore/verify) and openssl accept our signatures,
 * and every row of the tamper matrix is refused naming the right check.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { createHash, type KeyObject } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { bundleFromJSON } from "@sigstore/bundle";
import { toSignedEntity, Verifier } from "@sigstore/verify";
import { create as createTar } from "tar";
import { keyId, readPublicKey } from "../../src/trust/keys.ts";
import { type TrustOptions, VerificationError, verifyRelease } from "../../src/trust/verify.ts";
import { acquis, BIN } from "../helpers/cli.ts";
import { type FixtureRepo, fixtureRepo, fixtureWithReleases } from "../helpers/fixture-repo.ts";
import { startServer } from "../helpers/server.ts";

const PASSWORD = "correct horse";
/** The project's policy (anonymous allowed): the fixture checkout has none, and the default refuses anonymous callers. */
const POLICY = join(import.meta.dirname, "..", "..", "config", "serving.yaml");
const env = { COSIGN_PASSWORD: PASSWORD };

function keypair(dir: string, name: string): { pub: string; key: string; publicKey: KeyObject } {
  const prefix = join(dir, name);
  const r = acquis(["keygen", prefix], { env });
  assert.equal(r.status, 0, r.stderr);
  return {
    pub: `${prefix}.pub`,
    key: `${prefix}.key`,
    publicKey: readPublicKey(readFileSync(`${prefix}.pub`, "utf8")),
  };
}

function refusedBy(check: string, f: () => unknown): void {
  assert.throws(
    f,
    (e: unknown) => e instanceof VerificationError && e.check === check,
    `refused by ${check}`,
  );
}

describe("signed releases", () => {
  let repo: FixtureRepo;
  let keys: string;
  let signer: ReturnType<typeof keypair>;
  let other: ReturnType<typeof keypair>;
  let logDir: string;
  let logKey: KeyObject;
  let t2: string;
  const trust = (over: Partial<TrustOptions> = {}): TrustOptions => ({
    root: repo.root,
    keys: [signer.publicKey],
    roster: [],
    logKeys: [logKey],
    skip: false,
    ...over,
  });
  /** A copy of a release directory (and its predecessor beside it), for tampering. */
  const copyOf = (tag: string) => {
    const base = join(mkdtempSync(join(tmpdir(), "acquis-tamper-")), "releases");
    cpSync(join(repo.root, "regimes", "fixture", "releases"), base, { recursive: true });
    return join(base, tag);
  };
  const flip = (file: string, at?: number) => {
    const b = readFileSync(file);
    const i = at ?? Math.floor(b.length / 2);
    b[i] = (b[i] as number) ^ 0x01;
    writeFileSync(file, b);
  };

  before(() => {
    repo = fixtureWithReleases();
    keys = mkdtempSync(join(tmpdir(), "acquis-keys-"));
    signer = keypair(keys, "release");
    other = keypair(keys, "stranger");
    logDir = join(keys, "log");
    for (const tag of ["t1", "t2"]) {
      const r = acquis(
        ["sign", `fixture@${tag}`, "--key", signer.key, "--log", logDir, "--root", repo.root],
        { env },
      );
      assert.equal(r.status, 0, r.stderr);
    }
    logKey = readPublicKey(readFileSync(join(logDir, "log.pub"), "utf8"));
    t2 = join(repo.root, "regimes", "fixture", "releases", "t2");
  });

  test("a signed release verifies every check, naming the signer", () => {
    const { verification } = verifyRelease(t2, trust());
    assert.equal(verification.mode, "signed");
    assert.deepEqual(verification.checks, [
      "signature",
      "transparency-log",
      "digests",
      "provenance",
      "chain",
    ]);
    assert.equal(verification.key_id, keyId(signer.publicKey));
  });

  test("the private key is in cosign's encrypted format and needs the password", () => {
    assert.match(readFileSync(signer.key, "utf8"), /^-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----/u);
    const wrong = acquis(["sign", "fixture@t1", "--key", signer.key, "--root", repo.root], {
      env: { COSIGN_PASSWORD: "nope" },
    });
    assert.notEqual(wrong.status, 0);
    assert.match(wrong.stderr, /COSIGN_PASSWORD/u);
  });

  test("openssl verifies the raw signature over release-meta.yaml", () => {
    const bundle = JSON.parse(readFileSync(join(t2, "release-meta.yaml.sigstore.json"), "utf8"));
    const sig = join(keys, "sig.der");
    writeFileSync(sig, Buffer.from(bundle.messageSignature.signature, "base64"));
    const out = execFileSync(
      "openssl",
      ["dgst", "-sha256", "-verify", signer.pub, "-signature", sig, join(t2, "release-meta.yaml")],
      { encoding: "utf8" },
    );
    assert.match(out, /Verified OK/u);
  });

  test("@sigstore/verify, a second implementation, accepts the bundle and its log entry", () => {
    const bundle = bundleFromJSON(
      JSON.parse(readFileSync(join(t2, "release-meta.yaml.sigstore.json"), "utf8")),
    );
    const entity = toSignedEntity(bundle, readFileSync(join(t2, "release-meta.yaml")));
    const logID = createHash("sha256")
      .update(logKey.export({ type: "spki", format: "der" }))
      .digest();
    const verifier = new Verifier(
      {
        certificateAuthorities: [],
        timestampAuthorities: [],
        ctlogs: [],
        tlogs: [
          {
            logID,
            baseURL: "https://log.acquis.invalid",
            publicKey: logKey,
            validFor: { start: new Date(0), end: new Date(8.64e15) },
          },
        ],
        publicKey: (hint: string) => {
          assert.equal(hint, keyId(signer.publicKey));
          return { publicKey: signer.publicKey, validFor: () => true };
        },
      },
      { tlogThreshold: 1, ctlogThreshold: 0, timestampThreshold: 1 },
    );
    verifier.verify(entity);
  });

  describe("the tamper matrix", () => {
    test("a flipped byte in any artifact: digests", () => {
      for (const name of [
        "corpus.json",
        "graph.json",
        "index.json",
        "atoms.json",
        "obligations.json",
        "quality.json",
        "t2.diff.json",
      ]) {
        const dir = copyOf("t2");
        flip(join(dir, name));
        refusedBy("digests", () => verifyRelease(dir, trust()));
      }
    });
    test("a flipped byte in provenance.json: digests (its DSSE signature covers it too)", () => {
      const dir = copyOf("t2");
      flip(join(dir, "provenance.json"));
      assert.throws(
        () => verifyRelease(dir, trust()),
        (e: unknown) => e instanceof VerificationError && ["digests", "provenance"].includes(e.check),
      );
    });
    test("a flipped byte in release-meta.yaml: signature", () => {
      const dir = copyOf("t2");
      const meta = join(dir, "release-meta.yaml");
      writeFileSync(meta, readFileSync(meta, "utf8").replace("schema_version", "schema_versioN"));
      refusedBy("signature", () => verifyRelease(dir, trust()));
    });
    test("a flipped byte in the signature: signature", () => {
      const dir = copyOf("t2");
      const file = join(dir, "release-meta.yaml.sigstore.json");
      const b = JSON.parse(readFileSync(file, "utf8"));
      const sig = Buffer.from(b.messageSignature.signature, "base64");
      sig[sig.length - 2] = (sig[sig.length - 2] as number) ^ 0x01;
      b.messageSignature.signature = sig.toString("base64");
      writeFileSync(file, JSON.stringify(b));
      assert.throws(
        () => verifyRelease(dir, trust()),
        (e: unknown) => e instanceof VerificationError && ["signature", "transparency-log"].includes(e.check),
      );
      refusedBy("signature", () => verifyRelease(dir, trust({ logKeys: [] })));
    });
    test("a flipped byte in the bundle's log entry: transparency-log", () => {
      for (const field of ["signedEntryTimestamp", "rootHash", "logIndex"] as const) {
        const dir = copyOf("t2");
        const file = join(dir, "release-meta.yaml.sigstore.json");
        const b = JSON.parse(readFileSync(file, "utf8"));
        const entry = b.verificationMaterial.tlogEntries[0];
        if (field === "signedEntryTimestamp")
          entry.inclusionPromise.signedEntryTimestamp = `A${entry.inclusionPromise.signedEntryTimestamp.slice(1)}`;
        if (field === "rootHash")
          entry.inclusionProof.rootHash = `A${entry.inclusionProof.rootHash.slice(1)}`;
        if (field === "logIndex") entry.logIndex = String(Number(entry.logIndex) + 1);
        writeFileSync(file, JSON.stringify(b));
        refusedBy("transparency-log", () => verifyRelease(dir, trust()));
      }
    });
    test("a changed predecessor: chain", () => {
      const dir = copyOf("t2");
      const prev = join(dir, "..", "t1", "release-meta.yaml");
      writeFileSync(prev, `${readFileSync(prev, "utf8")}# edited\n`);
      refusedBy("chain", () => verifyRelease(dir, trust()));
    });
    test("signed with an unknown key: signature", () => {
      refusedBy("signature", () => verifyRelease(t2, trust({ keys: [other.publicKey] })));
    });
    test("a revoked key in the roster: signature", () => {
      const roster = [
        {
          id: "release",
          key: signer.publicKey,
          valid_from: null,
          valid_until: null,
          revoked: { at: "2026-01-01", reason: "compromised" },
        },
      ];
      assert.throws(
        () => verifyRelease(t2, trust({ keys: [], roster })),
        (e: unknown) =>
          e instanceof VerificationError && e.check === "signature" && /revoked/u.test(e.message),
      );
    });
    test("an expired key: signature", () => {
      const roster = [
        {
          id: "release",
          key: signer.publicKey,
          valid_from: "2000-01-01",
          valid_until: "2001-01-01",
          revoked: null,
        },
      ];
      assert.throws(
        () => verifyRelease(t2, trust({ keys: [], roster })),
        (e: unknown) =>
          e instanceof VerificationError && e.check === "signature" && /expired/u.test(e.message),
      );
      const valid = [
        { id: "release", key: signer.publicKey, valid_from: "2000-01-01", valid_until: null, revoked: null },
      ];
      assert.equal(verifyRelease(t2, trust({ keys: [], roster: valid })).verification.key_id, "release");
    });
    test("the wrong log key: transparency-log", () => {
      refusedBy("transparency-log", () => verifyRelease(t2, trust({ logKeys: [other.publicKey] })));
    });
    test("the signature deleted from a release of another commit: signature", () => {
      const dir = copyOf("t1");
      rmSync(join(dir, "release-meta.yaml.sigstore.json"));
      rmSync(join(dir, "provenance.sigstore.json"));
      // Another checkout whose history does not hold the release's commit.
      const elsewhere = fixtureRepo();
      writeFileSync(join(elsewhere.root, "OTHER"), "a different history\n");
      elsewhere.git("add", "-A");
      elsewhere.git("commit", "-q", "-m", "another history");
      elsewhere.commitRevision(1);
      refusedBy("signature", () => verifyRelease(dir, trust({ root: elsewhere.root })));
    });
    test("the server refuses a tampered signed release naming the check, and serves a good one stamped signed", async () => {
      const dir = copyOf("t2");
      flip(join(dir, "index.json"));
      // The release in `dir`, served with the signer's key and the log's key.
      const signedServer = (dir: string, ...more: string[]) =>
        startServer(
          [
            "--path",
            dir,
            "--root",
            repo.root,
            "--config",
            POLICY,
            "--key",
            signer.pub,
            "--log-key",
            join(logDir, "log.pub"),
            ...more,
          ],
          env,
        );
      const bad = await signedServer(dir);
      try {
        let message = "";
        for (let i = 0; i < 100 && !/refused/u.test(message); i++) {
          message = ((await (await fetch(`${bad.url}/readyz`)).json()) as { error: { message: string } })
            .error.message;
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.match(message, /digests: artifact index\.json/u);
        assert.equal((await bad.post("/v1/unit", { eid: "art_1" })).status, 503);
      } finally {
        await bad.stop();
      }
      const good = await signedServer(t2, "--as-of", "2102-01-01");
      try {
        await good.ready();
        const u = (await (await good.post("/v1/unit", { eid: "art_3__para_2" })).json()) as {
          verification: Record<string, unknown>;
        };
        assert.equal(u.verification.mode, "signed");
        assert.equal(u.verification.key_id, keyId(signer.publicKey));
        assert.deepEqual(u.verification.checks, [
          "signature",
          "transparency-log",
          "digests",
          "provenance",
          "chain",
        ]);
      } finally {
        await good.stop();
      }
    });
  });

  test("keygen, sign and serve with no key flags: this machine's key, outside the checkout, verifies what it signed", async () => {
    const home = mkdtempSync(join(tmpdir(), "acquis-home-"));
    const own = { ...env, XDG_CONFIG_HOME: home };
    const made = acquis(["keygen"], { env: own });
    assert.equal(made.status, 0, made.stderr);
    const key = join(home, "acquis", "keys", "release.key");
    assert.equal(statSync(key).mode & 0o777, 0o600, "the private key is readable by its owner only");
    const copy = mkdtempSync(join(tmpdir(), "acquis-own-"));
    const repo2 = fixtureWithReleases();
    const signed = acquis(["sign", "fixture@t2", "--root", repo2.root], { env: own });
    assert.equal(signed.status, 0, signed.stderr);
    cpSync(join(repo2.root, "regimes", "fixture", "releases", "t2"), copy, { recursive: true });
    const server = await startServer(
      ["--path", copy, "--root", repo2.root, "--config", POLICY, "--as-of", "2102-01-01"],
      own,
    );
    try {
      await server.ready();
      const u = (await (await server.post("/v1/unit", { eid: "art_3__para_2" })).json()) as {
        verification: Record<string, unknown>;
      };
      assert.equal(u.verification.mode, "signed");
      assert.equal(u.verification.status, "verified");
      assert.equal(
        u.verification.key_id,
        keyId(readPublicKey(readFileSync(join(home, "acquis", "keys", "release.pub"), "utf8"))),
      );
      assert.match(server.stderr(), /release loaded; ready/u);
    } finally {
      await server.stop();
    }
    const stranger = acquis(["sign", "fixture@t1", "--root", repo2.root], {
      env: { ...env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "acquis-nokey-")) },
    });
    assert.notEqual(stranger.status, 0);
    assert.match(stranger.stderr, /cannot read the key file \(make a pair with `acquis keygen`\)/u);
  });

  describe("pull and verify", () => {
    const installed = (root: string) => {
      const dir = join(root, "regimes", "fixture", "releases");
      return existsSync(dir) ? readdirSync(dir) : [];
    };
    const pullArgs = (source: string, root: string) => [
      "pull",
      source,
      "--root",
      root,
      "--key",
      signer.pub,
      "--log-key",
      join(logDir, "log.pub"),
    ];

    test("pull installs a verified release from a directory, a .tar.gz and an http URL", async () => {
      const fromDir = mkdtempSync(join(tmpdir(), "acquis-checkout-"));
      const r = acquis(pullArgs(t2, fromDir));
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /installed fixture@t2/u);
      assert.match(r.stdout, /signature, transparency-log, digests, provenance/u);
      assert.deepEqual(installed(fromDir), ["t2"]);
      assert.equal(
        readFileSync(join(fromDir, "regimes", "fixture", "releases", "t2", "corpus.json")).equals(
          readFileSync(join(t2, "corpus.json")),
        ),
        true,
      );

      const archive = join(mkdtempSync(join(tmpdir(), "acquis-archive-")), "fixture-t2.tar.gz");
      await createTar({ gzip: true, file: archive, cwd: join(t2, "..") }, ["t2"]);
      const fromTar = mkdtempSync(join(tmpdir(), "acquis-checkout-"));
      const rt = acquis(pullArgs(archive, fromTar));
      assert.equal(rt.status, 0, rt.stderr);
      assert.deepEqual(installed(fromTar), ["t2"]);

      const server = createServer((req, res) => {
        if (req.url !== "/fixture-t2.tar.gz") return res.writeHead(404).end();
        res.writeHead(200, { "content-type": "application/gzip" }).end(readFileSync(archive));
      });
      await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
      try {
        const fromUrl = mkdtempSync(join(tmpdir(), "acquis-checkout-"));
        const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/fixture-t2.tar.gz`;
        const ru = await new Promise<{ status: number | null; stdout: string; stderr: string }>((ok) => {
          const child = spawn(process.execPath, [BIN, ...pullArgs(url, fromUrl)], {
            env: { ...process.env, ...env },
          });
          let stdout = "";
          let stderr = "";
          child.stdout.on("data", (d) => (stdout += d));
          child.stderr.on("data", (d) => (stderr += d));
          child.on("exit", (status) => ok({ status, stdout, stderr }));
        });
        assert.equal(ru.status, 0, ru.stderr);
        assert.deepEqual(installed(fromUrl), ["t2"]);
      } finally {
        server.close();
      }
    });

    test("a release that fails verification is not installed, and nothing partial is left", () => {
      const dir = copyOf("t2");
      flip(join(dir, "atoms.json"));
      const checkout = mkdtempSync(join(tmpdir(), "acquis-checkout-"));
      const r = acquis(pullArgs(dir, checkout));
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /digests/u);
      assert.deepEqual(installed(checkout), []);
      const unknown = acquis(["pull", t2, "--root", checkout, "--key", other.pub]);
      assert.notEqual(unknown.status, 0);
      assert.match(unknown.stderr, /verification failed: signature/u);
      assert.deepEqual(installed(checkout), []);
    });

    test("acquis verify checks a stored answer against its release, and refuses an altered one", async () => {
      const server = await startServer(
        ["--path", t2, "--root", repo.root, "--config", POLICY, "--key", signer.pub, "--as-of", "2102-01-01"],
        env,
      );
      let body: string;
      try {
        await server.ready();
        body = await (
          await server.post("/v1/answer", {
            query: "notification of a serious incident within hours",
            entity_profile: "small-widget-maker",
          })
        ).text();
      } finally {
        await server.stop();
      }
      const file = join(mkdtempSync(join(tmpdir(), "acquis-answer-")), "answer.json");
      writeFileSync(file, JSON.stringify(JSON.parse(body), null, 2));
      const ok = acquis(["verify", file, "--root", repo.root, "--key", signer.pub]);
      assert.equal(ok.status, 0, ok.stderr + ok.stdout);
      assert.match(ok.stdout, /verified \(signed\)/u);
      assert.match(ok.stdout, /identical body/u);
      const altered = JSON.parse(body);
      altered.blocks[0].text = `${altered.blocks[0].text} (not in the law)`;
      writeFileSync(file, JSON.stringify(altered));
      const bad = acquis(["verify", file, "--root", repo.root, "--key", signer.pub]);
      assert.notEqual(bad.status, 0);
      assert.match(bad.stdout, /MISMATCH/u);
      const unknownRelease = JSON.parse(body);
      unknownRelease.corpus.release_meta_sha256 = "0".repeat(64);
      writeFileSync(file, JSON.stringify(unknownRelease));
      const none = acquis(["verify", file, "--root", repo.root, "--key", signer.pub]);
      assert.notEqual(none.status, 0);
      assert.match(none.stderr, /no release .* has release-meta\.yaml SHA-256 0{64}/u);
    });
  });
});
