/**
 * diff_releases (src/engine/diff.ts): the changes of the served release's own diff manifest, read once
 * and checked against the digest release-meta.yaml declares, paged and filtered by kind; any other range
 * of tags is refused.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { sha256 } from "../../src/canon/compile.ts";
import { DEFAULT_DIFF_LIMIT, diffReleases } from "../../src/engine/diff.ts";
import { ServiceError } from "../../src/engine/errors.ts";
import type { DiffManifest } from "../../src/release/diff.ts";
import { fixtureEngine } from "../helpers/fixture-release.ts";

const dir = mkdtempSync(join(tmpdir(), "acquis-diff-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const manifest = {
  schema_version: 1,
  regime: "fixture",
  tag: "2100.2",
  from: "2100.1",
  counts: { atoms: { added: 1 }, units: { added: 0, changed: 2, removed: 0 } },
  changes: [
    { kind: "atom", atom: "atm_1", change: "added" },
    { kind: "unit", change: "changed", node: "widgets/art_3" },
    { kind: "unit", change: "changed", node: "widgets/art_4" },
  ],
} as unknown as DiffManifest;
const body = JSON.stringify(manifest);
writeFileSync(join(dir, "2100.2.diff.json"), body);
const declared = [{ name: "2100.2.diff.json", sha256: sha256(body), size: body.length }];
const e = fixtureEngine({ tag: "2100.2", dir, artifacts: declared });

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ServiceError, String(err));
    return [err.code, err.message];
  }
  return ["ok"];
};

describe("release diffs", () => {
  test("the manifest's changes, from the tag it names to the served one, with its counts", () => {
    const r = diffReleases(e, {});
    assert.deepEqual(
      [r.release, r.from, r.to, r.total, r.offset, r.limit],
      ["2100.2", "2100.1", "2100.2", 3, 0, DEFAULT_DIFF_LIMIT],
    );
    assert.deepEqual(r.counts, manifest.counts);
    assert.equal(r.changes.length, 3);
    assert.match(r.notes[0] ?? "", /verify the release that contains it: `acquis pull`/u);
  });

  test("filtered by kind and paged", () => {
    assert.deepEqual(
      diffReleases(e, { kind: "unit" }).changes.map((c) => ("node" in c ? c.node : "")),
      ["widgets/art_3", "widgets/art_4"],
    );
    const page = diffReleases(e, { kind: "unit", offset: 1, limit: 1 });
    assert.deepEqual([page.total, page.changes.length], [2, 1]);
  });

  test("the range the manifest covers, by tag or regime@tag; any other is refused", () => {
    assert.equal(diffReleases(e, { from: "fixture@2100.1", to: "2100.2" }).total, 3);
    assert.deepEqual(
      refusal(() => diffReleases(e, { to: "2100.3" })),
      [
        "release_mismatch",
        'this instance answers only the range its manifest covers: 2100.1 -> 2100.2; not to "2100.3"',
      ],
    );
    assert.deepEqual(
      refusal(() => diffReleases(e, { from: "2099.9" })),
      [
        "release_mismatch",
        'this instance answers only the range its manifest covers: 2100.1 -> 2100.2; not from "2099.9"',
      ],
    );
  });

  test("a release without a manifest, or whose manifest changed on disk, is refused", () => {
    assert.deepEqual(
      refusal(() => diffReleases(fixtureEngine(), {})),
      ["not_found", "release fixture@2100.1 ships no diff manifest"],
    );
    const altered = fixtureEngine({
      tag: "2100.2",
      dir,
      artifacts: [{ ...declared[0], sha256: "0".repeat(64) } as (typeof declared)[0]],
    });
    assert.deepEqual(
      refusal(() => diffReleases(altered, {})),
      ["internal", "2100.2.diff.json no longer matches release-meta.yaml"],
    );
  });
});
