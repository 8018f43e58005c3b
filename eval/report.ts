/**
 * The printed result: per split, one plain-text table (rows metric x question type, columns the
 * systems side by side) and the targets checked on that split's numbers. Targets are reported,
 * never enforced: the harness measures; deciding what a miss means is a person's job.
 */
import type { OutOfScopeRates, Rates, Summary } from "./metrics.ts";
import { KINDS, type NoMatchRates } from "./unanswerable.ts";

export interface ReleaseHeader {
  name: string;
  release_meta_sha256: string;
  acts: number;
}

export interface SplitResult {
  split: "dev" | "held-out" | "all";
  questions: number;
  in_scope: number;
  out_of_scope: number;
  /** Distinct acts among this split's gold nodes. */
  gold_acts: number;
  /** By system name; the first system is ours. */
  summaries: Record<string, Summary>;
  /** By system name: saying no over the unanswerable questions and this split's in-scope questions. */
  no_match: Record<string, NoMatchRates>;
  targets: Target[];
}

export interface Target {
  target: string;
  met: boolean;
  detail: string;
}

const RATES: { key: keyof Omit<Rates, "n">; label: string }[] = [
  { key: "hit_at_1", label: "hit@1" },
  { key: "hit_at_5", label: "hit@5" },
  { key: "recall_at_10", label: "recall@10" },
  { key: "mrr", label: "MRR" },
];
const OOS: { key: "precision" | "recall"; label: string }[] = [
  { key: "precision", label: "oos precision" },
  { key: "recall", label: "oos recall" },
];

const fmt = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));
const oosCell = (o: OutOfScopeRates, key: "precision" | "recall") =>
  key === "precision"
    ? `${fmt(o.precision)} (${o.correct}/${o.predicted})`
    : `${fmt(o.recall)} (${o.correct}/${o.actual})`;

/** A number a target needs; null (0/0, or no questions of the kind) fails every target. */
const atLeast = (x: number | null, min: number) => x !== null && x >= min;
const beats = (ours: number | null, theirs: number | null) =>
  ours !== null && (theirs === null || ours > theirs);

/** The targets on one split's summaries; `systems[0]` is ours, the rest are baselines. */
export function checkTargets(
  summaries: Record<string, Summary>,
  systems: readonly string[],
  noMatch: Record<string, NoMatchRates>,
): Target[] {
  const [oursName, ...baselines] = systems as [string, ...string[]];
  const ours = summaries[oursName] as Summary;
  const overall = (s: Summary) => [
    ...RATES.map((r) => ({ label: r.label, value: s.overall[r.key] })),
    ...OOS.map((r) => ({ label: r.label, value: s.out_of_scope[r.key] })),
  ];
  const losses: string[] = [];
  for (const b of baselines) {
    const theirs = overall(summaries[b] as Summary);
    overall(ours).forEach((m, i) => {
      const t = theirs[i]?.value ?? null;
      if (!beats(m.value, t)) losses.push(`${m.label} ${fmt(m.value)} vs ${b} ${fmt(t)}`);
    });
  }
  const citation = ours.by_type.citation;
  const threshold = (target: string, x: number | null, min: number, extra = ""): Target => ({
    target,
    met: atLeast(x, min),
    detail: `${fmt(x)}${extra}`,
  });
  // The same, row by row of the per-type table: the issue asks for every metric, not only the overall.
  const typeLosses: string[] = [];
  for (const [type, rates] of Object.entries(ours.by_type)) {
    for (const b of baselines) {
      const theirs = (summaries[b] as Summary).by_type[type];
      for (const r of RATES) {
        const t = theirs?.[r.key] ?? null;
        if (!beats(rates[r.key], t))
          typeLosses.push(`${type} ${r.label} ${fmt(rates[r.key])} vs ${b} ${fmt(t)}`);
      }
    }
  }
  return [
    {
      target: `${oursName} beats ${baselines.join(" and ")} on every overall metric`,
      met: losses.length === 0,
      detail: losses.length === 0 ? "all 6 metrics strictly higher" : `not ahead on: ${losses.join("; ")}`,
    },
    {
      target: `${oursName} beats ${baselines.join(" and ")} on every metric of every question type`,
      met: typeLosses.length === 0,
      detail:
        typeLosses.length === 0 ? "every row strictly higher" : `not ahead on: ${typeLosses.join("; ")}`,
    },
    threshold("overall hit@5 >= 0.90", ours.overall.hit_at_5, 0.9),
    threshold("MRR >= 0.75", ours.overall.mrr, 0.75),
    threshold("citation hit@1 >= 0.98", citation?.hit_at_1 ?? null, 0.98, ` (n=${citation?.n ?? 0})`),
    threshold(
      "out-of-scope precision >= 0.9",
      ours.out_of_scope.precision,
      0.9,
      ` (${ours.out_of_scope.correct}/${ours.out_of_scope.predicted})`,
    ),
    threshold(
      "out-of-scope recall >= 0.9",
      ours.out_of_scope.recall,
      0.9,
      ` (${ours.out_of_scope.correct}/${ours.out_of_scope.actual})`,
    ),
    noMatchTarget(noMatch[oursName] as NoMatchRates),
  ];
}

