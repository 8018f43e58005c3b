/**
 * The chunk index: a BM25 index over units, built once per release and loaded by the servers.
 * Format (docs/formats.md#chunk-index): `index.json` with the analyser settings (vocabulary and the
 * corpus's defined terms as phrases), the indexed nodes in corpus order, their lengths, and one
 * postings list per term, as flat [doc, tf, doc, tf, ...] arrays with ascending doc numbers. A phrase
 * term is posted wherever its words stand in sequence. Terms are written in sorted order so the bytes
 * are deterministic.
 */
import type { Unit } from "../canon/model.ts";
import type { RouterFile } from "./act-router.ts";
import {
  type AnalyserSettings,
  analyserSettings,
  QueryAnalyser,
  type QueryTerms,
  SequenceMatcher,
  tokenize,
} from "./analyser.ts";

export const INDEX_FORMAT = "acquis-bm25/2";

export interface IndexFile {
  format: string;
  analyser: AnalyserSettings;
  k1: number;
  b: number;
  docs: string[];
  lengths: number[];
  postings: Record<string, number[]>;
  /** The regime's act router (docs/retrieval.md, "Act router"), when its canon has one. */
  router?: RouterFile;
}

/** What a unit contributes to the index: its own words, and for headed units their heading. */
function indexedText(u: Unit): string {
  return u.heading ? `${u.heading}\n${u.own_text}` : u.own_text;
}

export function buildIndex(units: Unit[], router: RouterFile | null = null): IndexFile {
  const analyser = analyserSettings(units.flatMap((u) => (u.defines ? [u.defines] : [])));
  const phrases = new SequenceMatcher(analyser.phrases);
  const docs: string[] = [];
  const lengths: number[] = [];
  const postings = new Map<string, number[]>();
  for (const u of units) {
    const tokens = tokenize(indexedText(u));
    if (tokens.length === 0) continue;
    const doc = docs.length;
    docs.push(u.node);
    // A phrase adds a posting, not length: the unit holds as many words as before.
    lengths.push(tokens.length);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const p of phrases.findAll(tokens)) tf.set(p, (tf.get(p) ?? 0) + 1);
    for (const [t, n] of tf) {
      const list = postings.get(t) ?? [];
      postings.set(t, list);
      list.push(doc, n);
    }
  }
  const sorted: Record<string, number[]> = {};
  for (const t of [...postings.keys()].sort()) sorted[t] = postings.get(t) as number[];
  const file: IndexFile = {
    format: INDEX_FORMAT,
    analyser,
    k1: 1.2,
    b: 0.75,
    docs,
    lengths,
    postings: sorted,
  };
  if (router) file.router = router;
  return file;
}

/**
 * A term's postings at one weight, as BM25 adds them: `adds[i]` is what the term adds to document
 * `docs[i]`, computed with the same arithmetic a query would use, so reading it changes no score by a bit.
 * A function of the index alone; there are three weights (word, family, synonym), so at most three per term.
 */
interface Impacts {
  docs: Int32Array;
  adds: Float64Array;
}

/**
 * Every document a query touches, with its BM25 score: `docs[i]` scored `scores[i]`, in doc order. Both
 * are views of the index's own buffers, valid until it scores the next query (an engine answers one
 * query at a time).
 */
export interface Scored {
  docs: Int32Array;
  scores: Float64Array;
  /** Per level asked for, a score per coarser document (0 where no term occurs). These are the levels'
   * own buffers, valid until the level scores the next query. */
  levels: Float64Array[];
}

