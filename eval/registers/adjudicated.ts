/**
 * Adjudicated registers: where two readers of the same profile (eval/registers/gold/ and second/) differ
 * on whether an article binds, a third reader decided from the text, seeing both readings and the law,
 * never the engine (eval/registers/README.md, "Adjudicated registers"). The register graded is what both
 * readers bind plus what the adjudicator binds. Which articles reach the adjudicator depends on the two
 * readers alone, so the engine's own mistakes are never singled out for a second look.
 *
 *   node eval/registers/adjudicated.ts [--working-tree] [--verbose] [profile …]
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { registerOf } from "./agreement.ts";
import { bindsOf, compare, type Gold, readGold, releaseUnderTest, SECOND_DIR } from "./compare.ts";

export const ADJUDICATED_DIR = join(import.meta.dirname, "adjudicated");

export type DecidedStatus = "binds" | "undetermined" | "excluded" | "not_yet_applicable" | "does_not_bind";

export interface Decision {
  article: string;
  status: DecidedStatus;
  provision?: string | null;
  fact?: string | null;
  /** 1: the first reading (gold/), 2: the second (second/), null: neither. */
  sides_with: 1 | 2 | null;
  reason: string;
}

export interface Adjudication {
  profile: string;
  as_of: string;
  decisions: Decision[];
  disagreements?: Gold["disagreements"];
}

/** The articles one reader binds and the other does not: what an adjudicator must decide. */
export function disputed(first: Gold, second: Gold): string[] {
  const a = bindsOf(first);
  const b = bindsOf(second);
  return [...a, ...b].filter((x) => a.has(x) !== b.has(x)).sort();
}

export function readAdjudication(profile: string): Adjudication {
  return parse(readFileSync(join(ADJUDICATED_DIR, `${profile}.yaml`), "utf8")) as Adjudication;
}

export function adjudicatedProfiles(): string[] {
  return readdirSync(ADJUDICATED_DIR)
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => f.slice(0, -5))
    .sort();
}

/**
 * The adjudicated register of a profile, to grade the engine against as a gold register is graded.
 * Throws when the adjudication does not decide exactly the articles the two readings dispute: a file
 * that decided others, or left one open, would not be the register this method defines.
 */
export function adjudicatedRegister(profile: string): Gold {
  const first = readGold(profile);
  const second = readGold(profile, SECOND_DIR);
  const adj = readAdjudication(profile);
  const open = disputed(first, second);
  const decided = adj.decisions.map((d) => d.article).sort();
  if (JSON.stringify(open) !== JSON.stringify(decided))
    throw new Error(
      `${profile}: the adjudication decides ${decided.join(" ")}; the readings dispute ${open.join(" ")}`,
    );
  const b = bindsOf(second);
  const agreed = [...bindsOf(first)].filter((x) => b.has(x));
  const won = adj.decisions.filter((d) => d.status === "binds").map((d) => d.article);
  return {
    ...registerOf(profile, adj.as_of, [...agreed, ...won].sort()),
    disagreements: adj.disagreements ?? [],
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const named = args.filter((a) => !a.startsWith("--"));
  const release = releaseUnderTest(join(import.meta.dirname, "..", ".."), {
    workingTree: args.includes("--working-tree"),
  });
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const known = adjudicatedProfiles();
  const unknown = named.filter((p) => !known.includes(p));
  if (unknown.length > 0) {
    process.stderr.write(
      `no adjudicated register for ${unknown.join(", ")}; there are: ${known.join(", ")}\n`,
    );
    process.exit(2);
  }
  for (const p of named.length ? named : known) {
    const adj = readAdjudication(p);
    const r = compare(release, adjudicatedRegister(p));
    const sides = (s: 1 | 2 | null) => adj.decisions.filter((d) => d.sides_with === s).length;
    process.stdout.write(
      `${p}: ${adj.decisions.length} disputed articles decided (first reading ${sides(1)}, second ${sides(2)}, neither ${sides(null)}); adjudicated register binds ${r.gold.articles}, engine ${r.engine.articles}; precision ${pct(r.precision)}, recall ${pct(r.recall)}\n`,
    );
    if (args.includes("--verbose"))
      process.stdout.write(
        `  engine only: ${r.false_positives.join(" ")}\n  register only: ${r.false_negatives.join(" ")}\n`,
      );
  }
}
