/**
 * The chunk index: a BM25 index over units, built once per release and loaded by the servers.
 * Format (docs/formats.md#chunk-index): `index.json` with the analyser settings, the indexed nodes in
 * corpus order, their lengths, and one postings list per term, as flat [doc, tf, doc, tf, ...] arrays
 * with ascending doc numbers. Terms are written in sorted order so the bytes are deterministic.
 */
import { stemmer } from "stemmer";
import type { Unit } from "../canon/model.ts";

export const INDEX_FORMAT = "acquis-bm25/1";

export interface IndexFile {
  format: string;
  analyser: { lowercase: true; stemmer: "porter"; stopwords: string[] };
  k1: number;
  b: number;
  docs: string[];
  lengths: number[];
  postings: Record<string, number[]>;
}

/** Function words and the drafting words nearly every provision carries. */
export const STOPWORDS = [
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "for",
  "from",
  "has",
  "have",
  "in",
  "into",
  "is",
  "it",
  "its",
  "of",
  "on",
  "or",
  "such",
  "that",
  "the",
  "their",
  "them",
  "these",
  "this",
  "those",
  "to",
  "was",
  "were",
  "where",
  "which",
  "with",
  "within",
  "shall",
  "may",
  "referred",
  "accordance",
  "pursuant",
];
const STOP = new Set(STOPWORDS);

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw === "" || STOP.has(raw)) continue;
    out.push(/^\p{N}+$/u.test(raw) ? raw : stemmer(raw));
  }
  return out;
}

/** What a unit contributes to the index: its own words, and for headed units their heading. */
function indexedText(u: Unit): string {
  return u.heading ? `${u.heading}\n${u.own_text}` : u.own_text;
}

export function buildIndex(units: Unit[]): IndexFile {
  const docs: string[] = [];
  const lengths: number[] = [];
  const postings = new Map<string, number[]>();
  for (const u of units) {
    const tokens = tokenize(indexedText(u));
    if (tokens.length === 0) continue;
    const doc = docs.length;
    docs.push(u.node);
    lengths.push(tokens.length);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      const list = postings.get(t) ?? [];
      postings.set(t, list);
      list.push(doc, n);
    }
  }
  const sorted: Record<string, number[]> = {};
  for (const t of [...postings.keys()].sort()) sorted[t] = postings.get(t) as number[];
  return {
    format: INDEX_FORMAT,
    analyser: { lowercase: true, stemmer: "porter", stopwords: STOPWORDS },
    k1: 1.2,
    b: 0.75,
    docs,
    lengths,
    postings: sorted,
  };
}

export interface Hit {
  node: string;
  score: number;
}

/** Every document a query touches, with its BM25 score: `docs[i]` scored `scores[i]`, in doc order. */
export interface Scored {
  docs: Int32Array;
  scores: Float64Array;
}

/** A loaded index answering BM25 queries. Ties break on corpus order, so results are deterministic. */
export class ChunkIndex {
  readonly file: IndexFile;
  private readonly avgdl: number;
  /** Scratch space reused across queries (a server answers one query at a time per process). */
  private readonly acc: Float64Array;
  private readonly mark: Uint8Array;

  constructor(file: IndexFile) {
    if (file.format !== INDEX_FORMAT) throw new Error(`chunk index: unsupported format "${file.format}"`);
    this.file = file;
    this.avgdl = file.lengths.reduce((a, b) => a + b, 0) / Math.max(1, file.lengths.length);
    this.acc = new Float64Array(file.docs.length);
    this.mark = new Uint8Array(file.docs.length);
  }

  get size(): number {
    return this.file.docs.length;
  }

  score(query: string): Scored {
    const { k1, b, lengths, postings, docs } = this.file;
    const n = docs.length;
    const touched: number[] = [];
    for (const term of new Set(tokenize(query))) {
      const list = postings[term];
      if (!list) continue;
      const df = list.length / 2;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
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

  /** The best `k` of the scored docs that `admit` lets through, best first (ties: corpus order). */
  static top(scored: Scored, k: number, admit: (doc: number) => boolean): number[] {
    const best: number[] = [];
    const worse = (i: number, j: number) =>
      (scored.scores[i] as number) < (scored.scores[j] as number) ||
      ((scored.scores[i] as number) === (scored.scores[j] as number) &&
        (scored.docs[i] as number) > (scored.docs[j] as number));
    for (let i = 0; i < scored.docs.length; i++) {
      if (best.length === k && !worse(best[k - 1] as number, i)) continue;
      if (!admit(scored.docs[i] as number)) continue;
      let at = best.length;
      while (at > 0 && worse(best[at - 1] as number, i)) at--;
      best.splice(at, 0, i);
      if (best.length > k) best.pop();
    }
    return best.map((i) => scored.docs[i] as number);
  }

  search(query: string, limit: number, admit?: (node: string) => boolean): Hit[] {
    const scored = this.score(query);
    const picked = ChunkIndex.top(scored, limit, (doc) => !admit || admit(this.file.docs[doc] as string));
    const at = new Map(Array.from(scored.docs, (d, i) => [d, i]));
    return picked.map((doc) => ({
      node: this.file.docs[doc] as string,
      score: scored.scores[at.get(doc) as number] as number,
    }));
  }
}
