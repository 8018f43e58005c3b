/**
 * Baseline: plain BM25 (k1 1.2, b 0.75) over every unit's heading and own text, with no query
 * understanding: lowercase letter/digit runs, Porter-stemmed, no stop words, no citation parsing, no
 * act names. It is deliberately its own code, not src/search/chunk-index.ts, so the baseline stays
 * fixed while our index changes; the gap between it and ours is what the query handling and the index
 * choices add. No result means "out of scope".
 */
import { stemmer } from "stemmer";
import type { Unit } from "../../src/canon/model.ts";
import type { System } from "../systems.ts";

const K1 = 1.2;
const B = 0.75;
const LIMIT = 10;

export function bm25Tokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((t) => stemmer(t));
}

export function bm25System(units: readonly Pick<Unit, "node" | "heading" | "own_text">[]): System {
  const docs = units.map((u) => u.node);
  const lengths = new Float64Array(units.length);
  /** term -> [doc, tf, doc, tf, ...] with ascending doc numbers. */
  const postings = new Map<string, number[]>();
  units.forEach((u, doc) => {
    const tokens = bm25Tokens(u.heading ? `${u.heading}\n${u.own_text}` : u.own_text);
    lengths[doc] = tokens.length;
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      const list = postings.get(t);
      if (list) list.push(doc, n);
      else postings.set(t, [doc, n]);
    }
  });
  const avgdl = lengths.reduce((s, l) => s + l, 0) / Math.max(1, lengths.length);
  const N = docs.length;

  return {
    name: "bm25-units",
    rank(query) {
      const scores = new Float64Array(N);
      const touched: number[] = [];
      // Each distinct query term once: repeating a word in a question should not double its weight.
      for (const term of new Set(bm25Tokens(query))) {
        const list = postings.get(term);
        if (!list) continue;
        const df = list.length / 2;
        const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
        for (let i = 0; i < list.length; i += 2) {
          const doc = list[i] as number;
          const tf = list[i + 1] as number;
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] =
            (scores[doc] as number) +
            (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * (lengths[doc] as number)) / avgdl));
        }
      }
      // Ties by corpus order: the sort is on (score desc, doc asc).
      const best = touched
        .sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b)
        .slice(0, LIMIT)
        .map((doc) => docs[doc] as string);
      return { units: best, outOfScope: best.length === 0 };
    },
  };
}
