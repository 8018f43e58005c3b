/**
 * Canon and sources into a corpus (src/canon/compile.ts), on the fixture regime: every source is read
 * by the digest its canon names, and a source that is missing, altered or not JSON is refused by name.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { compile, readSource, SourceError, sha256 } from "../../src/canon/compile.ts";
import { FIXTURE_SOURCES, fixtureCanon } from "../helpers/fixture-release.ts";

const tmp = mkdtempSync(join(tmpdir(), "acquis-compile-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("compiling a regime", () => {
  test("sha256 is the lowercase hex digest of bytes or text", () => {
    assert.equal(sha256(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert.equal(sha256(Buffer.from("abc")), sha256("abc"));
  });

  test("the fixture compiles into its act, units and one quality report per act, sources listed by file", () => {
    const canon = fixtureCanon(2);
    const seen: string[] = [];
    const { corpus, quality, sources } = compile(canon, FIXTURE_SOURCES, (id) => seen.push(id));
    assert.deepEqual(seen, ["widgets"]);
    assert.equal(corpus.regime, "fixture");
    const [act] = corpus.acts;
    assert.equal(act?.work_iri, "http://data.europa.eu/eli/reg/2099/1/oj");
    assert.equal(act?.expression_iri, "http://data.europa.eu/eli/reg/2099/1/oj/eng");
    assert.equal(act?.source_sha256, canon.acts[0]?.sha256);
    assert.equal(act?.amended_by, undefined, "no amending acts, no key");
    assert.ok(corpus.units.some((u) => u.node === "widgets/art_3__para_2"));
    assert.deepEqual(
      quality.map((q) => q.act),
      ["widgets"],
    );
    assert.deepEqual(sources, [{ file: "fixture/widgets-v2.json", sha256: canon.acts[0]?.sha256 }]);
  });

  test("a source whose bytes differ from the canon's digest is refused before it is parsed", () => {
    assert.throws(
      () => readSource(FIXTURE_SOURCES, "fixture/widgets-v1.json", "0".repeat(64)),
      (e: Error) =>
        e instanceof SourceError &&
        /^source fixture\/widgets-v1\.json: SHA-256 mismatch: expected 0{64}, found [0-9a-f]{64}$/u.test(
          e.message,
        ),
    );
  });

  test("a missing source is refused naming the file and the error", () => {
    assert.throws(
      () => readSource(FIXTURE_SOURCES, "fixture/none.json", "0".repeat(64)),
      (e: Error) =>
        e instanceof SourceError &&
        e.message === `source fixture/none.json: cannot read ${FIXTURE_SOURCES}/fixture/none.json (ENOENT)`,
    );
  });

  test("a source that matches its digest but is not JSON is refused", () => {
    writeFileSync(join(tmp, "bad.json"), "{ not json");
    assert.throws(
      () => readSource(tmp, "bad.json", sha256("{ not json")),
      (e: Error) => e instanceof SourceError && /^source bad\.json: not valid JSON: /u.test(e.message),
    );
  });
});
