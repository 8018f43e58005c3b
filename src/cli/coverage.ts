import { resolve } from "node:path";
import type { Command } from "commander";
import { createEngine } from "../engine/context.ts";
import { obligations } from "../engine/obligations.ts";
import type { LoadedRelease } from "../release/load.ts";
import { readDisclaimer } from "../serve/boot.ts";
import { checkDate, openRelease, today } from "./release-ref.ts";
import { defaultRoot } from "./root.ts";

export function profileOf(release: LoadedRelease, id: string) {
  const p = release.profiles.find((x) => x.id === id);
  if (!p) {
    const known = release.profiles.map((x) => x.id).join(", ") || "none";
    throw new Error(
      `no entity profile "${id}" in ${release.meta.regime}@${release.meta.tag} (profiles: ${known})`,
    );
  }
  return p;
}

type Payload = ReturnType<typeof obligations>;
type Item = Payload["applicable"][number];

export function registerCoverage(program: Command): void {
  program
    .command("coverage")
    .description(
      "the obligations report for an entity profile: every duty that binds it, and every duty a derogation lifts",
    )
    .requiredOption("--profile <id>", "entity profile id (regimes/<regime>/profiles/<id>.yaml)")
    .option("--release <regime@tag>", "release to read (default: the newest built eu release)")
    .option("--as-of <date>", "date the duties are decided on (default: today, UTC)")
    .option("--format <format>", "md or json", "md")
    .option("--root <dir>", "repository root", defaultRoot())
    .addHelpText(
      "after",
      `
The same engine decides /v1/obligations, and --format json prints exactly its payload. Nothing is
dropped: a duty whose exemption depends on a fact the profile does not state is listed as applicable,
with a note naming the fact.

Example:
  acquis coverage --profile lt-micro-payment-institution --as-of 2026-01-01`,
    )
    .action((opts: { profile: string; release?: string; asOf?: string; format: string; root: string }) => {
      if (opts.format !== "md" && opts.format !== "json")
        throw new Error(`--format "${opts.format}" is not md or json`);
      const date = checkDate(opts.asOf ?? today(), "--as-of");
      const root = resolve(opts.root);
      const release = openRelease(root, opts.release);
      profileOf(release, opts.profile);
      // The loader checked every digest; the stamps say only that.
      const engine = createEngine(release, {
        verification: { status: "verified", mode: "digests-only", checks: ["digests"] },
        disclaimer: { release: `${release.meta.regime}@${release.meta.tag}`, text: readDisclaimer(root) },
      });
      const payload = obligations(engine, { entity_profile: opts.profile, as_of: date }, date);
      process.stdout.write(
        opts.format === "json" ? `${JSON.stringify(payload, null, 2)}\n` : markdown(payload, release),
      );
    });
}

function markdown(r: Payload, release: LoadedRelease): string {
  const byAct = new Map<string, Record<string, number>>();
  const count = (d: Item, excluded: boolean) => {
    const row = byAct.get(d.act) ?? { obligation: 0, prohibition: 0, permission: 0, excluded: 0 };
    if (excluded) row.excluded = (row.excluded ?? 0) + 1;
    else row[d.modality] = (row[d.modality] ?? 0) + 1;
    byAct.set(d.act, row);
  };
  for (const d of r.applicable) count(d, false);
  for (const d of r.excluded) count(d, true);
  const line = (d: Item) => {
    const quote = d.quoted_text.length > 160 ? `${d.quoted_text.slice(0, 159)}…` : d.quoted_text;
    const note = d.note ? ` — ${d.note}` : "";
    return `- **${d.provision}** (${d.modality}, ${d.atom}): “${quote}”${note}`;
  };
  const rows = [...byAct].sort(([a], [b]) => (a < b ? -1 : 1));
  return `# Obligations of ${r.entity_profile} on ${r.as_of}

Release ${release.meta.regime}@${release.meta.tag}. Binds: ${r.binds.join(", ")}.
Applicable: ${r.counts.applicable}. Excluded by a derogation: ${r.counts.excluded}.

| act | obligation | prohibition | permission | excluded |
|---|---|---|---|---|
${rows.map(([act, c]) => `| ${act} | ${c.obligation} | ${c.prohibition} | ${c.permission} | ${c.excluded} |`).join("\n")}

## Excluded

${r.excluded.map(line).join("\n") || "none"}

## Applicable

${r.applicable.map(line).join("\n") || "none"}
`;
}
