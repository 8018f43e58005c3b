import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { acquis, BIN } from "../helpers/cli.ts";
import { fixtureRepo } from "../helpers/fixture-repo.ts";

/** The one error line a refusal prints (progress lines may precede it). */
function errorLines(stderr: string): string[] {
  return stderr.split("\n").filter((l) => l.startsWith("acquis:"));
}

describe("the acquis command line", () => {
  test("--help lists the commands that work", () => {
    const r = acquis(["--help"]);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /Usage: acquis/u);
    assert.match(r.stdout, /build \[options\] <regime>/u);
  });

  test("a reader that stops early (| head) ends the command quietly, with no stack trace", () => {
    assert.equal(acquis(["build", "eu"]).status, 0);
    const r = spawnSync(
      "bash",
      [
        "-c",
        `set -o pipefail; "${process.execPath}" "${BIN}" coverage --profile lt-micro-payment-institution | head -1`,
      ],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^# Obligations of lt-micro-payment-institution/u);
    assert.equal(r.stderr, "");
  });

  test("--version prints the package version and exits 0", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
      version: string;
    };
    for (const flag of ["--version", "-V"]) {
      const r = acquis([flag]);
      assert.equal(r.status, 0);
      assert.equal(r.stdout, `${pkg.version}\n`);
    }
  });

  test("build --help teaches its options with examples", () => {
    const r = acquis(["build", "--help"]);
    assert.equal(r.status, 0);
    for (const opt of ["--tag", "--root", "--sources", "--force"])
      assert.match(r.stdout, new RegExp(opt, "u"));
    assert.match(r.stdout, /Examples:/u);
  });

  test("an unknown option exits non-zero with one line naming it", () => {
    const r = acquis(["build", "eu", "--frobnicate"]);
    assert.notEqual(r.status, 0);
    assert.deepEqual(errorLines(r.stderr), ["acquis: unknown option '--frobnicate'"]);
  });

  test("an unknown command exits non-zero with one line naming it", () => {
    const r = acquis(["serve-everything"]);
    assert.notEqual(r.status, 0);
    assert.equal(errorLines(r.stderr).length, 1);
    assert.match(r.stderr, /serve-everything/u);
  });

  test("a missing argument exits non-zero with one line", () => {
    const r = acquis(["build"]);
    assert.notEqual(r.status, 0);
    assert.deepEqual(errorLines(r.stderr), ["acquis: missing required argument 'regime'"]);
  });

  test("a regime without canon is refused in one line naming it", () => {
    const repo = fixtureRepo();
    repo.commitRevision(1);
    const r = acquis(["build", "nowhere", "--root", repo.root, "--tag", "t1"]);
    assert.notEqual(r.status, 0);
    const [line] = errorLines(r.stderr);
    assert.match(line ?? "", /regimes\/nowhere\/regime\.yaml/u);
    assert.equal(errorLines(r.stderr).length, 1);
  });

  test("an invalid tag is refused in one line naming it", () => {
    const repo = fixtureRepo();
    repo.commitRevision(1);
    const r = acquis(["build", "fixture", "--root", repo.root, "--tag", "../escape"]);
    assert.notEqual(r.status, 0);
    assert.match(errorLines(r.stderr)[0] ?? "", /tag "\.\.\/escape" is not valid/u);
  });
});
