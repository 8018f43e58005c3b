import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { ancestors } from "../obligations/taxonomy.ts";
import type { AtomChange, DiffManifest, UnitChange } from "../release/diff.ts";
import type { LoadedRelease } from "../release/load.ts";
import { profileOf } from "./coverage.ts";
import { openRelease } from "./release-ref.ts";
import { defaultRoot } from "./root.ts";

function manifestOf(release: LoadedRelease): DiffManifest {
  return JSON.parse(readFileSync(join(release.dir, `${release.meta.tag}.diff.json`), "utf8")) as DiffManifest;
}

function atomLine(c: AtomChange): string {
  return `${c.change.padEnd(10)} ${c.classification.padEnd(11)} ${c.atom}  ${c.citation.node}: ${c.classification_basis}`;
}

function render(m: DiffManifest, changes: AtomChange[], units: boolean): string {
  const unitChanges = m.changes.filter((c): c is UnitChange => c.kind === "unit");
  const head = `${m.regime}@${m.tag} against ${m.from ?? "nothing (first release)"}
atoms: ${Object.entries(m.counts.atoms)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ")}
units: added ${m.counts.units.added}, changed ${m.counts.units.changed}, removed ${m.counts.units.removed}
`;
  const unitLines = units
    ? `\n${unitChanges.map((c) => `${c.change.padEnd(8)} ${c.node}${c.fields ? ` (${c.fields.join(", ")})` : ""}`).join("\n")}\n`
    : "";
  return `${head}\n${changes.map(atomLine).join("\n")}\n${unitLines}`;
}

export function registerDiff(program: Command): void {
  program
    .command("diff")
    .description(
      "what a release changed against its predecessor: every atom change, classified, and the unit changes",
    )
    .argument("<release>", "release, e.g. eu@2026.11.1")
    .option("--json", "print the manifest as shipped")
    .option("--units", "list every unit change too")
    .option("--root <dir>", "repository root", defaultRoot())
    .action((ref: string, opts: { json?: boolean; units?: boolean; root: string }) => {
      const release = openRelease(resolve(opts.root), ref);
      const m = manifestOf(release);
      if (opts.json) process.stdout.write(`${JSON.stringify(m, null, 2)}\n`);
      else
        process.stdout.write(
          render(
            m,
            m.changes.filter((c): c is AtomChange => c.kind === "atom"),
            opts.units ?? false,
          ),
        );
    });

  program
    .command("impact")
    .description("which atom changes of a release bind an entity profile")
    .argument("<release>", "release, e.g. eu@2026.11.1")
    .requiredOption("--profile <id>", "entity profile id")
    .option("--json", "print the changes as JSON")
    .option("--root <dir>", "repository root", defaultRoot())
    .action((ref: string, opts: { profile: string; json?: boolean; root: string }) => {
      const release = openRelease(resolve(opts.root), ref);
      const binds = new Set(ancestors(release.taxonomy, profileOf(release, opts.profile).entity_types));
      const m = manifestOf(release);
      const hits = m.changes.filter(
        (c): c is AtomChange =>
          c.kind === "atom" &&
          [c.detail.before, c.detail.after].some((a) => a?.applies_to.some((t) => binds.has(t))),
      );
      if (opts.json)
        process.stdout.write(
          `${JSON.stringify({ release: ref, profile: opts.profile, changes: hits }, null, 2)}\n`,
        );
      else
        process.stdout.write(
          `${hits.length} atom change(s) of ${ref} bind ${opts.profile}\n\n${hits.map(atomLine).join("\n")}\n`,
        );
    });
}
