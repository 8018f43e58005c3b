/**
 * `acquis pull` (src/trust/pull.ts) from a release folder and from a .tar.gz made here: a signed
 * release is verified in a temporary folder and installed whole; only declared files are taken; a
 * hostile or broken source installs nothing and says why. (Pulling over HTTP is left to the
 * process-level suites: no network here.)
 */
import assert from "node:assert/strict";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { create } from "tar";
import { PullError, pull } from "../../src/trust/pull.ts";
import { signRelease } from "../../src/trust/sign.ts";
import { type TrustOptions, VerificationError } from "../../src/trust/verify.ts";
import { writeReleaseDir } from "../helpers/release-dir.ts";

const tmp = mkdtempSync(join(tmpdir(), "acquis-pull-test-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const trust: TrustOptions = {
  root: tmp,
  keys: [createPublicKey(privateKey)],
  roster: [],
  logKeys: [],
  skip: false,
};

let n = 0;
function source(opts: { sign?: boolean; tag?: string } = {}): string {
  const dir = join(tmp, `src${n++}`, "release");
  writeReleaseDir(dir, { tag: opts.tag });
  if (opts.sign !== false) signRelease(dir, privateKey, null);
  return dir;
}
const checkout = () => {
  const dir = join(tmp, `checkout${n++}`);
  mkdirSync(dir);
  return dir;
};
async function archive(dir: string, extra: (d: string) => void = () => {}): Promise<string> {
  extra(dir);
  const file = `${dir}.tar.gz`;
  await create({ gzip: true, file, cwd: join(dir, "..") }, ["release"]);
  return file;
}
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof PullError || e instanceof VerificationError, String(e));
    return e.message;
  }
  return "installed";
}

describe("pulling a release", () => {
  test("a signed release folder is verified and installed under its regime and tag, declared files only", async () => {
    const from = source();
    writeFileSync(join(from, "notes.txt"), "not declared");
    const root = checkout();
    const r = await pull(from, root, trust);
    assert.deepEqual(
      [r.regime, r.tag, r.installed, r.verification.status],
      ["fixture", "2100.1", true, "verified"],
    );
    assert.equal(r.dir, join(root, "regimes", "fixture", "releases", "2100.1"));
    assert.deepEqual(readdirSync(r.dir).sort(), [
      "corpus.json",
      "index.json",
      "provenance.json",
      "provenance.sigstore.json",
      "release-meta.yaml",
      "release-meta.yaml.sigstore.json",
    ]);
    assert.equal((await pull(from, root, trust)).installed, false, "the same release again installs nothing");
    const differs = source({ tag: "2100.1" });
    writeReleaseDir(differs, { commit: "beef" });
    signRelease(differs, privateKey, null);
    assert.equal(
      await refusal(pull(differs, root, trust)),
      `fixture@2100.1 is already installed with a different release-meta.yaml; remove ${r.dir} first`,
    );
  });

  test("an unsigned release from elsewhere is refused and nothing is installed", async () => {
    const root = checkout();
    assert.match(
      await refusal(pull(source({ sign: false }), root, trust)),
      /^verification failed: signature: release-meta\.yaml\.sigstore\.json is missing/u,
    );
    assert.ok(!existsSync(join(root, "regimes")));
  });

  test("a .tar.gz of a release folder installs like the folder", async () => {
    const r = await pull(await archive(source()), checkout(), trust);
    assert.equal(r.installed, true);
  });

  test("an archive holding a link, or unpacking past the cap, is refused", async () => {
    const linked = await archive(source(), (d) => symlinkSync("/etc/passwd", join(d, "corpus-link.json")));
    assert.equal(
      await refusal(pull(linked, checkout(), trust)),
      `${linked}: refused: release/corpus-link.json: a SymbolicLink entry (only plain files and folders are accepted)`,
    );
    const big = await archive(source());
    assert.equal(
      await refusal(pull(big, checkout(), trust, { maxBytes: 1000 })),
      `${big}: refused: unpacks to more than the cap of 1000 bytes (--max-bytes)`,
    );
    const notTar = join(tmp, "not.tar.gz");
    writeFileSync(notTar, "plain text");
    assert.match(
      await refusal(pull(notTar, checkout(), trust)),
      /^.*not\.tar\.gz: not a readable \.tar\.gz \(/u,
    );
  });

  test("a source that is not there, or holds no release, is refused", async () => {
    assert.equal(
      await refusal(pull(join(tmp, "none"), checkout(), trust)),
      `${join(tmp, "none")}: no such directory, archive or URL`,
    );
    assert.equal(
      await refusal(pull(join(tmp, "none.tar.gz"), checkout(), trust)),
      `${join(tmp, "none.tar.gz")}: no such archive`,
    );
    const empty = join(tmp, "empty");
    mkdirSync(empty);
    assert.equal(await refusal(pull(empty, checkout(), trust)), "no release-meta.yaml in the source");
  });

  test("a declared file missing, or larger than declared, is refused before verification", async () => {
    const missing = source();
    rmSync(join(missing, "index.json"));
    assert.equal(
      await refusal(pull(missing, checkout(), trust)),
      "index.json, declared in release-meta.yaml, is missing from the source",
    );
    const grown = source();
    appendFileSync(join(grown, "corpus.json"), "    ");
    assert.match(
      await refusal(pull(grown, checkout(), trust)),
      /^corpus\.json is \d+ bytes, more than \d+ declared$/u,
    );
  });

  test("a manifest naming a path instead of a tag is refused", async () => {
    const hostile = source();
    const meta = join(hostile, "release-meta.yaml");
    const text = readFileSync(meta, "utf8");
    assert.match(text, /^tag: "2100\.1"$/mu);
    writeFileSync(meta, text.replace('tag: "2100.1"', 'tag: "../../x"'));
    assert.match(
      await refusal(pull(hostile, checkout(), trust)),
      /^refused: release-meta\.yaml: tag "\.\.\/\.\.\/x" is not a release tag/u,
    );
  });
});
