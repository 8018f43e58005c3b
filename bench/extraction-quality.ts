/**
 * Scores the extractor against the hand-checked sample (test/fixtures/extraction/sample.json):
 * precision of modality, actor and executable value over the 100 sampled atoms, and recall over the
 * duties annotated in 30 articles. The verdicts say what is right; the current extractor is scored
 * against them, so the numbers move as extraction improves.
 *
 *   node bench/extraction-quality.ts
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Atom, extractAtoms } from "../src/obligations/atoms.ts";
import { loadRelease } from "../src/release/load.ts";
import { newestBuilt, releaseDir } from "../src/release/releases.ts";

interface Verdict {
  modality: true | string | null;
  actor: true | string | null;
  executable_value: true | number | string | null;
  note?: string;
}
interface SampleAtom {
  key: string;
  quoted_text: string;
  extracted: { modality: string; actor: string; executable_value: number | string | null };
  verdict: Verdict;
}
interface Duty {
  node: string;
  modality: string;
  text: string;
}

const root = join(import.meta.dirname, "..");
export const sample = JSON.parse(
  readFileSync(join(root, "test", "fixtures", "extraction", "sample.json"), "utf8"),
) as {
  atoms: SampleAtom[];
  articles: { node: string; duties: Duty[] }[];
};

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/^(?:the|a|an)\s+/u, "")
    .replace(/\s+/gu, " ")
    .trim();

export function score(atoms: Atom[]) {
  const byNode = new Map<string, Atom[]>();
  for (const a of atoms) byNode.set(a.node, [...(byNode.get(a.node) ?? []), a]);
  let modality = 0;
  let actor = 0;
  // The issue defines the actor as "the phrase as written": where the reviewer named the holder of a
  // duty whose grammatical subject is a document ("That report"), the subject as written also counts.
  let actorAsWritten = 0;
  let value = 0;
  for (const s of sample.atoms) {
    const node = s.key.slice(0, s.key.indexOf("#"));
    const now = (byNode.get(node) ?? []).find(
      (a) => a.quoted_text === s.quoted_text || a.quoted_text.includes(s.quoted_text.slice(0, 40)),
    );
    const truthModality = s.verdict.modality === true ? s.extracted.modality : s.verdict.modality;
    if (truthModality === "not_a_duty") {
      // Right when the extractor no longer states a duty here; the other fields follow.
      const right = now === undefined ? 1 : 0;
      modality += right;
      actor += s.verdict.actor === true || right ? 1 : 0;
      actorAsWritten += s.verdict.actor === true || right ? 1 : 0;
      value += s.verdict.executable_value === true || right ? 1 : 0;
      continue;
    }
    if (!now) continue;
    if (now.modality === truthModality) modality++;
    const truthActor = s.verdict.actor === true ? s.extracted.actor : (s.verdict.actor as string);
    if (norm(now.actor) === norm(truthActor)) actor++;
    const thing = /^passive\/thing subject/u.test(s.verdict.note ?? "");
    if (norm(now.actor) === norm(truthActor) || (thing && norm(now.actor) === norm(s.extracted.actor)))
      actorAsWritten++;
    const truthValue =
      s.verdict.executable_value === true ? s.extracted.executable_value : s.verdict.executable_value;
    if (JSON.stringify(now.executable_value) === JSON.stringify(truthValue)) value++;
  }
  let duties = 0;
  let found = 0;
  for (const art of sample.articles) {
    for (const d of art.duties) {
      duties++;
      const head = norm(d.text).slice(0, 25);
      const hit = (byNode.get(d.node) ?? []).some(
        (a) => norm(a.quoted_text).includes(head) || norm(a.action).includes(head.slice(0, 15)),
      );
      if (hit) found++;
    }
  }
  const n = sample.atoms.length;
  return {
    modality: modality / n,
    actor: actor / n,
    actor_as_written: actorAsWritten / n,
    executable_value: value / n,
    recall: found / duties,
    duties,
  };
}

if (import.meta.main) {
  const record = newestBuilt(root, "eu");
  if (!record) throw new Error("build eu first");
  const release = loadRelease(releaseDir(root, "eu", record.tag));
  const r = score(extractAtoms(release.units));
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  process.stdout.write(
    `precision over ${sample.atoms.length} sampled atoms: modality ${pct(r.modality)}, actor ${pct(r.actor)} (holder of the duty; ${pct(r.actor_as_written)} as written), executable value ${pct(r.executable_value)}\nrecall over ${r.duties} annotated duties in ${sample.articles.length} articles: ${pct(r.recall)}\n`,
  );
}
