/**
 * References read from a question, resolved to the units of the release they name. The act of a
 * reference is the act named right after it ("Article 33 GDPR", "Article 6(1)(f) of Regulation (EU)
 * 2016/679"), else right before it ("GDPR Article 33", "under DORA, Article 28"), else the only act the
 * question names; with none named, every act that has the provision, best matching first.
 * A path that runs past the text ("Article 33(9)") resolves to the deepest unit that exists, with a note.
 */
import type { Unit } from "../../canon/model.ts";
import type { Engine } from "../context.ts";
import type { Mention } from "../scope.ts";
import type { Reference } from "./citations.ts";

export interface Cited {
  unit: Unit;
  /** Set when the reference asked for more than the text has: what was asked, in words. */
  unresolved?: string;
  /** True when no act was named for it, so every act with the provision was taken. */
  ambiguous: boolean;
}

/** Between a reference and the act named after it: "of", "of the", "in", ",", nothing. */
const JOIN_AFTER = /^[\s,]*(?:(?:of|in|under|from|to)\s+)?(?:the\s+)?(?:new\s+|eu\s+)?$/iu;
/** Between an act named first and its reference: "GDPR Article 33", "GDPR, Art. 5", "DORA's Article 28". */
const JOIN_BEFORE = /^(?:['’]s)?[\s,:]*$/iu;

function actFor(ref: Reference, refs: Reference[], mentions: Mention[], query: string): string | null {
  const inside = mentions.find((m) => m.start < ref.end && m.end > ref.start);
  if (inside) return inside.act;
  // An ELI names its act itself; one the release does not hold is out of scope, never another act's.
  if (ref.eli) return null;
  const groupEnd = Math.max(...refs.filter((r) => r.group === ref.group).map((r) => r.end));
  const groupStart = Math.min(...refs.filter((r) => r.group === ref.group).map((r) => r.start));
  const after = mentions.find((m) => m.start >= groupEnd && JOIN_AFTER.test(query.slice(groupEnd, m.start)));
  if (after) return after.act;
  const before = [...mentions]
    .reverse()
    .find((m) => m.end <= groupStart && JOIN_BEFORE.test(query.slice(m.end, groupStart)));
  if (before) return before.act;
  // "Under DORA, what does Article 28 require": the nearest act named before, if no reference sits between.
  const earlier = [...mentions].reverse().find((m) => m.end <= groupStart);
  if (earlier && !refs.some((r) => r.group !== ref.group && r.start >= earlier.end && r.end <= groupStart))
    return earlier.act;
  const acts = [...new Set(mentions.map((m) => m.act))];
  return acts.length === 1 ? (acts[0] as string) : null;
}

/** One step down: a child numbered `step`, looking through unnumbered and subparagraph layers. */
function child(e: Engine, node: string, step: string): Unit | undefined {
  // A UN Regulation's dotted paragraph ("7.2.2.2") sits under its numbered heading by eId, at any depth.
  if (step.includes(".")) return e.release.byNode.get(`${node}__para_${step}`);
  const kids = e.children.get(node) ?? [];
  if (step.startsWith("subpara:")) {
    const n = step.slice("subpara:".length);
    // Subparagraphs carry no printed number; their place is in the eId ("…__subpara_2").
    return kids.find((k) => k.kind === "subparagraph" && (k.num === n || k.eid.endsWith(`__subpara_${n}`)));
  }
  const direct = kids.find((k) => k.num?.toLowerCase() === step && k.kind !== "subparagraph");
  if (direct) return direct;
  for (const k of kids) {
    if (k.kind !== "subparagraph") continue;
    const inner = (e.children.get(k.node) ?? []).find((g) => g.num?.toLowerCase() === step);
    if (inner) return inner;
  }
  return undefined;
}

function describe(ref: Reference): string {
  const steps = ref.path.map((p) => (p.startsWith("subpara:") ? `, subparagraph ${p.slice(8)}` : `(${p})`));
  const word = { art: "Article", rec: "Recital", anx: "Annex", chp: "Chapter" }[ref.top.kind];
  return `${word} ${ref.top.num}${steps.join("")}`;
}

function resolveIn(e: Engine, act: string, ref: Reference): Cited | null {
  if (ref.eli) {
    const exact = e.release.byNode.get(`${act}/${ref.eli.eid}`);
    if (exact) return { unit: exact, ambiguous: false };
    // Walk the ELI path down as far as it exists.
    const segs = ref.eli.eid.split("__");
    for (let n = segs.length - 1; n >= 1; n--) {
      const u = e.release.byNode.get(`${act}/${segs.slice(0, n).join("__")}`);
      if (u) return { unit: u, ambiguous: false, unresolved: ref.eli.eid };
    }
    return null;
  }
  const top = e.release.byNode.get(`${act}/${ref.top.kind}_${ref.top.num}`);
  if (!top) return null;
  let unit = top;
  for (const step of ref.path) {
    const next = child(e, unit.node, step);
    if (!next) return { unit, ambiguous: false, unresolved: describe(ref) };
    unit = next;
  }
  return { unit, ambiguous: false };
}

/**
 * Units the references name, in the order written. `admitted` says which acts a reference may land in
 * when none is named for it (the question's filters).
 */
export function resolveReferences(
  e: Engine,
  refs: Reference[],
  mentions: Mention[],
  query: string,
  admitted: (act: string) => boolean,
): Cited[] {
  const out: Cited[] = [];
  for (const ref of refs) {
    const act = actFor(ref, refs, mentions, query);
    if (ref.eli && !act) continue;
    if (act) {
      const hit = resolveIn(e, act, ref);
      if (hit) out.push(hit);
      continue;
    }
    for (const a of e.actOrder) {
      if (!admitted(a)) continue;
      const hit = resolveIn(e, a, ref);
      if (hit && !hit.unresolved) out.push({ ...hit, ambiguous: true });
    }
  }
  return out;
}