/** A loaded index answering BM25 queries. Ties break on corpus order, so results are deterministic. */
export class ChunkIndex {
  readonly file: IndexFile;
  readonly analyser: QueryAnalyser;
  /** Per document, BM25's length normalisation k1 * (1 - b + b * length / avgdl), computed once. */
  private readonly norm: Float64Array;
  /** Scratch space reused across queries (a server answers one query at a time per process). */
  private readonly acc: Float64Array;
  /** One bit per document: touched by the query being scored. Read 32 documents at a time, lowest first. */
  private readonly touched: Uint32Array;
  private readonly outDocs: Int32Array;
  private readonly outScores: Float64Array;
  /** Per term and weight, its documents and what it adds to each: computed on first use, then read. */
  private readonly impacts = new Map<string, Impacts>();

  constructor(file: IndexFile) {
    if (file.format !== INDEX_FORMAT)
      throw new Error(
        `chunk index: format "${file.format}" is not ${INDEX_FORMAT}; rebuild the release with this engine (acquis build <regime> --tag <tag> --force)`,
      );
    this.file = file;
    this.analyser = new QueryAnalyser(file.analyser, Object.keys(file.postings));
    const avgdl = file.lengths.reduce((a, b) => a + b, 0) / Math.max(1, file.lengths.length);
    this.norm = Float64Array.from(file.lengths, (l) => file.k1 * (1 - file.b + (file.b * l) / avgdl));
    this.acc = new Float64Array(file.docs.length);
    this.touched = new Uint32Array(Math.ceil(file.docs.length / 32));
    this.outDocs = new Int32Array(file.docs.length);
    this.outScores = new Float64Array(file.docs.length);
  }

  get size(): number {
    return this.file.docs.length;
  }

  /**
   * BM25 of each touched document, every term's contribution multiplied by its weight; and, for each
   * of `levels`, BM25 of the coarser documents the indexed ones make up (articles, acts), all in one
   * walk of the postings.
   */
  score(terms: QueryTerms, levels: Level[] = []): Scored {
    const { k1, b, postings } = this.file;
    const { acc, touched: bits } = this;
    let touched = 0;
    for (const l of levels) l.clear();
    for (const [term, weight] of terms) {
      const list = postings[term];
      if (!list) continue;
      const key = `${weight}\u0000${term}`;
      const { docs: hit, adds } = impactOf(this.impacts, key, () => this.impactsOf(list, weight));
      for (let i = 0; i < hit.length; i++) {
        const doc = hit[i] as number;
        const bit = 1 << (doc & 31);
        if (((bits[doc >>> 5] as number) & bit) === 0) {
          bits[doc >>> 5] = (bits[doc >>> 5] as number) | bit;
          acc[doc] = 0;
          touched++;
        }
        acc[doc] = (acc[doc] as number) + (adds[i] as number);
      }
      for (const l of levels) l.addTerm(key, list, weight, k1, b);
    }
    // The touched documents in doc order, a word of the bitset at a time, lowest bit first: cheaper than
    // sorting them or testing every document, and written into buffers a query never allocates.
    const { outDocs, outScores } = this;
    let k = 0;
    for (let w = 0; k < touched; w++) {
      let word = bits[w] as number;
      if (word === 0) continue;
      bits[w] = 0;
      while (word !== 0) {
        const lowest = word & -word;
        const d = (w << 5) + 31 - Math.clz32(lowest);
        outDocs[k] = d;
        outScores[k] = acc[d] as number;
        k++;
        word ^= lowest;
      }
    }
    return {
      docs: outDocs.subarray(0, touched),
      scores: outScores.subarray(0, touched),
      levels: levels.map((l) => l.scores),
    };
  }

  /** A term's documents and its BM25 in each, at a weight. */
  private impactsOf(list: readonly number[], weight: number): Impacts {
    const { k1, docs } = this.file;
    const { norm } = this;
    const n = docs.length;
    const df = list.length / 2;
    const scale = weight * Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (k1 + 1);
    const impact: Impacts = { docs: new Int32Array(df), adds: new Float64Array(df) };
    for (let i = 0; i < list.length; i += 2) {
      const doc = list[i] as number;
      const tf = list[i + 1] as number;
      impact.docs[i / 2] = doc;
      impact.adds[i / 2] = (scale * tf) / (tf + (norm[doc] as number));
    }
    return impact;
  }
}

