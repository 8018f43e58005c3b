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

interface CoverageOptions {
  profile: string;
  release?: string;
  asOf?: string;
  format: string;
  root: string;
  explain?: string;
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
    .option(
      "--explain <atom>",
      "explain one duty of the register: why it applies, is excluded or undetermined",
    )
    .option("--root <dir>", "repository root", defaultRoot())
    .addHelpText(
      "after",
      `
The same engine decides /v1/obligations, and --format json prints exactly its payload. Every duty of a
regulated party the profile is lands in one of three lists: applicable (with why: scope rule, entity
types, facts used, and the provisions that modify how it is met), excluded (naming the provision that
lifts it) or undetermined (naming the fact the profile does not state). Duties of Member States,
authorities and Union bodies never enter a register; a directive's duty on Member States that
prescribes the firm's conduct is listed as binding through national law. Acts whose scope does not
reach the profile are listed once, with the provision and the reason.

Examples:
  acquis coverage --profile lt-micro-payment-institution --as-of 2026-12-01
  acquis coverage --profile de-large-bank --format json | jq '.counts'
  acquis coverage --profile de-large-bank --explain atm_0123456789ab`,
    )
    .action(coverage);
}

/** `acquis coverage`: the profile's register on the date, or with --explain one duty of it. */
function coverage(opts: CoverageOptions): void {
  if (opts.format !== "md" && opts.format !== "json")
    throw new Error(`--format "${opts.format}" is not md or json`);
  const date = checkDate(opts.asOf ?? today(), "--as-of");
  const root = resolve(opts.root);
  const release = openRelease(root, opts.release);
  profileOf(release, opts.profile);
  // The loader checked every digest; the stamps say only that.
  const engine = createEngine(release, {
    verification: {
      status: "digests-only",
      mode: "unverified",
      checks: ["digests"],
      statement:
        "Only the digests in release-meta.yaml were checked; coverage verifies no signature (acquis pull and serve do).",
    },
    disclaimer: { release: `${release.meta.regime}@${release.meta.tag}`, text: readDisclaimer(root) },
  });
  const payload = obligations(engine, { entity_profile: opts.profile, as_of: date }, date);
  if (opts.explain !== undefined) {
    explainAtom(opts.explain, payload, release, opts, date);
    return;
  }
  process.stdout.write(
    opts.format === "json" ? `${JSON.stringify(payload, null, 2)}\n` : markdown(payload, release),
  );
}

/** --explain: the duty as the register lists it, or why the atom is not in the register. */
function explainAtom(
  id: string,
  payload: Payload,
  release: LoadedRelease,
  opts: CoverageOptions,
  date: string,
): void {
  const hit = [...payload.applicable, ...payload.excluded, ...payload.undetermined].find(
    (d) => d.atom === id,
  );
  if (!hit) {
    const atom = release.atoms.find((a) => a.id === id);
    if (!atom) throw new Error(`--explain: no atom "${id}" in ${release.meta.regime}@${release.meta.tag}`);
    const out = payload.out_of_scope.find(
      (o) => o.act === atom.act || o.nodes.some((n) => atom.node === n || atom.node.startsWith(`${n}__`)),
    );
    const why = out
      ? `outside the scope of ${out.rule}: ${out.provision} (${out.reason})`
      : atom.modality === "permission"
        ? "a permission, not a duty"
        : `not a duty of ${opts.profile} on ${date}: held by ${atom.addressee ?? "regulated_party"} "${atom.actor}" (${atom.applies_to.join(", ") || "no entity type"}), in force ${atom.effective}${atom.expires ? ` to ${atom.expires}` : ""}`;
    process.stdout.write(
      opts.format === "json"
        ? `${JSON.stringify({ atom: id, status: "not_listed", why }, null, 2)}\n`
        : `${id}: not in the register: ${why}\n`,
    );
    return;
  }
  process.stdout.write(opts.format === "json" ? `${JSON.stringify(hit, null, 2)}\n` : explain(hit));
}

function explain(d: Item): string {
  const r = d.reasons;
  const lines = [
    `${d.atom} — ${d.provision} (${d.modality}): ${d.status.toUpperCase()}`,
    `  duty:        “${d.quoted_text}”`,
    r.correlative
      ? `  owed by:     ${r.entity_types.join(", ")}, under a right of ${d.actor}`
      : `  held by:     ${d.actor} (${d.addressee}); reaches ${r.entity_types.join(", ")}`,
    ...r.scope.map((s) => `  scope:       ${s.provision}: ${s.reason}`),
    ...(r.through_national_law
      ? [
          `  national law: binds through the measures transposing ${r.through_national_law.directive}${r.through_national_law.transposition_deadline ? ` (to be transposed by ${r.through_national_law.transposition_deadline}, ${r.through_national_law.transposition_provision})` : ""}${r.through_national_law.national_law_from ? `, applied from ${r.through_national_law.national_law_from} (${r.through_national_law.provision})` : ""}`,
        ]
      : []),
    ...(r.facts.length ? [`  facts used:  ${r.facts.join("; ")}`] : []),
    ...r.modified_by.map((m) => `  modified by: ${m.provision}: ${m.change}`),
    ...(r.excluded_by
      ? [`  excluded by: ${r.excluded_by.provision} (${r.excluded_by.kind}, ${r.excluded_by.rule})`]
      : []),
    ...(r.undetermined_by
      ? [
          `  depends on:  ${r.undetermined_by.facts.join(", ")} (${r.undetermined_by.provision}); the profile does not state it`,
        ]
      : []),
    ...(d.note ? [`  note:        ${d.note}`] : []),
  ];
  return `${lines.join("\n")}\n`;
}

function markdown(r: Payload, release: LoadedRelease): string {
  const line = (d: Item) => {
    const quote = d.quoted_text.length > 160 ? `${d.quoted_text.slice(0, 159)}…` : d.quoted_text;
    const note = d.note ? ` — ${d.note}` : "";
    return `- **${d.provision}** (${d.modality}, ${d.atom}): “${quote}”${note}`;
  };
  const rows = Object.entries(r.counts.by_act);
  return `# Obligations of ${r.entity_profile} on ${r.as_of}

Release ${release.meta.regime}@${release.meta.tag}. Binds: ${r.binds.join(", ")}.
${r.derived.length ? `Derived: ${r.derived.join("; ")}.\n` : ""}
Applicable: ${r.counts.applicable}. Excluded: ${r.counts.excluded}. Undetermined: ${r.counts.undetermined}. Acts or parts out of scope: ${r.out_of_scope.length}.

| act | applicable | excluded | undetermined |
|---|---|---|---|
${rows.map(([act, c]) => `| ${act} | ${c.applicable} | ${c.excluded} | ${c.undetermined} |`).join("\n")}

## Out of scope

${r.out_of_scope.map((o) => `- **${o.rule}** (${o.provision}): ${o.reason}`).join("\n") || "none"}

## Undetermined

${r.undetermined.map(line).join("\n") || "none"}

## Excluded

${r.excluded.map(line).join("\n") || "none"}

## Applicable

${r.applicable.map(line).join("\n") || "none"}
`;
}
