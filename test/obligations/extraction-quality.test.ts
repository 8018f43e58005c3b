/**
 * Extraction against the hand-checked sample (test/fixtures/extraction/sample.json, docs/obligations.md):
 * the targets of issue [2/7] hold on the real eu corpus, so a change that makes extraction worse fails.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { score } from "../../bench/extraction-quality.ts";
import { extractAtoms } from "../../src/obligations/atoms.ts";
import { loadRelease } from "../../src/release/load.ts";
import { readReleases, releaseDir } from "../../src/release/releases.ts";
import { acquis } from "../helpers/cli.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("atom extraction on the hand-checked eu sample", () => {
  let result: ReturnType<typeof score>;

  before(() => {
    const r = acquis(["build", "eu", "--root", ROOT, "--sources", join(ROOT, "..", "shared", "corpus")]);
    assert.equal(r.status, 0, r.stderr);
    const tag = readReleases(ROOT, "eu").at(-1)?.tag as string;
    result = score(extractAtoms(loadRelease(releaseDir(ROOT, "eu", tag)).units));
  });

  test("modality is right for at least 95 % of sampled atoms", () =>
    assert.ok(result.modality >= 0.95, String(result.modality)));
  test("the actor as written is right for at least 90 %", () =>
    assert.ok(result.actor_as_written >= 0.9, String(result.actor_as_written)));
  test("executable values are right for at least 95 %", () =>
    assert.ok(result.executable_value >= 0.95, String(result.executable_value)));
  test("at least 90 % of the duties annotated in 30 articles are extracted", () =>
    assert.ok(result.recall >= 0.9, String(result.recall)));
});
