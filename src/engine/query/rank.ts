/**
 * Ranking over units with roll-up to provisions. A provision (article, recital, annex) scores as its
 * best unit, plus a share of its second best (a provision matching twice beats one matching once), plus
 * a share of its BM25 as one text (a question whose words spread over several paragraphs still finds
 * their article), scaled by how well its act as a whole fits the question (the act prior). Results
 * are diverse: each provision gives its best unit before any gives a second, unless the question is
 * about one provision (`focus`), whose units then come first. With several acts named, provisions
 * alternate between the acts. Every order breaks ties on corpus order, so a ranking is a function of
 * the release and the question.
 */
import type { Scored } from "../../search/chunk-index.ts";
import type { Engine } from "../context.ts";

/** How much a provision's second-best unit adds to its best. */
const SECOND_SHARE = 0.3;
/** How much the provision's BM25 as one text (all its units' words together) adds. */
const PROVISION_WEIGHT = 0.25;
/** The act prior's exponent: a provision's score is scaled by (its act's BM25 / the best act's) ** this. */
const ACT_PRIOR = 0.5;

export interface RankOptions {
  requested: number;
  admit: (doc: number) => boolean;
  /** Nodes already matched (cited, defining) and the provisions they stand for. */
  taken: Set<string>;
  takenGroups: Set<number>;
  /** Recitals explain the law; unless asked for, a recital's score counts at this share. */
  recitalWeight: number;
  /** Alternate between acts (the question names several). */
  spread: boolean;
  /** The provision the question is about, whose units fill the answer first. */
  focus: number | null;
  /** False: units by score alone, no roll-up and no diversity (mode `lexical`). */
  rollUp: boolean;
  /** BM25 of each provision as one text, and of each act as one text (null: not used). */
  groupScore: Float64Array | null;
  actScore: Float64Array | null;
  /** Per act, the share a specialised act's provisions count at for this question (null: all 1). */
  actGate: Float64Array | null;
}

interface Scratch {
  best: Int32Array;
  top: Float64Array;
  second: Float64Array;
  score: Float64Array;
  /** The admitted units' positions in the scoring, in doc order. */
  units: Int32Array;
}

/** Per-provision scratch, sized once per engine and reset after each ranking (queries run one at a time). */
const scratch = new WeakMap<Engine, Scratch>();

function scratchOf(e: Engine): Scratch {
  let s = scratch.get(e);
  if (!s) {
    s = {
      best: new Int32Array(e.groups.length).fill(-1),
      top: new Float64Array(e.groups.length),
      second: new Float64Array(e.groups.length),
      score: new Float64Array(e.release.index.size),
      units: new Int32Array(e.release.index.size),
    };
    scratch.set(e, s);
  }
  return s;
}

/** The units to match, best first, and how many scored units the admission let through. */
export function rank(e: Engine, scored: Scored, o: RankOptions): { docs: number[]; admitted: number } {
  const s = scratchOf(e);
  const { best, top, second, score, units } = s;
  // Admitted units, their (recital-weighted) scores, and per provision the best unit and two best scores.
  let admitted = 0;
  const touched: number[] = [];
  // Read once: the loop runs over every document the question touched, thousands per question.
  const { docs, scores } = scored;
  const { docRecital, docGroup } = e;
  const { admit, recitalWeight } = o;
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i] as number;
    if (!admit(doc)) continue;
    const v = (scores[i] as number) * (docRecital[doc] === 1 ? recitalWeight : 1);
    score[i] = v;
    units[admitted++] = i;
    const g = docGroup[doc] as number;
    if (best[g] === -1) {
      touched.push(g);
      best[g] = i;
      top[g] = v;
    } else if (v > (top[g] as number)) {
      second[g] = top[g] as number;
      top[g] = v;
      best[g] = i;
    } else if (v > (second[g] as number)) second[g] = v;
  }
  const totals = provisionTotals(e, scored, o, s, touched);
  const bestOf = touched.map((g) => scored.docs[best[g] as number] as number);
  for (const g of touched) {
    best[g] = -1;
    top[g] = 0;
    second[g] = 0;
  }
  const chosen = choose(e, scored, o, { score, units: units.subarray(0, admitted), touched, totals, bestOf });
  return { docs: chosen, admitted };
}

/**
 * Per touched provision, its total: its best unit's score, plus shares of its second best and of its BM25
 * as one text, scaled by its act's prior and gate.
 */
