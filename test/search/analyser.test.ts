/** The search analyser (src/search/analyser.ts): words, stop words, stems and spelling folds. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { tokenize, words } from "../../src/search/analyser.ts";

describe("the analyser", () => {
  test("words are lower-cased letters and digits, split on anything else", () => {
    assert.deepEqual(words("Article 33(1) GDPR: the controller’s duty"), [
      "article",
      "33",
      "1",
      "gdpr",
      "the",
      "controller",
      "s",
      "duty",
    ]);
  });

  test("stop words go, inflections meet, American spellings fold to British", () => {
    assert.deepEqual(tokenize("the notifications"), tokenize("notification"));
    assert.deepEqual(tokenize("organize"), tokenize("organise"));
    assert.ok(!tokenize("the of and").length, "stop words only");
    assert.deepEqual(tokenize("72 hours"), ["72", ...tokenize("hours")], "numbers are kept as written");
  });
});
