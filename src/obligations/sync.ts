/**
 * `acquis atoms sync <regime>`: extract the atoms of the working tree's canon and bring the ledger up
 * to date (ids kept, minted, retired), so the next commit can be built.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "../canon/compile.ts";
import { inWorkingTree } from "../canon/reader.ts";
import { readRegimeCanon } from "../canon/regime.ts";
import { EXTRACTION_RULES, extractAtoms } from "./atoms.ts";
import { readObligationsCanon } from "./canon.ts";
import { emptyLedger, type SyncReport, serialiseLedger, sync } from "./ledger.ts";
import { documentHolders } from "./release-atoms.ts";

export function syncLedger(opts: {
  root: string;
  regime: string;
  sources: string;
}): SyncReport & { atoms: number; file: string } {
  const canon = readRegimeCanon(inWorkingTree(opts.root), opts.regime);
  const { corpus } = compile(canon, opts.sources);
  // A sync moves the ledger to the current extraction rules; ids carry over by the ledger's matching.
  const obligations = readObligationsCanon(inWorkingTree(opts.root), opts.regime);
  const atoms = extractAtoms(corpus.units, EXTRACTION_RULES, documentHolders(obligations));
  const result = sync(obligations.ledger ?? emptyLedger(opts.regime), atoms, EXTRACTION_RULES);
  const lock = join(opts.root, "regimes", opts.regime, "atoms.lock");
  writeFileSync(lock, serialiseLedger(result.ledger));
  return { ...result.report, atoms: atoms.length, file: lock };
}
