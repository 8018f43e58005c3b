/** The evaluation metrics on hand-made rankings, and the split rule against a direct computation. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import {
  articleOf,
  outOfScopeRates,
  rankedArticles,
  scoreRanking,
  summarise,
  type UnitShape,
} from "../../eval/metrics.ts";
import { splitOf } from "../../eval/split.ts";

const units: Record<string, UnitShape> = {
  "a/chp_I": { kind: "chapter", parent: null },
  "a/art_1": { kind: "article", parent: "a/chp_I" },
  "a/art_1__para_1": { kind: "paragraph", parent: "a/art_1" },
  "a/art_1__para_1__point_a": { kind: "point", parent: "a/art_1__para_1" },
  "a/rec_3": { kind: "recital", parent: null },
  "a/anx_I__point_2": { kind: "point", parent: "a/anx_I" },
  "a/anx_I": { kind: "annex", parent: null },
};
const lookup = (n: string) => units[n];

test("a unit lifts to its nearest article, recital or annex, else itself", () => {
  assert.equal(articleOf("a/art_1__para_1__point_a", lookup), "a/art_1");
  assert.equal(articleOf("a/art_1", lookup), "a/art_1");
  assert.equal(articleOf("a/rec_3", lookup), "a/rec_3");
  assert.equal(articleOf("a/anx_I__point_2", lookup), "a/anx_I");
  assert.equal(articleOf("a/chp_I", lookup), "a/chp_I");
  assert.equal(articleOf("a/unknown", lookup), "a/unknown");
});

test("ranked units become distinct articles in first-seen order", () => {
  const ranked = rankedArticles(
    ["a/art_1__para_1", "a/rec_3", "a/art_1", "a/art_1__para_1__point_a", "a/anx_I__point_2"],
    (n) => articleOf(n, lookup),
  );
  assert.deepEqual(ranked, ["a/art_1", "a/rec_3", "a/anx_I"]);
});

test("hit@1, hit@5, recall@10 and reciprocal rank", () => {
  const ranking = ["x1", "x2", "g1", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "g2"];
  assert.deepEqual(scoreRanking(ranking, new Set(["g1", "g2"])), {
    hit1: 0,
    hit5: 1,
    recall10: 0.5,
    rr: 1 / 3,
  });
  assert.deepEqual(scoreRanking(["g"], new Set(["g"])), { hit1: 1, hit5: 1, recall10: 1, rr: 1 });
  // A gold article at rank 6 is a miss at 5 but counts for recall@10 and MRR.
  const sixth = ["x1", "x2", "x3", "x4", "x5", "g"];
  assert.deepEqual(scoreRanking(sixth, new Set(["g"])), { hit1: 0, hit5: 0, recall10: 1, rr: 1 / 6 });
  // Beyond 10 counts for nothing.
  assert.deepEqual(scoreRanking(ranking, new Set(["g2"])), { hit1: 0, hit5: 0, recall10: 0, rr: 0 });
  assert.deepEqual(scoreRanking([], new Set(["g"])), { hit1: 0, hit5: 0, recall10: 0, rr: 0 });
});

test("out-of-scope precision and recall; 0/0 is null", () => {
  const rates = outOfScopeRates([
    { predicted: true, actual: true },
    { predicted: true, actual: false },
    { predicted: false, actual: true },
    { predicted: false, actual: false },
  ]);
  assert.deepEqual(rates, { predicted: 2, actual: 2, correct: 1, precision: 0.5, recall: 0.5 });
  const never = outOfScopeRates([{ predicted: false, actual: true }]);
  assert.equal(never.precision, null);
  assert.equal(never.recall, 0);
});

test("summaries average in-scope questions overall and by type, out of scope over all", () => {
  const s = summarise(
    [
      { type: "keyword", outOfScope: false, gold: ["g"], articles: ["g"], predictedOutOfScope: false },
      { type: "keyword", outOfScope: false, gold: ["g"], articles: ["x", "g"], predictedOutOfScope: false },
      { type: "citation", outOfScope: false, gold: ["g"], articles: [], predictedOutOfScope: true },
      { type: "out-of-scope", outOfScope: true, gold: [], articles: [], predictedOutOfScope: true },
    ],
    ["keyword", "citation", "definition"],
  );
  assert.equal(s.overall.n, 3);
  assert.equal(s.overall.hit_at_1, 1 / 3);
  assert.equal(s.overall.mrr, (1 + 0.5 + 0) / 3);
  assert.deepEqual(s.by_type.keyword, { n: 2, hit_at_1: 0.5, hit_at_5: 1, recall_at_10: 1, mrr: 0.75 });
  assert.deepEqual(s.by_type.definition, {
    n: 0,
    hit_at_1: null,
    hit_at_5: null,
    recall_at_10: null,
    mrr: null,
  });
  assert.deepEqual(s.out_of_scope, { predicted: 2, actual: 1, correct: 1, precision: 0.5, recall: 1 });
});

test("the split is the first byte of SHA-256(id) mod 3", () => {
  for (const id of ["cp-001", "dd-014", "fs-042", "sample", ""]) {
    const byte = createHash("sha256").update(id).digest()[0] as number;
    assert.equal(splitOf(id), byte % 3 === 0 ? "held-out" : "dev", id);
  }
});
