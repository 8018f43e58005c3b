/**
 * How far two readers' registers of the same profile agree at article level: the second reader's
 * (eval/registers/second/) scored against the gold as the engine is, and the articles each alone binds.
 * What the register targets (precision 97 %, recall 95 %) can mean when two readers of the same texts
 * already differ.
 *
 *   node eval/registers/agreement.ts [--verbose] [--engine [--working-tree]] [profile …]
 *
 * --engine also scores the engine against both readers at once: an article it binds is wrong only when
 * neither reader binds it (precision over their union), and one it misses only when both bind it
 * (recall over their intersection). What two readers dispute is not counted either way.
 */
import { join } from "node:path";
import {
  bindsOf,
  compare,
  GOLD_DIR,
  type Gold,
  goldProfiles,
  readGold,
  releaseUnderTest,
  SECOND_DIR,
} from "./compare.ts";

export interface ReaderAgreement {
  profile: string;
  gold: number;
  second: number;
  both: number;
  /** The second reader's articles the gold also binds, as a share of the second reader's. */
  precision: number;
  /** The gold's articles the second reader also binds, as a share of the gold's. */
  recall: number;
  gold_only: string[];
  second_only: string[];
}

/** A register binding `articles` ("act/art_n"), to score the engine against. */
export function registerOf(profile: string, as_of: string, articles: Iterable<string>): Gold {
  const byAct = new Map<string, string[]>();
  for (const a of articles) {
    const [act, art] = a.split("/") as [string, string];
    byAct.set(act, [...(byAct.get(act) ?? []), art]);
  }
  return { profile, as_of, acts: [...byAct].map(([act, binds]) => ({ act, binds })) };
}

export function readerAgreement(gold: Gold, second: Gold): ReaderAgreement {
  const a = bindsOf(gold);
  const b = bindsOf(second);
  const both = [...b].filter((x) => a.has(x)).length;
  return {
    profile: gold.profile,
    gold: a.size,
    second: b.size,
    both,
    precision: b.size === 0 ? 1 : both / b.size,
    recall: a.size === 0 ? 1 : both / a.size,
    gold_only: [...a].filter((x) => !b.has(x)).sort(),
    second_only: [...b].filter((x) => !a.has(x)).sort(),
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const named = args.filter((a) => !a.startsWith("--"));
  const release = args.includes("--engine")
    ? releaseUnderTest(join(import.meta.dirname, "..", ".."), {
        workingTree: args.includes("--working-tree"),
      })
    : undefined;
  for (const p of named.length ? named : goldProfiles(SECOND_DIR)) {
    const r = readerAgreement(readGold(p, GOLD_DIR), readGold(p, SECOND_DIR));
    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    process.stdout.write(
      `${p}: gold binds ${r.gold} articles, second reader ${r.second}, both ${r.both}; second against gold: precision ${pct(r.precision)}, recall ${pct(r.recall)}\n`,
    );
    if (args.includes("--verbose"))
      process.stdout.write(
        `  gold only:   ${r.gold_only.join(" ")}\n  second only: ${r.second_only.join(" ")}\n`,
      );
    if (release) {
      const gold = readGold(p, GOLD_DIR);
      const a = bindsOf(gold);
      const b = bindsOf(readGold(p, SECOND_DIR));
      const union = compare(release, registerOf(p, gold.as_of, new Set([...a, ...b])));
      const both = compare(
        release,
        registerOf(
          p,
          gold.as_of,
          [...a].filter((x) => b.has(x)),
        ),
      );
      process.stdout.write(
        `  engine against both readers: precision ${pct(union.precision)} (over their union), recall ${pct(both.recall)} (over their intersection)\n`,
      );
      if (args.includes("--verbose"))
        process.stdout.write(
          `  engine only:  ${union.false_positives.join(" ")}\n  engine lacks: ${both.false_negatives.join(" ")}\n`,
        );
    }
  }
}