function noMatchTarget(n: NoMatchRates): Target {
  const right = KINDS.reduce((sum, k) => sum + n.refused[k].refused, 0);
  return {
    target: "no-match precision >= 0.95",
    met: atLeast(n.precision, 0.95),
    detail: `${fmt(n.precision)} (${right} right of ${right + n.in_scope.refused} refusals; recall ${fmt(n.recall)})`,
  };
}

function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (c <= 1 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export function renderSplit(
  header: ReleaseHeader,
  splitRule: string,
  r: SplitResult,
  systems: readonly string[],
  types: readonly string[],
): string {
  const lines = [
    `== ${r.split} == ${header.name} (release_meta_sha256 ${header.release_meta_sha256}) | ` +
      `${r.questions} questions: ${r.in_scope} in scope, ${r.out_of_scope} out of scope | gold in ` +
      `${r.gold_acts} of the release's ${header.acts} acts`,
    `split: ${splitRule}`,
    "",
  ];
  const rows: string[][] = [["metric", "type", "n", ...systems]];
  const sum = (s: string) => r.summaries[s] as Summary;
  for (const m of RATES) {
    const first = sum(systems[0] as string);
    rows.push([
      m.label,
      "overall",
      String(first.overall.n),
      ...systems.map((s) => fmt(sum(s).overall[m.key])),
    ]);
    for (const t of types) {
      const n = first.by_type[t]?.n ?? 0;
      rows.push(["", t, String(n), ...systems.map((s) => fmt(sum(s).by_type[t]?.[m.key] ?? null))]);
    }
  }
  for (const m of OOS)
    rows.push([
      m.label,
      "all",
      String(r.questions),
      ...systems.map((s) => oosCell(sum(s).out_of_scope, m.key)),
    ]);
  const no = (s: string) => r.no_match[s] as NoMatchRates;
  const count = (x: { refused: number; n: number }) => `${x.refused}/${x.n}`;
  const refusals: string[][] = [["saying no", "questions", "n", ...systems]];
  for (const k of KINDS)
    refusals.push([
      "refused",
      `${k} (unanswerable)`,
      String(no(systems[0] as string).refused[k].n),
      ...systems.map((s) => count(no(s).refused[k])),
    ]);
  refusals.push([
    "refused",
    "in scope (wrongly)",
    String(no(systems[0] as string).in_scope.n),
    ...systems.map((s) => count(no(s).in_scope)),
  ]);
  refusals.push(["no-match precision", "", "", ...systems.map((s) => fmt(no(s).precision))]);
  refusals.push(["no-match recall", "", "", ...systems.map((s) => fmt(no(s).recall))]);
  lines.push(table(rows), "", table(refusals), "", `targets on ${r.split} (${systems[0]}):`);
  for (const t of r.targets) lines.push(`  ${t.met ? "met    " : "NOT met"}  ${t.target}: ${t.detail}`);
  return `${lines.join("\n")}\n`;
}
