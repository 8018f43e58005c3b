/**
 * Retrieval metrics at article level, as pure functions of rankings (no release, no I/O).
 *
 * Systems rank different things (ours and bm25-units rank units, FTS5 whole articles), and a question's
 * gold may name a paragraph or a point; both sides are therefore lifted to their article (or recital,
 * or annex) before comparing, so a system is not rewarded or punished for the granularity it ranks at.
 */

/** What a system returns for one query: up to 10 ranked nodes, and whether it called it out of scope. */
export interface Ranking {
  units: string[];
  outOfScope: boolean;
}

/** What article mapping needs of a unit. */
export interface UnitShape {
  kind: string;
  parent: string | null;
}

const ARTICLE_KINDS = new Set(["article", "recital", "annex"]);

/** The nearest ancestor-or-self of kind article, recital or annex; the node itself when there is none. */
export function articleOf(node: string, lookup: (node: string) => UnitShape | undefined): string {
  for (let at: string | null = node; at !== null; ) {
    const u = lookup(at);
    if (!u) break;
    if (ARTICLE_KINDS.has(u.kind)) return at;
    at = u.parent;
  }
  return node;
}

/** Ranked units to ranked distinct articles, in order of first occurrence. */
export function rankedArticles(units: readonly string[], toArticle: (node: string) => string): string[] {
  const out: string[] = [];
  for (const u of units) {
    const a = toArticle(u);
    if (!out.includes(a)) out.push(a);
  }
  return out;
}

export interface Scores {
  hit1: number;
  hit5: number;
  recall10: number;
  /** Reciprocal rank of the first gold article within the first 10, else 0. */
  rr: number;
}

/** One in-scope question's scores; `gold` is its non-empty set of gold articles. */
export function scoreRanking(articles: readonly string[], gold: ReadonlySet<string>): Scores {
  const top = articles.slice(0, 10);
  const first = top.findIndex((a) => gold.has(a));
  const found = new Set(top.filter((a) => gold.has(a))).size;
  return {
    hit1: first === 0 ? 1 : 0,
    hit5: first >= 0 && first < 5 ? 1 : 0,
    recall10: gold.size === 0 ? 0 : found / gold.size,
    rr: first >= 0 ? 1 / (first + 1) : 0,
  };
}

/** Means over a group of questions; null when the group is empty. */
export interface Rates {
  n: number;
  hit_at_1: number | null;
  hit_at_5: number | null;
  recall_at_10: number | null;
  mrr: number | null;
}

export function meanScores(scores: readonly Scores[]): Rates {
  const n = scores.length;
  const mean = (pick: (s: Scores) => number) =>
    n === 0 ? null : scores.reduce((t, s) => t + pick(s), 0) / n;
  return {
    n,
    hit_at_1: mean((s) => s.hit1),
    hit_at_5: mean((s) => s.hit5),
    recall_at_10: mean((s) => s.recall10),
    mrr: mean((s) => s.rr),
  };
}

export interface OutOfScopeRates {
  /** Questions the system called out of scope. */
  predicted: number;
  /** Questions of type out-of-scope. */
  actual: number;
  /** Both. */
  correct: number;
  /** null for 0/0: a system that never says "out of scope" has no precision, and fails a target. */
  precision: number | null;
  recall: number | null;
}

export function outOfScopeRates(calls: readonly { predicted: boolean; actual: boolean }[]): OutOfScopeRates {
  const predicted = calls.filter((c) => c.predicted).length;
  const actual = calls.filter((c) => c.actual).length;
  const correct = calls.filter((c) => c.predicted && c.actual).length;
  return {
    predicted,
    actual,
    correct,
    precision: predicted === 0 ? null : correct / predicted,
    recall: actual === 0 ? null : correct / actual,
  };
}

/** One question as a system answered it, lifted to articles. */
export interface Outcome {
  type: string;
  outOfScope: boolean;
  /** Gold articles (empty for out-of-scope questions). */
  gold: readonly string[];
  /** Ranked distinct articles. */
  articles: readonly string[];
  predictedOutOfScope: boolean;
}

export interface Summary {
  overall: Rates;
  /** In-scope types, in the order given. */
  by_type: Record<string, Rates>;
  out_of_scope: OutOfScopeRates;
}

/**
 * One system over a set of questions: retrieval metrics over the in-scope questions (overall and per
 * type in `types` order), out-of-scope precision and recall over all of them.
 */
export function summarise(outcomes: readonly Outcome[], types: readonly string[]): Summary {
  const inScope = outcomes.filter((o) => !o.outOfScope);
  const scored = inScope.map((o) => ({ type: o.type, s: scoreRanking(o.articles, new Set(o.gold)) }));
  const by_type: Record<string, Rates> = {};
  for (const t of types) by_type[t] = meanScores(scored.filter((x) => x.type === t).map((x) => x.s));
  return {
    overall: meanScores(scored.map((x) => x.s)),
    by_type,
    out_of_scope: outOfScopeRates(
      outcomes.map((o) => ({ predicted: o.predictedOutOfScope, actual: o.outOfScope })),
    ),
  };
}
