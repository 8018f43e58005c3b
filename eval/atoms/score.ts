/**
 * Scores the extractor against the atom labels (eval/atoms/labels.json): 240 atoms drawn at random
 * with a fixed seed (eval/atoms/draw.ts) and labelled from the text alone by a reader who never saw
 * what the extractor says of them (docs/obligations.md, "Atom quality").
 *
 *   node eval/atoms/score.ts [--json] [--misses] [--half dev|test] [--labels <file>] [--agreed-with <file>]
 *
 * --half scores one half only: dev (items 121-240, which rules may be tuned on) or test (items 1-120,
 * scored only to report). Read only the dev half's misses while tuning. --agreed-with keeps only the items
 * a second reader's labels give the same modality and addressee (what two readers agree on).
 *
 * Each labelled sentence is found again among the atoms the current rules extract from the same unit
 * (same node, overlapping span); a sentence the rules no longer extract counts as "not a duty".
 *   modality:  the atom's modality, or none, equals the label's;
 *   addressee: the atom's addressee equals the label's (none when there is no atom);
 *   actor:     over sentences both call a duty or permission of someone, the atom's actor names the
 *              labelled holder: the same words once determiners and plurals are set aside, or the
 *              same entity types through the actor map; when the atom's words name no party, the
 *              entity types the engine decided for it (applies_to, what a register uses), against
 *              the label's holder and, for a State's duty, the parties it binds through national law.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inWorkingTree } from "../../src/canon/reader.ts";
import { readObligationsCanon } from "../../src/obligations/canon.ts";
import { type ReleasedAtom, releaseAtoms } from "../../src/obligations/release-atoms.ts";
import { ActorMap } from "../../src/obligations/taxonomy.ts";
import { loadRelease } from "../../src/release/load.ts";
import { newestBuilt, releaseDir } from "../../src/release/releases.ts";

export interface Label {
  n: number;
  node: string;
  sentence: string;
  modality: "obligation" | "prohibition" | "permission" | "none";
  addressee: "regulated_party" | "member_state" | "public_authority" | "union_body" | "none";
  actor: string | null;
  through_national_law: string | null;
  note?: string;
}

export interface Score {
  items: number;
  modality: number;
  addressee: number;
  actor: number;
  actor_items: number;
  misses: { n: number; node: string; what: string; label: string; extracted: string }[];
}

const ROOT = join(import.meta.dirname, "..", "..");

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[‘’'"“”]/gu, "")
    .replace(/^(?:the|a|an|each|every|any|all|such|those|these|that|this|its|their)\s+/u, "")
    .split(/\s+/u)
    .map((w) => w.replace(/ies$/u, "y").replace(/(?<=[^s])s$/u, ""))
    .join(" ")
    .trim();

/**
 * How a holder's name is read through the actor map: as rules 15 read a subject, punctuation set apart
 * from words and a list naming each party ("the Commission, on behalf of the Union, or Member States";
 * "the manufacturer, the incoming notified body and …"). Before, a name with a comma after it matched
 * no phrase, and a label was scored against the next party it named. Fixed here, not the ledger's
 * rules, so that later rules cannot move the yardstick.
 */
const READING = 15;

/** Two ways of writing a holder name the same party: the same words once determiners and plurals are
 * set aside, or the same entity types through the actor map. */
export function sameHolder(x: string, y: string, act: string, map: ActorMap): boolean {
  const a = norm(x);
  const b = norm(y);
  const types = map.typesIn(x, act, READING).join();
  return (
    (a.length > 0 && b.length > 0 && (a.includes(b) || b.includes(a))) ||
    (types !== "" && types === map.typesIn(y, act, READING).join())
  );
}

/**
 * The entity types a label's holder names, as the engine writes a holder: a State's duty that binds
 * parties through national law ("Member States shall provide for controllers to maintain a record",
 * LED Art 24(1)) applies to the State and to those parties, so a thing-subject that follows it ("That
 * record shall contain: …") is compared with both, as the words "Member States" are when they are
 * the subject.
 */
function labelledTypes(l: Label, act: string, map: ActorMap): string[] {
  const own = map.typesIn(l.actor as string, act, READING);
  const bound =
    l.addressee === "member_state" && l.through_national_law
      ? map.typesIn(l.through_national_law, act, READING)
      : [];
  return [...new Set([...own, ...bound])].sort();
}

/** The labels of a labels file (eval/atoms/labels*.json). */
export const readLabels = (file: string): Label[] =>
  (JSON.parse(readFileSync(file, "utf8")) as { labels: Label[] }).labels;

