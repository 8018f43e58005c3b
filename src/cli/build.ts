import { resolve } from "node:path";
import type { Command } from "commander";
import { type BuildSummary, build } from "../release/build.ts";
import { endProgress, progress, table } from "./output.ts";
import { defaultRoot } from "./root.ts";

export function registerBuild(program: Command): void {
  program
    .command("build")
    .description("compile a regime's canon and sources into a release under regimes/<regime>/releases/<tag>/")
    .argument("<regime>", "regime to build, e.g. eu")
    .option(
      "--tag <tag>",
      "tag to build: a tag in releases.yaml is rebuilt from its recorded commit; a new tag is built from HEAD and recorded",
    )
    .option("--root <dir>", "repository root holding regimes/", defaultRoot())
    .option("--sources <dir>", "folder holding the source texts (default: <root>/../shared/corpus)")
    .option("--force", "rebuild even if the release directory exists")
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      `
Without --tag, the newest tag in regimes/<regime>/releases.yaml is built if it is missing.
Building the same tag twice gives byte-identical files.

Examples:
  acquis build eu                      build the newest recorded eu release if missing
  acquis build eu --tag 2026.11.1      record HEAD as tag 2026.11.1 and build it
  acquis build eu --tag 2026.11.0 --force   rebuild an older tag from its commit's canon`,
    )
    .action(
      (
        regime: string,
        opts: { tag?: string; root: string; sources?: string; force?: boolean; json?: boolean },
      ) => {
        const summary = build({
          root: resolve(opts.root),
          regime,
          tag: opts.tag,
          sources: opts.sources,
          force: opts.force,
          progress: progress(),
        });
        endProgress();
        process.stdout.write(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : render(summary));
      },
    );
}

function atomLine(s: BuildSummary): string {
  const a = s.atoms;
  if (a.total === 0) return "none (this canon commit has no atom ledger)";
  const pct = (n: number) => `${((n / Math.max(1, a.obligations)) * 100).toFixed(1)} %`;
  const byActor = (a.byBasis.actor ?? 0) + (a.byBasis["actor and action"] ?? 0);
  // Every basis but "none" maps: the preceding or (rules 6) following duty, the act's holder or parties.
  const mapped = a.obligations - (a.byBasis.none ?? 0);
  return `${a.total} (${Object.entries(a.byModality)
    .map(([k, n]) => `${k} ${n}`)
    .join(
      ", ",
    )}); obligations mapped to entity types ${pct(mapped)} (${pct(byActor)} by their actor, the rest by their article's other duties or the act's holder; unmapped listed in atoms.json)`;
}

function checkLine(s: BuildSummary): string {
  if (!s.checks) return "";
  const found = Object.entries(s.checks).filter(([, n]) => n > 0);
  const list = found.map(([k, n]) => `${k} ${n}`).join(", ");
  return `\n  checks:      ${Object.keys(s.checks).length} defect checks, within the baseline; ${found.length > 0 ? `findings: ${list}` : "no findings"}`;
}

function render(s: BuildSummary): string {
  const kinds = Object.entries(s.unitsByKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  const edges = Object.entries(s.edges)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  const rows = [["act", "units", "articles", "atoms (obl/proh/perm)", "repairs", "defects left"]];
  for (const a of s.acts) {
    const sum = (r: Record<string, number>) => Object.values(r).reduce((x, y) => x + y, 0);
    const defects = Object.entries(a.defects)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ");
    const atoms = `${a.atoms.obligation ?? 0}/${a.atoms.prohibition ?? 0}/${a.atoms.permission ?? 0}`;
    rows.push([a.id, String(a.units), String(a.articles), atoms, String(sum(a.repairs)), defects || "none"]);
  }
  return `${s.built ? "built" : "already built"} ${s.regime}@${s.tag} from commit ${s.commit.slice(0, 12)}
  release:     ${s.dir}
  acts:        ${s.counts.acts}
  units:       ${s.counts.units} (${kinds})
  definitions: ${s.counts.definitions}
  edges:       ${s.counts.edges} (${edges}); unresolved references ${(s.unresolvedShare * 100).toFixed(1)} %
  atoms:       ${atomLine(s)}
  quality:     ${s.counts.repairs} repairs, ${s.counts.defects} defects left (quality.json lists each)${checkLine(s)}

${table(rows)}
`;
}
