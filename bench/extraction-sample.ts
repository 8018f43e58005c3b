/**
 * Draws the extraction-quality sample (docs/obligations.md): 100 atoms of the newest eu release at
 * random over at least 10 acts, and 30 articles for recall, with a fixed seed so the draw is
 * reproducible. Writes test/fixtures/extraction/sample.json; verdicts are added by hand.
 *
 *   node bench/extraction-sample.ts [seed]
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { extractAtoms } from "../src/obligations/atoms.ts";
import { loadRelease } from "../src/release/load.ts";
import { newestBuilt, releaseDir } from "../src/release/releases.ts";

const root = join(import.meta.dirname, "..");
const seed = Number(process.argv[2] ?? 20261122);

/** mulberry32: a small, well-known seeded PRNG. */
function rng(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const record = newestBuilt(root, "eu");
if (!record) throw new Error("build eu first");
const release = loadRelease(releaseDir(root, "eu", record.tag));
const atoms = extractAtoms(release.units);
const rand = rng(seed);
const pick = <T>(xs: T[], n: number): T[] => {
  const copy = [...xs];
  const out: T[] = [];
  while (out.length < n && copy.length > 0)
    out.push(copy.splice(Math.floor(rand() * copy.length), 1)[0] as T);
  return out;
};
const sample = pick(atoms, 100);
const acts = new Set(sample.map((a) => a.act));
if (acts.size < 10) throw new Error(`sample spans ${acts.size} acts; draw another seed`);
const articles = pick(
  release.units.filter(
    (u) => u.kind === "article" && atoms.some((a) => a.node.startsWith(`${u.node}__`) || a.node === u.node),
  ),
  30,
);
const out = {
  release: `eu@${record.tag}`,
  seed,
  atoms: sample.map((a) => ({
    key: a.key,
    quoted_text: a.quoted_text,
    lead_in: a.lead_in,
    extracted: {
      modality: a.modality,
      actor: a.actor,
      executable_unit: a.executable_unit,
      executable_value: a.executable_value,
    },
    verdict: { modality: null, actor: null, executable_value: null, note: "" },
  })),
  articles: articles.map((u) => ({ node: u.node, citation: u.citation, duties: [] as unknown[] })),
};
writeFileSync(
  join(root, "test", "fixtures", "extraction", "sample.json"),
  `${JSON.stringify(out, null, 2)}\n`,
);
process.stdout.write(`${sample.length} atoms over ${acts.size} acts, ${articles.length} articles\n`);
