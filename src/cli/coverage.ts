import { resolve } from "node:path";
import type { Command } from "commander";
import { type Applicability, type Decision, decide } from "../obligations/applicability.ts";
import type { LoadedRelease } from "../release/load.ts";
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
The same engine decides /v1/obligations. Nothing is dropped: a duty whose exemption depends on a fact the
profile does not state is listed as applicable, with a note naming the fact.

Example:
  acquis coverage --profile micro-payment-institution --as-of 2026-01-01`,
    )
    .action((opts: { profile: string; release?: string; asOf?: string; format: string; root: string }) => {
      if (opts.format !== "md" && opts.format !== "json")
        throw new Error(`--format "${opts.format}" is not md or json`);
      const date = checkDate(opts.asOf ?? today(), "--as-of");
      const release = openRelease(resolve(opts.root), opts.release);
      const result = decide(
        profileOf(release, opts.profile),
        date,
        release.atoms,
        release.taxonomy,
        release.derogations,
      );
      process.stdout.write(
        opts.format === "json"
          ? `${JSON.stringify(toJson(result, release), null, 2)}\n`
          : markdown(result, release),
      );
    });
}

function toJson(r: Applicability, release: LoadedRelease) {
  const item = (d: Decision) => ({
    atom: d.atom.id,
    act: d.atom.act,
    unit_eid: d.atom.unit_eid,
    citation: release.byNode.get(d.atom.node)?.citation ?? d.atom.node,
    modality: d.atom.modality,
    actor: d.atom.actor,
    action: d.atom.action,
    quoted_text: d.atom.quoted_text,
    basis: d.basis,
    note: d.note,
    derogation: d.derogation,
  });
  return {
    release: `${release.meta.regime}@${release.meta.tag}`,
    ...r,
    applicable: r.applicable.map(item),
    excluded: r.excluded.map(item),
  };
}

function markdown(r: Applicability, release: LoadedRelease): string {
  const byAct = new Map<string, Record<string, number>>();
  for (const d of [...r.applicable, ...r.excluded]) {
    const row = byAct.get(d.atom.act) ?? { obligation: 0, prohibition: 0, permission: 0, excluded: 0 };
    if (d.applicable) row[d.atom.modality] = (row[d.atom.modality] ?? 0) + 1;
    else row.excluded = (row.excluded ?? 0) + 1;
    byAct.set(d.atom.act, row);
  }
  const line = (d: Decision) => {
    const cite = release.byNode.get(d.atom.node)?.citation ?? d.atom.node;
    const quote =
      d.atom.quoted_text.length > 160 ? `${d.atom.quoted_text.slice(0, 159)}…` : d.atom.quoted_text;
    const note = d.note ? ` — ${d.note}` : "";
    return `- **${cite}** (${d.atom.modality}, ${d.atom.id}): “${quote}”${note}`;
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
