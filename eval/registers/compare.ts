/**
 * Compares the engine's registers with the gold registers (eval/registers/gold/<profile>.yaml) at
 * article level: which articles bind the profile. The gold files were written from the act texts and
 * the profiles alone, before anyone compared them with the engine (eval/registers/README.md).
 *
 *   node eval/registers/compare.ts [--release eu@<tag>] [--working-tree] [--second] [--json] [profile …]
 *
 * --second compares with the second readers' registers (eval/registers/second/) instead of the gold.
 *
 * --working-tree decides with the canon of the working tree (scope, derogations, taxonomy, actors)
 * over the newest built release's units, for developing canon before it is tagged.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { inWorkingTree } from "../../src/canon/reader.ts";
import { createEngine } from "../../src/engine/context.ts";
import { obligations } from "../../src/engine/obligations.ts";
import { readObligationsCanon } from "../../src/obligations/canon.ts";
import { releaseAtoms } from "../../src/obligations/release-atoms.ts";
import { type LoadedRelease, loadRelease } from "../../src/release/load.ts";
import { newestBuilt, releaseDir } from "../../src/release/releases.ts";

export const GOLD_DIR = join(import.meta.dirname, "gold");

export interface GoldAct {
  act: string;
  binds?: string[];
  excluded?: { article: string; by?: string; reason?: string }[];
  undetermined?: { article: string; fact?: string }[];
  not_yet_applicable?: { article: string }[];
}
export interface Gold {
  profile: string;
  as_of: string;
  acts_not_applicable?: { act: string }[];
  acts_undetermined?: { act: string; fact?: string }[];
  acts?: GoldAct[];
  /** Written after the comparison, each with its reason: what the engine still gets wrong, or the gold. */
  disagreements?: { article: string; engine: string; gold: string; reason: string }[];
}

export interface Comparison {
  profile: string;
  as_of: string;
  engine: { applicable: number; excluded: number; undetermined: number; articles: number };
  gold: { articles: number };
  precision: number;
  recall: number;
  false_positives: string[];
  false_negatives: string[];
  unexplained: string[];
  /** Disagreements the gold file lists on which engine and gold now agree: explanations to remove. */
  stale: string[];
  /** Disagreements whose `engine:` is not what the engine now says of the article. */
  misstated: string[];
}

const articleOf = (act: string, eid: string) => {
  const head = eid.split("__")[0] ?? eid;
  return head.startsWith("art_") ? `${act}/${head}` : null;
};

/** A second reader's registers, written as the gold ones were, to measure how far two readers agree. */
export const SECOND_DIR = join(import.meta.dirname, "second");

/** The articles a register binds, as "act/art_n". */
export const bindsOf = (g: Gold): Set<string> =>
  new Set((g.acts ?? []).flatMap((a) => (a.binds ?? []).map((art) => `${a.act}/${art}`)));

export function readGold(profile: string, dir = GOLD_DIR): Gold {
  return parse(readFileSync(join(dir, `${profile}.yaml`), "utf8")) as Gold;
}

export function goldProfiles(dir = GOLD_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => f.slice(0, -5))
    .sort();
}

/**
 * What the engine says of each article it lists for a profile: binds, else undetermined, else
 * excluded (an undetermined duty may still bind). With the register's counts.
 */
export function engineArticles(
  release: LoadedRelease,
  profile: string,
  as_of: string,
): { binds: Set<string>; status: Map<string, string>; counts: Comparison["engine"] } {
  const engine = createEngine(release, {
    verification: { status: "verified", mode: "digests-only", checks: ["digests"] },
    disclaimer: { release: `${release.meta.regime}@${release.meta.tag}`, text: "" },
  });
  const p = obligations(engine, { entity_profile: profile, as_of }, as_of);
  const binds = new Set<string>();
  for (const d of p.applicable) {
    // A right the firm holds is listed in its register, but an article binds by its duties (TASK.md);
    // a right held against the firm (the data subject's right of access) is the firm's duty.
    if (d.modality === "permission" && !d.reasons.correlative) continue;
    const a = articleOf(d.act, d.unit_eid);
    if (a) binds.add(a);
  }
  const status = new Map<string, string>();
  for (const [list, said] of [
    [p.excluded, "excluded"],
    [p.undetermined, "undetermined"],
  ] as const)
    for (const d of list) {
      const a = articleOf(d.act, d.unit_eid);
      if (a) status.set(a, said);
    }
  for (const a of binds) status.set(a, "binds");
  return { binds, status, counts: { ...pick(p.counts), articles: binds.size } };
}

