/**
 * The analyser: how text becomes index terms, and how a question becomes weighted query terms. The
 * same code reads provisions at build time and questions at serve time, so both sides agree on every
 * term. Terms are Porter stems of lowercase words, American spellings folded first; a phrase term is
 * the stems of a defined term joined by one space (a key no single word can collide with).
 */
import { stemmer } from "stemmer";
import { lowerBound } from "./sorted.ts";
import {
  FAMILY_WEIGHT,
  QUERY_STOPWORDS,
  SPELLING,
  STOPWORDS,
  SYNONYM_WEIGHT,
  SYNONYMS,
} from "./vocabulary.ts";

/** What a release's index records of its analyser (index.json `analyser`). */
export interface AnalyserSettings {
  lowercase: true;
  stemmer: "porter";
  stopwords: string[];
  query_stopwords: string[];
  spelling: Record<string, string>;
  /** Analysed everyday term -> analysed expansions. */
  synonyms: Record<string, string[]>;
  synonym_weight: number;
  /** How much a word of the same family as a query word counts (notify: notification, erase: erasure). */
  family_weight: number;
  /** The corpus's defined terms of two words or more, analysed, sorted. */
  phrases: string[];
}

/** A phrase is at most this many terms; longer defined terms are read word by word. */
const PHRASE_MAX = 8;
const STOP = new Set(STOPWORDS);

/** "-ize", "-yze" and their inflections, folded to "-ise", "-yse". */
const AMERICAN_Z = /(?<=[a-z]{3})(i|y)z(e|es|ed|ing|ation|ations|er|ers)$/u;

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
}

function stem(word: string): string {
  if (/^\p{N}+$/u.test(word)) return word;
  const folded = SPELLING[word] ?? word.replace(AMERICAN_Z, "$1s$2");
  return stemmer(folded);
}

/** Index terms of a text, in order, stop words removed. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (!STOP.has(w)) out.push(stem(w));
  return out;
}

/** The analyser settings a release is built with: the vocabulary, and the phrases its acts define. */
export function analyserSettings(definedTerms: Iterable<string>): AnalyserSettings {
  const phrases = new Set<string>();
  for (const term of definedTerms) {
    const t = tokenize(term);
    if (t.length >= 2 && t.length <= PHRASE_MAX) phrases.add(t.join(" "));
  }
  const synonyms: Record<string, string[]> = {};
  for (const key of Object.keys(SYNONYMS).sort()) {
    const k = tokenize(key).join(" ");
    const values = (SYNONYMS[key] as string[]).map((v) => tokenize(v).join(" ")).filter((v) => v !== "");
    if (k !== "" && values.length > 0) synonyms[k] = [...new Set([...(synonyms[k] ?? []), ...values])];
  }
  return {
    lowercase: true,
    stemmer: "porter",
    stopwords: STOPWORDS,
    query_stopwords: QUERY_STOPWORDS,
    spelling: SPELLING,
    synonyms,
    synonym_weight: SYNONYM_WEIGHT,
    family_weight: FAMILY_WEIGHT,
    phrases: [...phrases].sort(),
  };
}

/** Finds known multi-term sequences (phrases, synonym keys) in a run of terms. */
export class SequenceMatcher {
  private readonly known: Set<string>;
  private readonly longest: number;

  constructor(sequences: Iterable<string>) {
    this.known = new Set(sequences);
    let longest = 1;
    for (const s of this.known) longest = Math.max(longest, s.split(" ").length);
    this.longest = longest;
  }

  /** Every known sequence at every position, overlaps included (what a text contains). */
  *findAll(terms: string[]): Generator<string> {
    for (let i = 0; i < terms.length; i++) {
      for (let n = 2; n <= Math.min(this.longest, terms.length - i); n++) {
        const key = terms.slice(i, i + n).join(" ");
        if (this.known.has(key)) yield key;
      }
    }
  }

