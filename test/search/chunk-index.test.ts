/**
 * The chunk index (src/search/chunk-index.ts): BM25 postings over made-up units, phrases of defined
 * terms posted as one term, scores that prefer the rarer word and the shorter unit, and coarser levels
 * (provisions, acts) scored in the same walk.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Unit } from "../../src/canon/model.ts";
import { tokenize } from "../../src/search/analyser.ts";
import { buildIndex, ChunkIndex, INDEX_FORMAT, Level } from "../../src/search/chunk-index.ts";

const unit = (eid: string, own: string, extra: Partial<Unit> = {}) =>
  ({ node: `x/${eid}`, act: "x", eid, own_text: own, heading: null, ...extra }) as Unit;

const UNITS = [
  unit("art_1", "", { heading: "Definitions" }),
  unit("art_1__point_1", "‘serious incident’ means any incident that harms a person.", {
    defines: "serious incident",
  }),
  unit("art_2", "Manufacturers shall notify any serious incident within 72 hours."),
  unit("art_3", "Manufacturers shall keep records of widgets and of incidents and of widgets sold."),
  unit("art_4", "The of and to."),
];
const file = buildIndex(UNITS);
const index = new ChunkIndex(file);
const key = (w: string) => tokenize(w).join(" ");

describe("the chunk index", () => {
  test("units with words are indexed in corpus order, with their lengths; headings count as words", () => {
    assert.equal(file.format, INDEX_FORMAT);
    assert.deepEqual(file.docs, ["x/art_1", "x/art_1__point_1", "x/art_2", "x/art_3"]);
    assert.equal(file.lengths[0], 1, "the heading alone");
    assert.equal(index.size, 4);
  });

  test("postings are [doc, tf, …] in ascending doc order; terms are sorted; a defined term is also a phrase", () => {
    assert.deepEqual(file.postings[key("manufacturers")], [2, 1, 3, 1]);
    assert.deepEqual(file.postings[key("widgets")], [3, 2]);
    assert.deepEqual(file.postings[key("serious incident")], [1, 1, 2, 1]);
    assert.deepEqual(file.analyser.phrases, [key("serious incident")]);
    const terms = Object.keys(file.postings);
    assert.deepEqual(terms, [...terms].sort());
  });

  test("a router given at build time is carried in the file", () => {
    const router = {
      format: "acquis-act-router/1" as const,
      trained_on: "t",
      question_weight: 0.5,
      sharpness: 1,
      acts: {},
    };
    assert.deepEqual(buildIndex(UNITS, router).router, router);
    assert.equal(file.router, undefined);
  });

  test("BM25 scores the documents a query touches, in doc order; a rarer word weighs more", () => {
    const s = index.score([[key("notify"), 1]]);
    assert.deepEqual([...s.docs], [2]);
    assert.ok((s.scores[0] as number) > 0);
    const both = index.score([
      [key("records"), 1],
      [key("manufacturers"), 1],
    ]);
    assert.deepEqual([...both.docs], [2, 3]);
    assert.ok((both.scores[1] as number) > (both.scores[0] as number), "art_3 has both words");
    assert.deepEqual([...index.score([["nosuchterm", 1]]).docs], []);
  });

  test("a term's weight scales its contribution; scoring twice gives the same scores", () => {
    // A scoring is a view of the index's buffers until the next query, so each is copied before the next.
    const one = [...index.score([[key("incident"), 1]]).scores];
    const half = [...index.score([[key("incident"), 0.5]]).scores];
    assert.ok(Math.abs((half[0] as number) * 2 - (one[0] as number)) < 1e-12);
    assert.deepEqual([...index.score([[key("incident"), 1]]).scores], one);
  });

  test("levels score the coarser documents the indexed ones make up, in the same walk", () => {
    // art_1 and its point are one provision (0); art_2 and art_3 are each their own (1, 2).
    const level = new Level(Int32Array.from([0, 0, 1, 2]), Float64Array.from([10, 12, 9]));
    const s = index.score([[key("incident"), 1]], [level]);
    const scores = s.levels[0] as Float64Array;
    assert.ok((scores[0] as number) > 0 && (scores[1] as number) > 0 && (scores[2] as number) > 0);
    index.score([[key("notify"), 1]], [level]);
    assert.deepEqual(
      [...level.scores].map((v) => v > 0),
      [false, true, false],
      "a level's scores are reset per query",
    );
  });

  test("a level ignores documents outside any coarser one", () => {
    const level = new Level(Int32Array.from([-1, -1, -1, 0]), Float64Array.from([5]));
    index.score([[key("manufacturers"), 1]], [level]);
    assert.ok((level.scores[0] as number) > 0);
  });

  test("a level's score of a parent sums its documents' frequencies, as BM25 of their words together", () => {
    // Provision 0 holds docs 0 and 1: its frequency of the term is theirs summed, its length theirs too.
    const parent = Int32Array.from([0, 0, 1, 2]);
    const lengths = Float64Array.from([10, 12, 9]);
    const level = new Level(parent, lengths);
    const s = index.score([[key("incident"), 1]], [level]);
    const postings = file.postings[key("incident")] as number[];
    const tf = new Float64Array(3);
    for (let i = 0; i < postings.length; i += 2) {
      const p = parent[postings[i] as number] as number;
      tf[p] = (tf[p] as number) + (postings[i + 1] as number);
    }
    const df = tf.filter((f) => f > 0).length;
    const avg = (10 + 12 + 9) / 3;
    const bm25 = (p: number) =>
      (Math.log(1 + (3 - df + 0.5) / (df + 0.5)) * (tf[p] as number) * 2.2) /
      ((tf[p] as number) + 1.2 * (0.25 + (0.75 * (lengths[p] as number)) / avg));
    for (let p = 0; p < 3; p++) assert.ok(Math.abs((s.levels[0]?.[p] as number) - bm25(p)) < 1e-12);
  });

  test("a level whose parents' documents do not stand together is refused", () => {
    assert.throws(() => new Level(Int32Array.from([0, 1, 0]), Float64Array.from([1, 1])), {
      message: "BM25 level: parent 0 comes after 1; a parent's documents must stand together",
    });
  });

  test("an index of another format is refused with the command that rebuilds it", () => {
    assert.throws(() => new ChunkIndex({ ...file, format: "acquis-bm25/1" }), {
      message:
        'chunk index: format "acquis-bm25/1" is not acquis-bm25/2; rebuild the release with this engine (acquis build <regime> --tag <tag> --force)',
    });
  });
});
