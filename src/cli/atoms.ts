import { join, resolve } from "node:path";
import type { Command } from "commander";
import { syncLedger } from "../obligations/sync.ts";
import { defaultRoot } from "./root.ts";

export function registerAtoms(program: Command): void {
  const atoms = program.command("atoms").description("the atom ledger: permanent ids of obligation atoms");
  atoms
    .command("sync")
    .description("extract the atoms of the working tree's canon and update regimes/<regime>/atoms.lock")
    .argument("<regime>", "regime, e.g. eu")
    .option("--root <dir>", "repository root holding regimes/", defaultRoot())
    .option("--sources <dir>", "folder holding the source texts (default: <root>/../shared/corpus)")
    .addHelpText(
      "after",
      `
Ids are kept when a duty's text is edited or its unit renumbered, minted for new duties, retired
(never reused) for removed ones. Commit atoms.lock with the canon; \`acquis build\` refuses a stale one.

Example:
  acquis atoms sync eu && git add regimes/eu/atoms.lock`,
    )
    .action((regime: string, opts: { root: string; sources?: string }) => {
      const root = resolve(opts.root);
      const r = syncLedger({
        root,
        regime,
        sources: resolve(opts.sources ?? join(root, "..", "shared", "corpus")),
      });
      process.stdout.write(
        `${r.file}: ${r.atoms} atoms; ${r.kept} kept, ${r.moved} moved, ${r.edited} edited, ${r.minted} minted, ${r.reinstated} reinstated, ${r.retired} retired\n`,
      );
    });
}