  /** Known sequences in a run of terms, longest first, left to right, without overlap (what a question names). */
  *find(terms: string[]): Generator<{ start: number; length: number; key: string }> {
    let i = 0;
    while (i < terms.length) {
      let found = 0;
      for (let n = Math.min(this.longest, terms.length - i); n >= 1 && found === 0; n--) {
        const key = terms.slice(i, i + n).join(" ");
        if (this.known.has(key)) {
          found = n;
          yield { start: i, length: n, key };
        }
      }
      i += found > 0 ? found : 1;
    }
  }
}

/** A question analysed: each term with its weight, in sorted term order (scores sum deterministically). */
export type QueryTerms = [term: string, weight: number][];

export class QueryAnalyser {
  private readonly phrases: SequenceMatcher;
  private readonly synonymKeys: SequenceMatcher;
  private readonly settings: AnalyserSettings;
  private readonly queryStop: Set<string>;

  /** The index's single-word terms, sorted: where word families are looked up. */
  private readonly vocabulary: string[];

  constructor(settings: AnalyserSettings, vocabulary: string[] = []) {
    this.settings = settings;
    this.vocabulary = vocabulary.filter((t) => !t.includes(" ")).sort();
    this.phrases = new SequenceMatcher(settings.phrases);
    this.synonymKeys = new SequenceMatcher(Object.keys(settings.synonyms));
    this.queryStop = new Set(settings.query_stopwords);
  }

  /**
   * `plain`: the words alone (no phrases, no synonyms), as a bare BM25 would read them. Otherwise the
   * words, each defined term the question uses as a phrase, and the synonym layer's expansions at
   * their lower weight.
   */
  terms(query: string, opts: { plain?: boolean } = {}): QueryTerms {
    // Question words are dropped as written ("regulation", not the stem "regul" that "regulated" shares),
    // but stay in the run that phrases and synonyms are read from ("law enforcement authority").
    const kept = words(query).filter((w) => !STOP.has(w));
    const stems = kept.map(stem);
    const weights = new Map<string, number>();
    const add = (term: string, weight: number) => {
      if (term !== "" && (weights.get(term) ?? 0) < weight) weights.set(term, weight);
    };
    kept.forEach((w, i) => {
      if (this.queryStop.has(w)) return;
      add(stems[i] as string, 1);
      if (!opts.plain) for (const f of this.family(stems[i] as string)) add(f, this.settings.family_weight);
    });
    if (!opts.plain) {
      const phrase = (terms: string[], weight: number) => {
        for (const m of this.phrases.find(terms)) add(m.key, weight);
      };
      phrase(stems, 1);
      const w = this.settings.synonym_weight;
      for (const m of this.synonymKeys.find(stems)) {
        for (const expansion of this.settings.synonyms[m.key] ?? []) {
          const parts = expansion.split(" ");
          for (const p of parts) add(p, w);
          phrase(parts, w);
        }
      }
    }
    return [...weights].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /**
   * Index terms of the same word family as a stem, which Porter's suffix rules leave apart: the stem
   * with at most two letters more or fewer at its end ("notifi": "notif"; "eras": "erasur"; "stole":
   * "stolen"). Stems under four letters have none: too many short words share their beginnings.
   */
  family(stem: string): string[] {
    if (stem.length < 4 || /\d/u.test(stem)) return [];
    const out: string[] = [];
    for (let n = Math.max(4, stem.length - 2); n < stem.length; n++) {
      const shorter = stem.slice(0, n);
      if (this.isTerm(shorter)) out.push(shorter);
    }
    const lo = lowerBound(this.vocabulary, stem);
    for (let i = lo; i < this.vocabulary.length && (this.vocabulary[i] as string).startsWith(stem); i++) {
      const t = this.vocabulary[i] as string;
      if (t !== stem && t.length - stem.length <= 2) out.push(t);
    }
    return out;
  }

  private isTerm(t: string): boolean {
    return this.vocabulary[lowerBound(this.vocabulary, t)] === t;
  }
}
