/**
 * How far two readers' registers of the same profile agree at article level: the second reader's
 * (eval/registers/second/) scored against the gold as the engine is, and the articles each alone binds.
 * What the register targets (precision 97 %, recall 95 %) can mean when two readers of the same texts
 * already differ.
 *
 *   node eval/registers/agreement.ts [--verbose] [profile …]
 */
import { GOLD_DIR, type Gold, goldProfiles, readGold, SECOND_DIR } from "./compare.ts";

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

const bindsOf = (g: Gold) =>
  new Set((g.acts ?? []).flatMap((a) => (a.binds ?? []).map((art) => `${a.act}/${art}`)));

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
  }
}
