/**
 * Draws the atom-labelling sample (docs/obligations.md, "Atom quality"): 240 atoms of the newest eu
 * release at random, with a fixed seed. What the labeller sees is the text only (the duty's sentence, the
 * lead-in it completes, the article around it), never what the extractor said of it, so the labels are
 * written before anyone looks at the extractor's output. Labels go into
 * test/fixtures/extraction/atom-labels.json; `node eval/atoms/score.ts` compares.
 *
 *   node eval/atoms/draw.ts [seed] [--release eu@<tag>]
 *
 * The committed labels were drawn from eu@2026.11.2 with seed 20261125 (extraction rules 1).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { extractAtoms } from "../../src/obligations/atoms.ts";
import { loadRelease } from "../../src/release/load.ts";
import { newestBuilt, releaseDir } from "../../src/release/releases.ts";

const root = join(import.meta.dirname, "..", "..");
const args = process.argv.slice(2);
const at = args.indexOf("--release");
const pinned = at >= 0 ? args[at + 1]?.split("@")[1] : undefined;
const seed = Number(args.find((a, i) => !a.startsWith("--") && i !== at + 1) ?? 20261125);

/** mulberry32: a small, well-known seeded PRNG. */
function rng(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const record = pinned ? { tag: pinned } : newestBuilt(root, "eu");
if (!record) throw new Error("build eu first: npx acquis build eu");
const release = loadRelease(releaseDir(root, "eu", record.tag));
const byNode = new Map(release.units.map((u) => [u.node, u]));
const atoms = extractAtoms(release.units, 1);
const rand = rng(seed);
const copy = [...atoms];
const sample: typeof atoms = [];
while (sample.length < 240 && copy.length > 0)
  sample.push(copy.splice(Math.floor(rand() * copy.length), 1)[0] as (typeof atoms)[number]);

/** The article (or annex) a unit sits in: its top-level ancestor below the chapter. */
function article(node: string) {
  let u = byNode.get(node);
  while (
    u?.parent &&
    byNode.get(u.parent) &&
    !["chapter", "section", "title", "part"].includes(byNode.get(u.parent)?.kind ?? "")
  )
    u = byNode.get(u.parent);
  return u;
}

const out = {
  release: `eu@${record.tag}`,
  seed,
  instructions: "Label each item from the text alone; see eval/atoms/README.md.",
  items: sample.map((a, i) => {
    const art = article(a.node);
    return {
      n: i + 1,
      node: a.node,
      citation: byNode.get(a.node)?.citation ?? a.node,
      sentence: a.quoted_text,
      lead_in: a.lead_in ? (byNode.get(a.lead_in)?.own_text ?? null) : null,
      article: art
        ? `${art.citation}${art.heading ? ` (${art.heading})` : ""}\n${art.text.slice(0, 6000)}`
        : "",
    };
  }),
};
writeFileSync(join(root, "eval", "atoms", "sample.json"), `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`${sample.length} atoms over ${new Set(sample.map((a) => a.act)).size} acts\n`);
