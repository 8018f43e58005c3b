/**
 * Ranking over units with roll-up to provisions. A provision (article, recital, annex) scores as its
 * best unit plus a share of its second best, so a paragraph match lifts its article and an article
 * matching twice beats one matching once. Results are diverse: each provision gives its best unit
 * before any provision gives a second, unless the question is about one provision (`focus`), whose
 * units then come first. With several acts named, provisions alternate between the acts.
 * Every order breaks ties on corpus order, so a ranking is a function of the release and the question.
 */
import type { Scored } from "../../release/chunk-index.ts";
import type { Engine } from "../context.ts";

/** How much a provision's second-best unit adds to its best. */
const SECOND_SHARE = 0.3;

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
}

export function rank(e: Engine, scored: Scored, o: RankOptions): number[] {
  const best = new Map<number, { doc: number; score: number; second: number }>();
  const admitted: number[] = [];
  const score = new Float64Array(scored.docs.length);
  for (let i = 0; i < scored.docs.length; i++) {
    const doc = scored.docs[i] as number;
    if (!o.admit(doc)) continue;
    const s = (scored.scores[i] as number) * (e.docRecital[doc] === 1 ? o.recitalWeight : 1);
    score[i] = s;
    admitted.push(i);
    const g = e.docGroup[doc] as number;
    const b = best.get(g);
    if (!b) best.set(g, { doc, score: s, second: 0 });
    else if (s > b.score) best.set(g, { doc, score: s, second: b.score });
    else if (s > b.second) b.second = s;
  }
  const total = (g: number) => {
    const b = best.get(g) as { score: number; second: number };
    return b.score + SECOND_SHARE * b.second;
  };
  let order = [...best.keys()].sort((x, y) => total(y) - total(x) || x - y);
  if (o.spread) order = alternate(order, (g) => e.docAct[best.get(g)?.doc as number] as number);

  const out: number[] = [];
  const chosen = new Set<number>();
  const take = (doc: number) => {
    if (out.length >= o.requested || chosen.has(doc) || o.taken.has(e.release.index.file.docs[doc] as string))
      return;
    chosen.add(doc);
    out.push(doc);
  };
  const byScore = (xs: number[]) =>
    xs.sort(
      (a, b) =>
        (score[b] as number) - (score[a] as number) ||
        (scored.docs[a] as number) - (scored.docs[b] as number),
    );
  if (o.focus !== null) {
    for (const i of byScore(admitted.filter((i) => e.docGroup[scored.docs[i] as number] === o.focus)))
      take(scored.docs[i] as number);
  }
  if (o.rollUp) {
    for (const g of order) {
      if (o.takenGroups.has(g) && g !== o.focus) continue;
      take((best.get(g) as { doc: number }).doc);
    }
  }
  if (out.length < o.requested) for (const i of byScore(admitted)) take(scored.docs[i] as number);
  return out;
}

/** Round-robin between the acts, keeping each act's own order: a, b, a, b, ... then the rest. */
function alternate(order: number[], actOf: (g: number) => number): number[] {
  const queues = new Map<number, number[]>();
  for (const g of order) {
    const a = actOf(g);
    const lane = queues.get(a) ?? [];
    queues.set(a, lane);
    lane.push(g);
  }
  const lanes = [...queues.values()];
  const out: number[] = [];
  for (let i = 0; out.length < order.length; i++)
    for (const lane of lanes) if (i < lane.length) out.push(lane[i] as number);
  return out;
}
