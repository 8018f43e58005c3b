/**
 * Reading canon files from the working tree (src/canon/reader.ts). Reading at a commit runs git, so it
 * is tested by the process-level suites (test/release/fixture-build.test.ts), not here.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { inWorkingTree } from "../../src/canon/reader.ts";

const root = mkdtempSync(join(tmpdir(), "acquis-reader-"));
after(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, "regimes", "x", "acts"), { recursive: true });
writeFileSync(join(root, "regimes", "x", "regime.yaml"), "regime: x\n");
writeFileSync(join(root, "regimes", "x", "acts", "b.yaml"), "id: b\n");
writeFileSync(join(root, "regimes", "x", "acts", "a.yaml"), "id: a\n");

describe("a working-tree reader", () => {
  const reader = inWorkingTree(root);

  test("reads a file's text by its path from the root; a missing file is null", () => {
    assert.equal(reader.read("regimes/x/regime.yaml"), "regime: x\n");
    assert.equal(reader.read("regimes/x/nope.yaml"), null);
  });

  test("lists a folder's names sorted; a missing folder lists nothing", () => {
    assert.deepEqual(reader.list("regimes/x/acts"), ["a.yaml", "b.yaml"]);
    assert.deepEqual(reader.list("regimes/y/acts"), []);
  });
});