export function score(labels: Label[], atoms: ReleasedAtom[], map: ActorMap): Score {
  const byNode = new Map<string, ReleasedAtom[]>();
  for (const a of atoms) byNode.set(a.node, [...(byNode.get(a.node) ?? []), a]);
  const s: Score = { items: labels.length, modality: 0, addressee: 0, actor: 0, actor_items: 0, misses: [] };
  for (const l of labels) {
    const candidates = byNode.get(l.node) ?? [];
    const atom =
      candidates.find((a) => a.quoted_text === l.sentence) ??
      candidates.find((a) => a.quoted_text.includes(l.sentence) || l.sentence.includes(a.quoted_text));
    const modality = atom?.modality ?? "none";
    const addressee = atom ? atom.addressee : "none";
    const miss = (what: string, label: string, extracted: string) =>
      s.misses.push({ n: l.n, node: l.node, what, label, extracted });
    if (modality === l.modality) s.modality++;
    else miss("modality", l.modality, modality);
    if (addressee === l.addressee) s.addressee++;
    else miss("addressee", l.addressee, addressee);
    if (atom && l.actor && l.modality !== "none") {
      s.actor_items++;
      const act = l.node.slice(0, l.node.indexOf("/"));
      const same =
        sameHolder(atom.actor, l.actor, act, map) ||
        // The holder the engine decided (what a register uses) when the words name no party: a
        // thing-subject ("The information referred to in paragraph 1 shall …") takes the preceding duty's;
        // so does a thing the actor map gives its usual keeper ("The measures"), which names no party either,
        // and a party a passive acts upon ("Authorised payment institutions shall be listed in the
        // register"), whose holder the engine reads elsewhere than in its subject (applies_to_basis).
        ((map.typesIn(atom.actor, act, READING).length === 0 ||
          map.isThing(atom.actor, act, READING) ||
          (atom.applies_to_basis !== "actor" && atom.applies_to_basis !== "actor and action")) &&
          atom.applies_to.length > 0 &&
          atom.applies_to.join() === labelledTypes(l, act, map).join());
      if (same) s.actor++;
      else miss("actor", l.actor, atom.actor);
    }
  }
  return s;
}

if (import.meta.main) {
  const at = process.argv.indexOf("--labels");
  const file = at > 0 ? (process.argv[at + 1] as string) : join(import.meta.dirname, "labels.json");
  const labelled = { labels: readLabels(file) };
  const h = process.argv.indexOf("--half");
  const half = h > 0 ? process.argv[h + 1] : undefined;
  if (half !== undefined && half !== "dev" && half !== "test") throw new Error("--half dev or --half test");
  // --agreed-with <labels>: only the items a second reader labelled the same modality and addressee,
  // the consensus of two readers (eval/atoms/agreement.ts).
  const w = process.argv.indexOf("--agreed-with");
  const second =
    w > 0
      ? new Map(readLabels(process.argv[w + 1] as string).map((l) => [`${l.n} ${l.node}`, l]))
      : undefined;
  const agreed = (l: Label) => {
    const o = second?.get(`${l.n} ${l.node}`);
    return (
      second === undefined || (o !== undefined && o.modality === l.modality && o.addressee === l.addressee)
    );
  };
  const labels = labelled.labels.filter(
    (l) => (half === undefined || (half === "dev" ? l.n > 120 : l.n <= 120)) && agreed(l),
  );
  const record = newestBuilt(ROOT, "eu");
  if (!record) throw new Error("build eu first: npx acquis build eu");
  const release = loadRelease(releaseDir(ROOT, "eu", record.tag));
  const canon = readObligationsCanon(inWorkingTree(ROOT), "eu");
  const { atoms } = releaseAtoms(release.units, canon, "eu", true);
  const s = score(labels, atoms, new ActorMap(canon.taxonomy));
  const pct = (n: number, d: number) => `${((n / Math.max(1, d)) * 100).toFixed(1)} %`;
  if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
  else {
    process.stdout.write(
      `${s.items} labelled atoms${half ? ` (${half} half)` : ""} (eu@${record.tag}, rules of the working tree's ledger)\n` +
        `  modality  ${pct(s.modality, s.items)}\n  addressee ${pct(s.addressee, s.items)}\n` +
        `  actor     ${pct(s.actor, s.actor_items)} of ${s.actor_items} duties and permissions both name a holder for\n`,
    );
    if (process.argv.includes("--misses"))
      for (const m of s.misses)
        process.stdout.write(`  #${m.n} ${m.node} ${m.what}: label ${m.label} / extractor ${m.extracted}\n`);
  }
}
