/**
 * Saying no (src/engine/query/unknown-words.ts): a question most of whose words occur nowhere in the
 * fixture release is refused with the words; acronyms, question words and the synonym layer's everyday
 * words do not count against it.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { UNKNOWN_SHARE, unknownReason, unknownWords } from "../../src/engine/query/unknown-words.ts";
import { fixtureEngine } from "../helpers/fixture-release.ts";

const index = fixtureEngine().release.index;

describe("unknown words", () => {
  test("content words are counted once each; those no unit contains are listed as written", () => {
    assert.deepEqual(unknownWords(index, "banana widgets Banana bread"), {
      content: 3,
      unknown: ["banana", "bread"],
    });
  });

  test("acronyms, question words and the synonym layer's words are not unknown", () => {
    assert.deepEqual(unknownWords(index, "What KYC rules apply?"), { content: 0, unknown: [] });
    assert.deepEqual(unknownWords(index, "hacked widgets"), { content: 2, unknown: [] });
  });

  test("more than half the content words unknown: refused, naming them and the release", () => {
    assert.ok(UNKNOWN_SHARE === 0.5);
    assert.equal(
      unknownReason(index, "banana bread recipe", "fixture@2100.1"),
      'No match: 3 of the question\'s 3 words ("banana", "bread", "recipe") occur nowhere in fixture@2100.1, so no provision can be said to answer it.',
    );
    assert.equal(
      unknownReason(index, "banana widgets", "fixture@2100.1"),
      null,
      "half is not more than half",
    );
    assert.equal(unknownReason(index, "", "fixture@2100.1"), null, "no words, no refusal");
  });
});
