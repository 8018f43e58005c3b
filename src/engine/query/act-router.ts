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
  private readonly corpus: Map<string, number>[];
  private readonly corpusLength: Float64Array;
  private readonly asked: Map<string, number>[];
  private readonly askedLength: Float64Array;
  private readonly logPrior: Float64Array;
  private readonly lambda: number;
  private readonly sharpness: number;
  /**
   * Per term of the acts' words or their questions, its log-probability under each act: a question's
   * likelihood is then a sum of looked-up columns, not two map lookups and a log per act and word.
   */
  private readonly columns = new Map<string, Float64Array>();

  constructor(router: RouterFile, index: ChunkIndex, actOrder: readonly string[], docAct: Int32Array) {
    const n = actOrder.length;
    this.lambda = router.question_weight;
    this.sharpness = router.sharpness;
    this.corpus = actOrder.map(() => new Map());
    // A document's length is its count of word terms, so an act's length is the sum of its documents'.
    this.corpusLength = new Float64Array(n);
    index.file.lengths.forEach((l, doc) => {
      const a = docAct[doc] as number;
      if (a >= 0) this.corpusLength[a] = (this.corpusLength[a] as number) + l;
    });
    for (const [term, list] of Object.entries(index.file.postings)) {
      if (term.includes(" ")) continue; // phrases are counted through their words already
      for (let i = 0; i < list.length; i += 2) {
        const a = docAct[list[i] as number] as number;
        if (a < 0) continue;
        const m = this.corpus[a] as Map<string, number>;
        m.set(term, (m.get(term) ?? 0) + (list[i + 1] as number));
      }
    }
    this.asked = actOrder.map((id) => new Map(Object.entries(router.acts[id]?.terms ?? {})));
    this.askedLength = Float64Array.from(this.asked, (m) => [...m.values()].reduce((s, c) => s + c, 0));
    this.logPrior = Float64Array.from(actOrder, (id) => Math.log(1 + (router.acts[id]?.questions ?? 0)));
    for (const side of [this.corpus, this.asked])
      for (const m of side)
        for (const t of m.keys()) if (!this.columns.has(t)) this.columns.set(t, this.column(t));
  }

  /** A term's log-probability under each act's mixed model (release order). */
  private column(t: string): Float64Array {
    const n = this.corpus.length;
    const out = new Float64Array(n);
    for (let a = 0; a < n; a++) {
      const cl = (this.corpusLength[a] as number) + PSEUDO * CORPUS_VOCABULARY;
      const al = (this.askedLength[a] as number) + PSEUDO * QUESTION_VOCABULARY;
      const pc = (((this.corpus[a] as Map<string, number>).get(t) ?? 0) + PSEUDO) / cl;
      const pa = (((this.asked[a] as Map<string, number>).get(t) ?? 0) + PSEUDO) / al;
      out[a] = Math.log((1 - this.lambda) * pc + this.lambda * pa);
    }
    return out;
  }

  /** Per act (release order), the share its provisions count at for a question of these terms; null: no terms. */
  weights(terms: readonly string[]): Float64Array | null {
    if (terms.length === 0) return null;
    const n = this.corpus.length;
    const columns = terms.map((t) => this.columns.get(t) ?? this.column(t));
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
