/**
 * Release verification (src/trust/verify.ts) on hand-written releases: a signed release passes every
 * check; an altered byte, another key, a revoked or expired key, a missing signature where one is
 * required, a provenance that names another commit, or a predecessor that is not the one named, each
 * fails naming its check. (An unsigned build of the local checkout needs git; the process-level suites
 * cover it.)
 */
import assert from "node:assert/strict";
import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { sha256 } from "../../src/canon/compile.ts";
import { keyId } from "../../src/trust/keys.ts";
import { META_BUNDLE, signRelease } from "../../src/trust/sign.ts";
import { LocalLog } from "../../src/trust/tlog.ts";
import {
  parseRoster,
  type RosterKey,
  STATEMENTS,
  type TrustOptions,
  VerificationError,
  verifyRelease,
} from "../../src/trust/verify.ts";
import { writeReleaseDir } from "../helpers/release-dir.ts";

const tmp = mkdtempSync(join(tmpdir(), "acquis-verify-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const pair = () => {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { priv: privateKey, pub: createPublicKey(privateKey) };
};
const signer = pair();
const stranger = pair();
const trust = (over: Partial<TrustOptions> = {}): TrustOptions => ({
  root: tmp,
  keys: [],
  roster: [],
  logKeys: [],
  skip: false,
  ...over,
});
const rosterKey = (key: KeyObject, over: Partial<RosterKey> = {}): RosterKey => ({
  id: "release-2026",
  key,
  valid_from: null,
  valid_until: null,
  revoked: null,
  ...over,
});

let n = 0;
/** A fresh release folder (signed unless told), under the releases folder of its regime. */
function release(
  opts: {
    sign?: boolean;
    log?: LocalLog;
    tag?: string;
    provenanceCommit?: string;
    previous?: { tag: string; release_meta_sha256: string };
  } = {},
) {
  const dir = join(tmp, `r${n++}`, opts.tag ?? "2100.1");
  writeReleaseDir(dir, { tag: opts.tag, provenanceCommit: opts.provenanceCommit, previous: opts.previous });
  if (opts.sign !== false) signRelease(dir, signer.priv, opts.log ?? null);
  return dir;
}

/** The check a verification fails, and its message. */
function failure(dir: string, t: TrustOptions): [string, string] {
  try {
    verifyRelease(dir, t);
  } catch (e) {
    assert.ok(e instanceof VerificationError, String(e));
    return [e.check, e.message];
  }
  return ["passed", ""];
}

describe("verifying a release", () => {
  test("a signed release verifies with its key: signature, digests, provenance; the release is loaded", () => {
    const dir = release();
    const { release: r, verification } = verifyRelease(dir, trust({ keys: [signer.pub] }));
    assert.deepEqual(verification, {
      status: "verified",
      mode: "signed",
      checks: ["signature", "digests", "provenance"],
      statement: STATEMENTS.signed,
      key_id: keyId(signer.pub),
    });
    assert.equal(r.meta.tag, "2100.1");
    assert.ok(r.units.length > 10);
  });

  test("with log keys, the bundle's log entry is checked too", () => {
    const log = new LocalLog(join(tmp, "log"), "pw");
    const dir = release({ log });
    const { verification } = verifyRelease(dir, trust({ keys: [signer.pub], logKeys: [log.publicKey] }));
    assert.deepEqual(verification.checks, ["signature", "transparency-log", "digests", "provenance"]);
    assert.deepEqual(failure(release(), trust({ keys: [signer.pub], logKeys: [log.publicKey] })), [
      "transparency-log",
      "verification failed: transparency-log: the bundle carries no log entry",
    ]);
  });

  test("skipping verification loads even an altered release, and says nothing was checked", () => {
    const dir = release({ sign: false });
    appendFileSync(join(dir, "corpus.json"), " ");
    // `skip` is the --insecure-skip-verify option under test, not a skipped test.
    const { verification } = verifyRelease(dir, trust({ skip: true }));
    assert.deepEqual(verification, {
      status: "skipped",
      mode: "unverified",
      checks: [],
      statement: STATEMENTS.unverified,
    });
  });

  test("an altered artifact fails the digests; an altered manifest fails the signature", () => {
    const art = release();
    const size = readFileSync(join(art, "index.json")).length;
    appendFileSync(join(art, "index.json"), " ");
    assert.deepEqual(failure(art, trust({ keys: [signer.pub] })), [
      "digests",
      `verification failed: digests: artifact index.json does not match release-meta.yaml: expected ${size} bytes, found ${size + 1}`,
    ]);
    const same = release();
    const text = readFileSync(join(same, "corpus.json"), "utf8");
    writeFileSync(join(same, "corpus.json"), text.replace("widgets", "gadgets"));
    assert.match(
      failure(same, trust({ keys: [signer.pub] }))[1],
      /^verification failed: digests: artifact corpus\.json does not match release-meta\.yaml: expected sha256 [0-9a-f]{64} \(\d+ bytes\), found [0-9a-f]{64}/u,
    );
    const meta = release();
    appendFileSync(join(meta, "release-meta.yaml"), "# edited\n");
    assert.deepEqual(failure(meta, trust({ keys: [signer.pub] })), [
      "signature",
      "verification failed: signature: the bundle signs another release-meta.yaml (digest differs)",
    ]);
  });

  test("a signature by a key not accepted is refused, naming the bundle's hint", () => {
    assert.deepEqual(failure(release(), trust({ keys: [stranger.pub] })), [
      "signature",
      `verification failed: signature: the signature does not verify with any accepted key (hint ${keyId(signer.pub)})`,
    ]);
  });

  test("the roster accepts a key only unrevoked and valid when the release was signed", () => {
    const dir = release();
    assert.equal(
      verifyRelease(dir, trust({ roster: [rosterKey(signer.pub)] })).verification.key_id,
      "release-2026",
    );
    const refused = (over: Partial<RosterKey>) =>
      failure(dir, trust({ roster: [rosterKey(signer.pub, over)] }))[1];
    assert.equal(
      refused({ revoked: { at: "2026-02-01", reason: "lost" } }),
      "verification failed: signature: key release-2026 is revoked (2026-02-01: lost)",
    );
    assert.equal(
      refused({ valid_from: "2026-06-01" }),
      "verification failed: signature: key release-2026 is not valid before 2026-06-01; signed 2026-01-01T12:00:00Z",
    );
    assert.equal(
      refused({ valid_until: "2025-12-31" }),
      "verification failed: signature: key release-2026 expired 2025-12-31; signed 2026-01-01T12:00:00Z",
    );
  });

  test("an unsigned release is refused when keys are configured, or when it comes from elsewhere", () => {
    const dir = release({ sign: false });
    assert.deepEqual(failure(dir, trust({ keys: [signer.pub] })), [
      "signature",
      `verification failed: signature: ${META_BUNDLE} is missing: the release is unsigned, and signer keys are configured (--key); sign it with \`acquis sign\``,
    ]);
    assert.match(
      failure(dir, trust({ roster: [rosterKey(signer.pub)] }))[1],
      /signer keys are configured \(the trust roster\)/u,
    );
    assert.match(
      failure(dir, trust({ requireSignature: true }))[1],
      /only signed releases are installed from elsewhere/u,
    );
  });

  test("an unsigned release whose commit the checkout does not hold is refused", () => {
    assert.deepEqual(failure(release({ sign: false }), trust()), [
      "signature",
      `verification failed: signature: unsigned release built from commit c0ffee, which the checkout at ${tmp} does not hold; only a signed release is accepted from elsewhere`,
    ]);
  });

  test("a signed release with no accepted key at all is refused", () => {
    assert.deepEqual(failure(release(), trust()), [
      "signature",
      "verification failed: signature: no accepted keys: give --key, list keys in the trust roster, or keep this machine's key where `acquis keygen` writes it",
    ]);
  });

  test("a provenance statement naming another commit fails the provenance check", () => {
    assert.deepEqual(failure(release({ provenanceCommit: "deadbeef" }), trust({ keys: [signer.pub] })), [
      "provenance",
      "verification failed: provenance: the statement's canon commit is not c0ffee",
    ]);
  });

  test("a predecessor present beside the release must be the one it names", () => {
    const first = release({ tag: "2100.1" });
    const firstSha = sha256(readFileSync(join(first, "release-meta.yaml")));
    const next = join(first, "..", "2100.2");
    writeReleaseDir(next, { tag: "2100.2", previous: { tag: "2100.1", release_meta_sha256: firstSha } });
    signRelease(next, signer.priv, null);
    assert.deepEqual(verifyRelease(next, trust({ keys: [signer.pub] })).verification.checks, [
      "signature",
      "digests",
      "provenance",
      "chain",
    ]);
    const wrong = join(first, "..", "2100.3");
    writeReleaseDir(wrong, {
      tag: "2100.3",
      previous: { tag: "2100.1", release_meta_sha256: "0".repeat(64) },
    });
    signRelease(wrong, signer.priv, null);
    assert.deepEqual(failure(wrong, trust({ keys: [signer.pub] })), [
      "chain",
      "verification failed: chain: the predecessor 2100.1 present here is not the one this release names",
    ]);
  });
});

describe("the trust roster", () => {
  test("keys with ids, validity and revocations; each key needs an id and a PEM", () => {
    const pem = signer.pub.export({ type: "spki", format: "pem" }).toString();
    const text = `keys:\n  - id: a\n    public_key: |\n${pem.replace(/^/gmu, "      ").trimEnd()}\n    valid_from: 2026-01-01\n    revoked: { at: 2026-03-01 }\n`;
    const [k] = parseRoster(text, "config/trust.yaml");
    assert.deepEqual(
      [k?.id, k?.valid_from, k?.valid_until, k?.revoked],
      ["a", "2026-01-01", null, { at: "2026-03-01", reason: undefined }],
    );
    assert.equal(keyId(k?.key as KeyObject), keyId(signer.pub));
    assert.deepEqual(parseRoster("", "config/trust.yaml"), []);
    assert.throws(() => parseRoster("keys:\n  - id: a\n", "config/trust.yaml"), {
      message: "config/trust.yaml: keys[0]: needs id and public_key (PEM)",
    });
  });
});
