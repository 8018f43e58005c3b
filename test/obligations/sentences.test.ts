/**
 * Sentences (src/obligations/sentences.ts): where a duty is looked for. A sentence must never lose its
 * beginning to a number with a full stop in it: the manufacturer's Eudamed duty of IVDR Art 26(3) was
 * read as "2 thereof, and thereafter shall keep the information updated" before rules 8.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sentences } from "../../src/obligations/sentences.ts";

const texts = (t: string, rules: number) => sentences(t, rules).map((s) => s.text);

describe("sentences", () => {
  test("a full stop inside a number, a list of points or an abbreviation ends no sentence (rules 8)", () => {
    const eudamed =
      "Before placing a device on the market, the manufacturer shall enter the information referred to in Section 2 of Part A of Annex VI, with the exception of Section 2.2 thereof, and thereafter shall keep the information updated.";
    assert.deepEqual(texts(eudamed, 8), [eudamed]);
    assert.deepEqual(
      texts(eudamed, 7),
      ["2 thereof, and thereafter shall keep the information updated."],
      "as before",
    );
    assert.deepEqual(
      texts(
        "The provider shall follow it. Points 4.3., 4.4., 4.5. and point 4.6 of Annex VII shall also apply.",
        8,
      ),
      [
        "The provider shall follow it.",
        "Points 4.3., 4.4., 4.5. and point 4.6 of Annex VII shall also apply.",
      ],
    );
    assert.deepEqual(
      texts("Fines of up to EUR 1.5 million apply. They are paid (i.e. where due) in full.", 8),
      ["Fines of up to EUR 1.5 million apply.", "They are paid (i.e. where due) in full."],
    );
  });

  test("a line that ends without a stop is a sentence of its own, not lost (rules 8)", () => {
    const annex =
      "Part I Cybersecurity requirements\n\n(2)\n\nProducts with digital elements shall:\n\n(a)\n\nbe made available without known exploitable vulnerabilities;";
    assert.deepEqual(texts(annex, 8), [
      "Part I Cybersecurity requirements",
      "(2)",
      "Products with digital elements shall:",
      "(a)",
      "be made available without known exploitable vulnerabilities;",
    ]);
    assert.deepEqual(
      texts(annex, 7),
      ["be made available without known exploitable vulnerabilities;"],
      "as before",
    );
  });

  test("sentences end at a full stop or a semicolon, with their offsets, never across a line", () => {
    const text = "Providers shall register;\nthey shall keep records. Art. 5 applies.";
    assert.deepEqual(sentences(text, 8), [
      { text: "Providers shall register;", start: 0 },
      { text: "they shall keep records.", start: 26 },
      { text: "Art. 5 applies.", start: 51 },
    ]);
  });
});
