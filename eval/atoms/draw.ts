/**
 * Draws the atom-labelling sample (docs/obligations.md, "Atom quality"): 240 atoms of the newest eu
 * release at random, with a fixed seed. What the labeller sees is the text only (the duty's sentence, the
 * lead-in it completes, the article around it), never what the extractor said of it, so the labels are
 * written before anyone looks at the extractor's output. Labels go into
 * test/fixtures/extraction/atom-labels.json; `node eval/atoms/score.ts` compares.
 *
 *   node eval/atoms/draw.ts [seed] [--release eu@<tag>] [--count n] [--exclude <sample.json>] [--out <file>]
 *                           [--rules n --new-since m]
 *
 * `--rules n --new-since m` draws among the atoms rules n read that rules m did not (the annex items rules
 * 8 read: `node eval/atoms/draw.ts 20261128 --rules 8 --new-since 7 --count 80 --out
 * eval/atoms/sample-annex.json`); an item whose lead-in is in its own unit (an annex's list) shows the
 * text around it instead of the whole annex.
 *
 * The committed labels were drawn from eu@2026.11.2 with seed 20261125 (extraction rules 1). The second
 * dev sample (labels-dev2.json) was drawn from the same release with seed 20261126, 150 atoms, excluding
 * the sentences of the first: `node eval/atoms/draw.ts 20261126 --release eu@2026.11.2 --count 150
 * --exclude eval/atoms/sample.json --out eval/atoms/sample-dev2.json`. The third (labels-dev3.json), 200
 * atoms with seed 20261127 leaving out both: `node eval/atoms/draw.ts 20261127 --release eu@2026.11.2
 * --count 200 --exclude eval/atoms/sample.json,eval/atoms/sample-dev2.json --out eval/atoms/sample-dev3.json`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extractAtoms } from "../../src/obligations/atoms.ts";
import { loadRelease } from "../../src/release/load.ts";
import { newestBuilt, releaseDir } from "../../src/release/releases.ts";

const root = join(import.meta.dirname, "..", "..");
const args = process.argv.slice(2);
const at = args.indexOf("--release");
const pinned = at >= 0 ? args[at + 1]?.split("@")[1] : undefined;
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const valued = new Set(["--release", "--count", "--exclude", "--out", "--rules", "--new-since"]);
const seed = Number(args.find((a, i) => !a.startsWith("--") && !valued.has(args[i - 1] ?? "")) ?? 20261125);
const count = Number(option("--count") ?? 240);
const excluded = option("--exclude");
const outFile = option("--out") ?? join("eval", "atoms", "sample.json");

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
// --exclude takes one file or several, comma-separated: a new sample leaves out every earlier one.
const drawnBefore = new Set(
  (excluded?.split(",") ?? []).flatMap((file) =>
    (JSON.parse(readFileSync(file, "utf8")) as { items: { node: string; sentence: string }[] }).items.map(
      (i) => `${i.node}\n${i.sentence}`,
    ),
  ),
);
const rules = Number(option("--rules") ?? 1);
const since = option("--new-since");
const readBefore = new Set(
  since === undefined
    ? []
    : extractAtoms(release.units, Number(since)).map((a) => `${a.node}\n${a.quoted_text}`),
);
const atoms = extractAtoms(release.units, rules).filter(
  (a) => !drawnBefore.has(`${a.node}\n${a.quoted_text}`) && !readBefore.has(`${a.node}\n${a.quoted_text}`),
);
const rand = rng(seed);
const copy = [...atoms];
const sample: typeof atoms = [];
while (sample.length < count && copy.length > 0)
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

/** For an item of an annex's own list, the line ending with a colon that it completes. */
function ownLeadIn(a: (typeof atoms)[number]): string | null {
  const text = byNode.get(a.node)?.own_text ?? "";
  const colon = text.lastIndexOf(":", text.indexOf(a.quoted_text));
  return colon < 0 ? null : text.slice(text.lastIndexOf("\n", colon) + 1, colon + 1).trim();
}

/** The article's text, or for an item of an annex's own list the 6 000 characters around it. */
function around(text: string, a: (typeof atoms)[number]): string {
  if (a.lead_in !== a.node) return text.slice(0, 6000);
  const at = Math.max(0, text.indexOf(a.quoted_text) - 4000);
  return `${at > 0 ? "… " : ""}${text.slice(at, at + 6000)}`;
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
      lead_in:
        a.lead_in === a.node ? ownLeadIn(a) : a.lead_in ? (byNode.get(a.lead_in)?.own_text ?? null) : null,
      article: art ? `${art.citation}${art.heading ? ` (${art.heading})` : ""}\n${around(art.text, a)}` : "",
    };
  }),
};
writeFileSync(join(root, outFile), `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`${sample.length} atoms over ${new Set(sample.map((a) => a.act)).size} acts\n`);