export function compare(release: LoadedRelease, gold: Gold): Comparison {
  const { binds, status, counts } = engineArticles(release, gold.profile, gold.as_of);
  const goldBinds = bindsOf(gold);
  const fp = [...binds].filter((a) => !goldBinds.has(a)).sort();
  const fn = [...goldBinds].filter((a) => !binds.has(a)).sort();
  const explained = new Set((gold.disagreements ?? []).map((d) => d.article));
  const hit = binds.size - fp.length;
  return {
    profile: gold.profile,
    as_of: gold.as_of,
    engine: counts,
    gold: { articles: goldBinds.size },
    precision: binds.size === 0 ? 1 : hit / binds.size,
    recall: goldBinds.size === 0 ? 1 : hit / goldBinds.size,
    false_positives: fp,
    false_negatives: fn,
    unexplained: [...fp, ...fn].filter((a) => !explained.has(a)),
    stale: [...explained].filter((a) => !fp.includes(a) && !fn.includes(a)).sort(),
    misstated: (gold.disagreements ?? [])
      .filter((d) => d.engine !== (status.get(d.article) ?? "not listed"))
      .map(
        (d) =>
          `${d.article}: the file says ${d.engine}, the engine ${status.get(d.article) ?? "does not list it"}`,
      ),
  };
}

const pick = (c: { applicable: number; excluded: number; undetermined: number }) => ({
  applicable: c.applicable,
  excluded: c.excluded,
  undetermined: c.undetermined,
});

/** The newest built release, or it with the working tree's obligations canon put in. */
export function releaseUnderTest(
  root: string,
  opts: { release?: string; workingTree?: boolean },
): LoadedRelease {
  const tag = opts.release?.split("@")[1] ?? newestBuilt(root, "eu")?.tag;
  if (!tag) throw new Error("build eu first: npx acquis build eu");
  const release = loadRelease(releaseDir(root, "eu", tag));
  if (!opts.workingTree) return release;
  const canon = readObligationsCanon(inWorkingTree(root), "eu");
  const { atoms } = releaseAtoms(release.units, canon, "eu", true);
  return {
    ...release,
    atoms,
    taxonomy: canon.taxonomy,
    profiles: canon.profiles,
    derogations: canon.derogations,
    facts: canon.facts,
    scope: canon.scope,
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const flag = (f: string) => args.includes(f);
  const value = (f: string) => {
    const i = args.indexOf(f);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const root = join(import.meta.dirname, "..", "..");
  const release = releaseUnderTest(root, {
    release: value("--release"),
    workingTree: flag("--working-tree"),
  });
  const named = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--release");
  const dir = flag("--second") ? SECOND_DIR : GOLD_DIR;
  const results = (named.length ? named : goldProfiles(dir)).map((p) => compare(release, readGold(p, dir)));
  if (flag("--json")) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else {
    for (const r of results) {
      process.stdout.write(
        `${r.profile} (${r.as_of}): engine ${r.engine.applicable} applicable / ${r.engine.excluded} excluded / ${r.engine.undetermined} undetermined atoms; ${r.engine.articles} articles bind, gold ${r.gold.articles}; precision ${(r.precision * 100).toFixed(1)} %, recall ${(r.recall * 100).toFixed(1)} %\n`,
      );
      if (flag("--verbose")) {
        process.stdout.write(
          `  engine only: ${r.false_positives.join(" ")}\n  gold only:   ${r.false_negatives.join(" ")}\n`,
        );
      }
    }
  }
}
