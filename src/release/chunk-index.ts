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

/** A loaded index answering BM25 queries. Ties break on corpus order, so results are deterministic. */
export class ChunkIndex {
  readonly file: IndexFile;
  private readonly avgdl: number;

  constructor(file: IndexFile) {
    if (file.format !== INDEX_FORMAT) throw new Error(`chunk index: unsupported format "${file.format}"`);
    this.file = file;
    this.avgdl = file.lengths.reduce((a, b) => a + b, 0) / Math.max(1, file.lengths.length);
  }

  get size(): number {
    return this.file.docs.length;
  }

  search(query: string, limit: number, admit?: (node: string) => boolean): Hit[] {
    const { k1, b, lengths, postings, docs } = this.file;
    const n = docs.length;
    const scores = new Map<number, number>();
    for (const term of new Set(tokenize(query))) {
      const list = postings[term];
      if (!list) continue;
      const df = list.length / 2;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i += 2) {
        const doc = list[i] as number;
        const tf = list[i + 1] as number;
        const norm = tf + k1 * (1 - b + (b * (lengths[doc] as number)) / this.avgdl);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (k1 + 1)) / norm);
      }
    }
    const ranked = [...scores]
      .filter(([doc]) => !admit || admit(docs[doc] as string))
      .sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    return ranked.slice(0, limit).map(([doc, score]) => ({ node: docs[doc] as string, score }));
  }
}
