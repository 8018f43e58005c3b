/**
 * Applicable, excluded and undetermined duties per shipped profile of the newest built eu release, under
 * the extraction rules the release was built with and, re-extracted from the same corpus, under the
 * rules before them: what a change of rules did to every register. `node eval/registers/counts.ts
 * [as_of]` (default: today).
 */
import { join } from "node:path";
import { inWorkingTree } from "../../src/canon/reader.ts";
import { createEngine, type Engine } from "../../src/engine/context.ts";
import { obligations } from "../../src/engine/obligations.ts";
import { EXTRACTION_RULES, extractAtoms } from "../../src/obligations/atoms.ts";
import { readObligationsCanon } from "../../src/obligations/canon.ts";
import { emptyLedger, sync } from "../../src/obligations/ledger.ts";
import { documentHolders, releaseAtoms } from "../../src/obligations/release-atoms.ts";
import { loadRelease } from "../../src/release/load.ts";
import { newestBuilt, releaseDir } from "../../src/release/releases.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const asOf = process.argv[2] ?? new Date().toISOString().slice(0, 10);
const record = newestBuilt(ROOT, "eu");
if (!record) throw new Error("build eu first (npx acquis build eu)");
const release = loadRelease(releaseDir(ROOT, "eu", record.tag));
const canon = readObligationsCanon(inWorkingTree(ROOT), "eu");
const before = EXTRACTION_RULES - 1;
const ledger = sync(
  emptyLedger("eu"),
  extractAtoms(release.units, before, documentHolders(canon)),
  before,
).ledger;
const atoms = releaseAtoms(release.units, { ...canon, ledger }, "eu", false).atoms;
const stamps = {
  verification: { status: "verified", mode: "digests-only", checks: [] },
  disclaimer: { release: `eu@${record.tag}`, text: "" },
};
const now = createEngine(release, stamps);
const then = createEngine({ ...release, atoms }, stamps);
const counts = (e: Engine, profile: string) => {
  const c = obligations(e, { entity_profile: profile, as_of: asOf }, asOf).counts;
  return `${c.applicable} / ${c.excluded} / ${c.undetermined}`;
};
process.stdout.write(
  `eu@${record.tag} on ${asOf}: applicable / excluded / undetermined\n\n| profile | rules ${before} | rules ${EXTRACTION_RULES} |\n|---|---|---|\n`,
);
for (const p of release.profiles)
  process.stdout.write(`| ${p.id} | ${counts(then, p.id)} | ${counts(now, p.id)} |\n`);
