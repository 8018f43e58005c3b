/**
 * Which act a question is about, as a weight per act (docs/retrieval.md, "Act router"). Each act has a
 * unigram language model mixing the words of questions asked about it (the router canon, counts only)
 * with the act's own words (from the chunk index's postings); a question's log-likelihood under each
 * act, relative to the best act, scales that act's provisions by exp(sharpness × Δ). An act no training
 * question was about still has its own words, so it is reachable, only less favoured.
 */
import type { RouterFile } from "../../search/act-router.ts";
import type { ChunkIndex } from "../../search/chunk-index.ts";

/** Additive smoothing: a pseudo-count per term over an assumed vocabulary size, per side. */
const PSEUDO = 0.01;
const CORPUS_VOCABULARY = 50_000;
const QUESTION_VOCABULARY = 5_000;

export class ActRouter {
  private readonly postings: Record<string, number[]>;
  private readonly docAct: Int32Array;
  private readonly acts: number;
  private readonly corpusLength: Float64Array;
  private readonly asked: Map<string, number>[];
  private readonly askedLength: Float64Array;
  private readonly logPrior: Float64Array;
  private readonly lambda: number;
  private readonly sharpness: number;
  /**
   * Per word of the index asked about so far, its log-probability under each act: a question's
   * likelihood is a sum of columns. A column is made from the word's postings the first time a question
   * uses it (the same numbers every time), so the engine starts without walking every posting.
   */
  private readonly columns = new Map<string, Float64Array>();

  constructor(router: RouterFile, index: ChunkIndex, actOrder: readonly string[], docAct: Int32Array) {
    const n = actOrder.length;
    this.postings = index.file.postings;
    this.docAct = docAct;
    this.acts = n;
    this.lambda = router.question_weight;
    this.sharpness = router.sharpness;
    // A document's length is its count of word terms, so an act's length is the sum of its documents'.
    this.corpusLength = new Float64Array(n);
    index.file.lengths.forEach((l, doc) => {
      const a = docAct[doc] as number;
      if (a >= 0) this.corpusLength[a] = (this.corpusLength[a] as number) + l;
    });
    this.asked = actOrder.map((id) => new Map(Object.entries(router.acts[id]?.terms ?? {})));
    this.askedLength = Float64Array.from(this.asked, (m) => [...m.values()].reduce((s, c) => s + c, 0));
    this.logPrior = Float64Array.from(actOrder, (id) => Math.log(1 + (router.acts[id]?.questions ?? 0)));
  }

  /** A word's column, kept when the index has the word (so the words kept are bounded by its vocabulary). */
  private columnOf(t: string): Float64Array {
    const kept = this.columns.get(t);
    if (kept) return kept;
    const column = this.column(t);
    if (this.postings[t] !== undefined) this.columns.set(t, column);
    return column;
  }

  /** A word's log-probability under each act's mixed model (release order). */
  private column(t: string): Float64Array {
    const n = this.acts;
    // Its count in each act's own words; phrases are counted through their words already.
    const counts = new Float64Array(n);
    const list = t.includes(" ") ? undefined : this.postings[t];
    if (list)
      for (let i = 0; i < list.length; i += 2) {
        const a = this.docAct[list[i] as number] as number;
        if (a >= 0) counts[a] = (counts[a] as number) + (list[i + 1] as number);
      }
    const out = new Float64Array(n);
    for (let a = 0; a < n; a++) {
      const cl = (this.corpusLength[a] as number) + PSEUDO * CORPUS_VOCABULARY;
      const al = (this.askedLength[a] as number) + PSEUDO * QUESTION_VOCABULARY;
      const pc = ((counts[a] as number) + PSEUDO) / cl;
      const pa = (((this.asked[a] as Map<string, number>).get(t) ?? 0) + PSEUDO) / al;
      out[a] = Math.log((1 - this.lambda) * pc + this.lambda * pa);
    }
    return out;
  }

  /** Per act (release order), the share its provisions count at for a question of these terms; null: no terms. */
  weights(terms: readonly string[]): Float64Array | null {
    if (terms.length === 0) return null;
    const n = this.acts;
    const columns = terms.map((t) => this.columnOf(t));
    const ll = new Float64Array(n);
    let best = Number.NEGATIVE_INFINITY;
    for (let a = 0; a < n; a++) {
      let s = this.logPrior[a] as number;
      for (const c of columns) s += c[a] as number;
      ll[a] = s;
      if (s > best) best = s;
    }
    for (let a = 0; a < n; a++) ll[a] = Math.exp(this.sharpness * ((ll[a] as number) - best));
    return ll;
  }
}
