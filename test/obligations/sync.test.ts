/**
 * `acquis atoms sync` (src/obligations/sync.ts) in a throwaway working tree holding the fixture canon
 * (no git needed: sync reads the working tree): the first sync mints an id per atom and writes
 * atoms.lock; a second over the same canon keeps every id.
 */
import assert from "node:assert/strict";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { EXTRACTION_RULES } from "../../src/obligations/atoms.ts";
import { parseLedger } from "../../src/obligations/ledger.ts";
import { syncLedger } from "../../src/obligations/sync.ts";
import { FIXTURE, FIXTURE_SOURCES } from "../helpers/fixture-release.ts";

const root = mkdtempSync(join(tmpdir(), "acquis-sync-"));
after(() => rmSync(root, { recursive: true, force: true }));
const dir = join(root, "regimes", "fixture");
mkdirSync(dir, { recursive: true });
copyFileSync(join(FIXTURE, "canon", "rev1.yaml"), join(dir, "regime.yaml"));
cpSync(join(FIXTURE, "canon", "obligations"), dir, { recursive: true });

describe("atoms sync", () => {
  test("a first sync mints every atom and writes the ledger beside the canon", () => {
    const r = syncLedger({ root, regime: "fixture", sources: FIXTURE_SOURCES });
    assert.equal(r.file, join(dir, "atoms.lock"));
    assert.ok(r.atoms > 0);
    assert.deepEqual([r.minted, r.kept, r.retired], [r.atoms, 0, 0]);
    const ledger = parseLedger(readFileSync(r.file, "utf8"), r.file);
    assert.equal(ledger.atoms.length, r.atoms);
    assert.equal(ledger.extraction, EXTRACTION_RULES, "a new ledger is matched under the current rules");
  });

  test("a second sync over the same canon keeps every id; a new revision carries ids by matching", () => {
    const before = readFileSync(join(dir, "atoms.lock"), "utf8");
    const again = syncLedger({ root, regime: "fixture", sources: FIXTURE_SOURCES });
    assert.deepEqual([again.kept, again.minted], [again.atoms, 0]);
    assert.equal(readFileSync(join(dir, "atoms.lock"), "utf8"), before);
    copyFileSync(join(FIXTURE, "canon", "rev2.yaml"), join(dir, "regime.yaml"));
    const rev2 = syncLedger({ root, regime: "fixture", sources: FIXTURE_SOURCES });
    assert.ok(rev2.kept + rev2.moved + rev2.edited > 0, JSON.stringify(rev2));
  });

  test("a regime without canon is refused", () => {
    assert.throws(() => syncLedger({ root, regime: "nope", sources: FIXTURE_SOURCES }), {
      message: 'no canon for regime "nope": regimes/nope/regime.yaml does not exist',
    });
  });
});
