/** The search analyser (src/search/analyser.ts): words, stop words, stems and spelling folds. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  analyserSettings,
  QueryAnalyser,
  SequenceMatcher,
  tokenize,
  words,
} from "../../src/search/analyser.ts";

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

const t = (text: string) => tokenize(text).join(" ");

describe("analyser settings and sequences", () => {
  test("defined terms of two to eight words become phrases; single words and longer terms do not", () => {
    const settings = analyserSettings([
      "personal data breach",
      "controller",
      "a b c d e f g h i j",
      "personal data breach",
    ]);
    assert.deepEqual(settings.phrases, [t("personal data breach")]);
    assert.equal(
      settings.synonyms[t("hacked")]?.includes(t("personal data breach")),
      true,
      "synonyms are stored analysed",
    );
    assert.equal(settings.stemmer, "porter");
  });

  test("a matcher finds every known sequence, or the longest ones left to right without overlap", () => {
    const m = new SequenceMatcher(["a b", "a b c", "b c"]);
    assert.deepEqual([...m.findAll(["a", "b", "c"])], ["a b", "a b c", "b c"]);
    assert.deepEqual(
      [...m.find(["x", "a", "b", "c", "b", "c"])],
      [
        { start: 1, length: 3, key: "a b c" },
        { start: 4, length: 2, key: "b c" },
      ],
    );
  });
});

describe("query analysis", () => {
  const settings = analyserSettings(["personal data breach"]);
  const vocabulary = [
    t("notify"),
    t("notification"),
    t("erasure"),
    t("personal"),
    t("data"),
    t("breach"),
    t("personal data breach"),
  ];
  const q = new QueryAnalyser(settings, vocabulary);
  const weights = (query: string, plain = false) => Object.fromEntries(q.terms(query, { plain }));

  test("question words go; the question's words weigh 1, sorted by term", () => {
    const terms = q.terms("What does the regulation say about encryption?", { plain: true });
    assert.deepEqual(terms, [[t("encryption"), 1]]);
  });

  test("a defined term the question uses is a phrase term; synonyms count at their lower weight", () => {
    const w = weights("we were hacked");
    assert.equal(w[t("personal data breach")], settings.synonym_weight);
    assert.equal(w[t("hacked")], 1);
    assert.equal(weights("a personal data breach")[t("personal data breach")], 1);
    assert.equal(weights("we were hacked", true)[t("personal data breach")], undefined, "plain: words alone");
  });

  test("words of the same family in the index count at the family weight", () => {
    // Porter leaves "notification" (notif) and "notify" (notifi) apart; the family brings them together.
    assert.deepEqual(q.family(t("notification")), [t("notify")]);
    assert.deepEqual(q.family(t("notify")), [t("notification")]);
    assert.deepEqual(q.family("abc"), [], "short stems have no family");
    assert.deepEqual(q.family("art33"), [], "nor stems with digits");
    assert.equal(weights("notification")[t("notify")], settings.family_weight);
  });
});