function provisionTotals(e: Engine, scored: Scored, o: RankOptions, s: Scratch, touched: number[]): number[] {
  const { best, top, second } = s;
  let maxAct = 0;
  if (o.actScore) for (const v of o.actScore) maxAct = Math.max(maxAct, v);
  // Each act's prior, raised once per act rather than once per provision (NaN: not yet raised).
  const prior = new Float64Array(o.actScore?.length ?? 0).fill(Number.NaN);
  return touched.map((g) => {
    const base =
      (top[g] as number) + SECOND_SHARE * (second[g] as number) + PROVISION_WEIGHT * (o.groupScore?.[g] ?? 0);
    const act = e.docAct[scored.docs[best[g] as number] as number] as number;
    const gate = o.actGate ? (o.actGate[act] as number) : 1;
    if (!o.actScore || maxAct === 0) return base * gate;
    if (Number.isNaN(prior[act])) prior[act] = ((o.actScore[act] as number) / maxAct) ** ACT_PRIOR;
    return base * (prior[act] as number) * gate;
  });
}

/**
 * A ranking's admitted units (positions in the scoring) with their scores, and its touched provisions,
 * each with its total and the doc of its best unit.
 */
interface Provisions {
  score: Float64Array;
  /** A view of the ranking's scratch: sorted in place when the units are taken by score. */
  units: Int32Array;
  touched: number[];
  totals: number[];
  bestOf: number[];
}

/**
 * The docs to match, in order: the focus provision's units first, then each provision's best unit by
 * total (alternating between acts when several are named), then the remaining units by score.
 */
function choose(e: Engine, scored: Scored, o: RankOptions, p: Provisions): number[] {
  const { score, units, touched, totals, bestOf } = p;
  const out: number[] = [];
  const chosen = new Set<number>();
  const docs = e.release.index.file.docs;
  const take = (doc: number) => {
    if (out.length >= o.requested || chosen.has(doc) || o.taken.has(docs[doc] as string)) return;
    chosen.add(doc);
    out.push(doc);
  };
  const byScore = (xs: Int32Array) =>
    xs.sort(
      (a, b) =>
        (score[b] as number) - (score[a] as number) ||
        (scored.docs[a] as number) - (scored.docs[b] as number),
    );
  if (o.focus !== null) {
    for (const i of byScore(units.filter((i) => e.docGroup[scored.docs[i] as number] === o.focus)))
      take(scored.docs[i] as number);
  }
  if (o.rollUp) {
    // Provisions in order of their totals (ties: the earlier provision); with several acts named, all of
    // them, to alternate; otherwise only as many as can still be taken.
    const want = o.spread ? touched.length : o.requested + o.takenGroups.size + 1;
    const order = topK(totals, touched, want);
    const lanes = o.spread
      ? alternate(order, (k) => e.actLane[e.docAct[bestOf[k] as number] as number] as number)
      : order;
    for (const k of lanes) {
      const g = touched[k] as number;
      if (o.takenGroups.has(g) && g !== o.focus) continue;
      take(bestOf[k] as number);
    }
  }
  if (out.length < o.requested) for (const i of byScore(units)) take(scored.docs[i] as number);
  return out;
}

/** Positions of the `k` highest totals, best first; ties go to the lower group (corpus order). */
function topK(totals: number[], groups: number[], k: number): number[] {
  const better = (a: number, b: number) =>
    (totals[a] as number) > (totals[b] as number) ||
    ((totals[a] as number) === (totals[b] as number) && (groups[a] as number) < (groups[b] as number));
  const out: number[] = [];
  for (let i = 0; i < totals.length; i++) {
    if (out.length === k && !better(i, out[k - 1] as number)) continue;
    let at = out.length;
    while (at > 0 && better(i, out[at - 1] as number)) at--;
    out.splice(at, 0, i);
    if (out.length > k) out.pop();
  }
  return out;
}

/** Round-robin between the acts, keeping each act's own order: a, b, a, b, ... then the rest. */
function alternate(order: number[], actOf: (k: number) => number): number[] {
  const queues = new Map<number, number[]>();
  for (const k of order) {
    const a = actOf(k);
    const lane = queues.get(a) ?? [];
    queues.set(a, lane);
    lane.push(k);
  }
  const lanes = [...queues.values()];
  const out: number[] = [];
  for (let i = 0; out.length < order.length; i++)
    for (const lane of lanes) if (i < lane.length) out.push(lane[i] as number);
  return out;
}
