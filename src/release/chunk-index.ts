/**
 * The chunk index: a BM25 index over units, built once per release and loaded by the servers.
 * Format (docs/formats.md#chunk-index): `index.json` with the analyser settings (vocabulary and the
 * corpus's defined terms as phrases), the indexed nodes in corpus order, their lengths, and one
 * postings list per term, as flat [doc, tf, doc, tf, ...] arrays with ascending doc numbers. A phrase
 * term is posted wherever its words stand in sequence. Terms are written in sorted order so the bytes
 * are deterministic.
 */
import type { Unit } from "../canon/model.ts";
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
}

/** What a unit contributes to the index: its own words, and for headed units their heading. */
function indexedText(u: Unit): string {
  return u.heading ? `${u.heading}\n${u.own_text}` : u.own_text;
}

export function buildIndex(units: Unit[]): IndexFile {
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
  return { format: INDEX_FORMAT, analyser, k1: 1.2, b: 0.75, docs, lengths, postings: sorted };
}

/** Every document a query touches, with its BM25 score: `docs[i]` scored `scores[i]`, in doc order. */
export interface Scored {
  docs: Int32Array;
  scores: Float64Array;
}

/** A loaded index answering BM25 queries. Ties break on corpus order, so results are deterministic. */
export class ChunkIndex {
  readonly file: IndexFile;
  readonly analyser: QueryAnalyser;
  private readonly avgdl: number;
  /** Scratch space reused across queries (a server answers one query at a time per process). */
  private readonly acc: Float64Array;
  private readonly mark: Uint8Array;

  constructor(file: IndexFile) {
    if (file.format !== INDEX_FORMAT)
      throw new Error(
        `chunk index: format "${file.format}" is not ${INDEX_FORMAT}; rebuild the release with this engine (acquis build <regime> --tag <tag> --force)`,
      );
    this.file = file;
    this.analyser = new QueryAnalyser(file.analyser, Object.keys(file.postings));
    this.avgdl = file.lengths.reduce((a, b) => a + b, 0) / Math.max(1, file.lengths.length);
    this.acc = new Float64Array(file.docs.length);
    this.mark = new Uint8Array(file.docs.length);
  }

  get size(): number {
    return this.file.docs.length;
  }

  /**
   * BM25 over coarser documents made of the indexed ones: `parent[doc]` says which (an article, an act),
   * `parentLengths` their lengths; a term's frequency in a parent is the sum over its docs. Returns a
   * score per parent (0 where no term occurs).
   */
  scoreParents(
    terms: QueryTerms,
    parent: Int32Array,
    parentLengths: Float64Array,
    k1 = 1.2,
    b = 0.75,
  ): Float64Array {
    const n = parentLengths.length;
    const avg = parentLengths.reduce((x, y) => x + y, 0) / Math.max(1, n);
    const out = new Float64Array(n);
    const tf = new Float64Array(n);
    const touched: number[] = [];
    for (const [term, weight] of terms) {
      const list = this.file.postings[term];
      if (!list) continue;
      for (let i = 0; i < list.length; i += 2) {
        const p = parent[list[i] as number] as number;
        if (tf[p] === 0) touched.push(p);
        tf[p] = (tf[p] as number) + (list[i + 1] as number);
      }
      const idf = weight * Math.log(1 + (n - touched.length + 0.5) / (touched.length + 0.5));
      for (const p of touched) {
        const f = tf[p] as number;
        out[p] =
          (out[p] as number) +
          (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * (parentLengths[p] as number)) / avg));
        tf[p] = 0;
      }
      touched.length = 0;
    }
    return out;
  }

  /** BM25 of each touched document, every term's contribution multiplied by its weight. */
  score(terms: QueryTerms): Scored {
    const { k1, b, lengths, postings, docs } = this.file;
    const n = docs.length;
    const touched: number[] = [];
    for (const [term, weight] of terms) {
      const list = postings[term];
      if (!list) continue;
      const df = list.length / 2;
      const idf = weight * Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i += 2) {
        const doc = list[i] as number;
        const tf = list[i + 1] as number;
        const norm = tf + k1 * (1 - b + (b * (lengths[doc] as number)) / this.avgdl);
        if (this.mark[doc] === 0) {
          this.mark[doc] = 1;
          this.acc[doc] = 0;
          touched.push(doc);
        }
        this.acc[doc] = (this.acc[doc] as number) + (idf * tf * (k1 + 1)) / norm;
      }
    }
    touched.sort((x, y) => x - y);
    const out = { docs: Int32Array.from(touched), scores: new Float64Array(touched.length) };
    for (let i = 0; i < touched.length; i++) {
      const d = touched[i] as number;
      out.scores[i] = this.acc[d] as number;
      this.mark[d] = 0;
    }
    return out;
  }
}
