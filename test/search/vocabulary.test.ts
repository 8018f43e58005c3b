/**
 * The analyser's vocabulary (src/search/vocabulary.ts), which a release copies into its index: each list
 * well formed, every synonym expansion reaching index terms, and the lower weights below a typed word.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { tokenize } from "../../src/search/analyser.ts";
import {
  FAMILY_WEIGHT,
  QUERY_STOPWORDS,
  SPELLING,
  STOPWORDS,
  SYNONYM_WEIGHT,
  SYNONYMS,
} from "../../src/search/vocabulary.ts";

describe("the vocabulary", () => {
  test("stop words are lowercase single words, listed once", () => {
    for (const list of [STOPWORDS, QUERY_STOPWORDS]) {
      assert.equal(new Set(list).size, list.length);
      for (const w of list) assert.match(w, /^[a-z]+$/u, w);
    }
  });

  test("words that change a legal meaning are never query stop words", () => {
    for (const w of ["not", "only", "before", "after", "against", "without"])
      assert.ok(!QUERY_STOPWORDS.includes(w), w);
  });

  test("spellings fold American to British, never a word to itself", () => {
    for (const [us, gb] of Object.entries(SPELLING)) {
      assert.notEqual(us, gb);
      assert.match(us, /^[a-z]+$/u);
    }
    assert.equal(SPELLING.behavior, "behaviour");
  });

  test("every synonym key and expansion is lowercase-keyed plain text that analyses to index terms", () => {
    for (const [key, expansions] of Object.entries(SYNONYMS)) {
      assert.equal(key, key.toLowerCase(), key);
      assert.ok(tokenize(key).length > 0, key);
      assert.ok(expansions.length > 0, key);
      for (const x of expansions) assert.ok(tokenize(x).length > 0, `${key}: ${x}`);
    }
  });

  test("a synonym or a word of the same family counts less than a word the user typed", () => {
    for (const w of [SYNONYM_WEIGHT, FAMILY_WEIGHT]) assert.ok(w > 0 && w < 1);
  });
});