/** A term's impacts from a cache, made the first time they are asked for. */
function impactOf(cache: Map<string, Impacts>, key: string, make: () => Impacts): Impacts {
  let impact = cache.get(key);
  if (!impact) {
    impact = make();
    cache.set(key, impact);
  }
  return impact;
}

/**
 * A coarser level of documents for BM25: `parent[doc]` names the one each indexed document belongs to
 * (-1: none), `lengths` their lengths. A term's frequency in a parent is the sum over its documents.
 * Each parent's documents stand together in doc order (a provision's units, an act's provisions), so a
 * term's postings give each parent as one run. Holds scratch space, so one level serves one query at a time.
 */
export class Level {
  readonly parent: Int32Array;
  readonly lengths: Float64Array;
  private readonly avg: number;
  /** The parents of the term being added, one per run, and their summed frequencies. */
  private readonly runParent: Int32Array;
  private readonly runTf: Float64Array;
  /** Scores of the last query, per parent; reused, so a query allocates nothing per parent. */
  readonly scores: Float64Array;
  private readonly scored: number[] = [];
  /** Per term and weight, the parents it occurs in and what it adds to each (see `Impacts`). */
  private readonly impacts = new Map<string, Impacts>();

  constructor(parent: Int32Array, lengths: Float64Array) {
    let last = -1;
    for (const p of parent) {
      if (p < 0) continue;
      if (p < last)
        throw new Error(
          `BM25 level: parent ${p} comes after ${last}; a parent's documents must stand together`,
        );
      last = p;
    }
    this.parent = parent;
    this.lengths = lengths;
    this.avg = lengths.reduce((x, y) => x + y, 0) / Math.max(1, lengths.length);
    this.runParent = new Int32Array(lengths.length);
    this.runTf = new Float64Array(lengths.length);
    this.scores = new Float64Array(lengths.length);
  }

  /** Zeroes the scores the last query left. */
  clear(): void {
    for (const p of this.scored) this.scores[p] = 0;
    this.scored.length = 0;
  }

  /**
   * Adds a term's BM25 to the scores, from its postings ([doc, tf, ...], docs ascending) and weight;
   * `key` names the term and weight, whose per-parent additions are computed once.
   */
  addTerm(key: string, list: readonly number[], weight: number, k1: number, b: number): void {
    const out = this.scores;
    const { docs: parents, adds } = impactOf(this.impacts, key, () => this.impactsOf(list, weight, k1, b));
    for (let r = 0; r < parents.length; r++) {
      const p = parents[r] as number;
      if (out[p] === 0) this.scored.push(p);
      out[p] = (out[p] as number) + (adds[r] as number);
    }
  }

  /** A term's parents, one per run of its postings, and its BM25 in each. */
  private impactsOf(list: readonly number[], weight: number, k1: number, b: number): Impacts {
    const { parent, runParent, runTf } = this;
    let runs = 0;
    let current = -1;
    for (let i = 0; i < list.length; i += 2) {
      const p = parent[list[i] as number] as number;
      if (p < 0) continue;
      if (p !== current) {
        current = p;
        runParent[runs] = p;
        runTf[runs] = 0;
        runs++;
      }
      runTf[runs - 1] = (runTf[runs - 1] as number) + (list[i + 1] as number);
    }
    const n = this.lengths.length;
    const idf = weight * Math.log(1 + (n - runs + 0.5) / (runs + 0.5));
    const impact: Impacts = { docs: runParent.slice(0, runs), adds: new Float64Array(runs) };
    for (let r = 0; r < runs; r++) {
      const p = runParent[r] as number;
      const f = runTf[r] as number;
      impact.adds[r] =
        (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * (this.lengths[p] as number)) / this.avg));
    }
    return impact;
  }
}
