/**
 * Source text normalisation (src/canon/text.ts): blocks separated by blank lines, spaces made plain,
 * EUR-Lex consolidation markers and scraper duplicates removed, each repair logged.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { QualityLog } from "../../src/canon/quality.ts";
import { clip, normaliseSpaces, ordinal, romanValue, toBlocks } from "../../src/canon/text.ts";

const blocks = (raw: string) => {
  const log = new QualityLog("x");
  return { blocks: toBlocks(raw, log, "art_1"), repairs: log.repairs.map((r) => r.kind), log };
};

describe("normalising text", () => {
  test("no-break, figure and thin spaces and tabs become one plain space; ends are trimmed", () => {
    assert.equal(
      normaliseSpaces("  Article\u00a033\u2007and\u202f34\t(1)   GDPR "),
      "Article 33 and 34 (1) GDPR",
    );
  });

  test("blank lines separate blocks; lines inside a block join with a space; CRLF is read as LF", () => {
    const r = blocks(
      "1.   Manufacturers shall\r\nkeep records.\r\n\r\n\r\n2.   Importers shall verify.\n \n",
    );
    assert.deepEqual(r.blocks, ["1. Manufacturers shall keep records.", "2. Importers shall verify."]);
    assert.deepEqual(r.repairs, []);
  });

  test("consolidation markers are removed, standalone or inline, and counted in one repair", () => {
    const r = blocks("▼B\n\nManufacturers shall ►M1 notify ◄ the authority.\n\n▼M2 —\n\nThe end.");
    assert.deepEqual(r.blocks, ["Manufacturers shall notify the authority.", "The end."]);
    assert.deepEqual(r.repairs, ["consolidation_marker_stripped"]);
    assert.match(
      r.log.repairs[0]?.detail ?? "",
      /^3 consolidation marker\(s\) removed; 1 marked deletion\(s\) had no text$/u,
    );
  });

  test("a footnote reference the scraper split over three blocks is joined back", () => {
    const r = blocks("Regulation of the Council (\n\n1\n\n) applies.");
    assert.deepEqual(r.blocks, ["Regulation of the Council (1) applies."]);
    assert.deepEqual(r.repairs, ["footnote_reference_joined"]);
  });

  test("a block repeated right after itself is dropped, but a dash standing for an indent is not", () => {
    const r = blocks("Keep records.\n\nKeep records.\n\n—\n\n—\n\nEnd.");
    assert.deepEqual(r.blocks, ["Keep records.", "—", "—", "End."]);
    assert.deepEqual(r.repairs, ["duplicate_line_removed"]);
  });

  test("a passage of long blocks repeated in full is dropped once", () => {
    const a = "The first long sentence of a table that the scraper emitted twice over.";
    const b = "The second long sentence of that table, which came out twice as well.";
    const r = blocks([a, b, a, b, "After."].join("\n\n"));
    assert.deepEqual(r.blocks, [a, b, "After."]);
    assert.match(r.log.repairs[0]?.detail ?? "", /^repeated passage of 2 block\(s\) removed/u);
  });

  test("a table's deeply indented layout copy is dropped when its flat text follows", () => {
    const flat = "Column one value and column two value of the widget table";
    const r = blocks(`Intro.\n\n${flat}\n          indented layout line\n\n${flat}`);
    assert.deepEqual(r.blocks, ["Intro.", flat]);
    assert.match(r.log.repairs[0]?.detail ?? "", /^table-layout copy removed/u);
  });

  test("a text of markers and blank lines only has no blocks", () => {
    assert.deepEqual(blocks("\n\n▼B\n\n   \n\n").blocks, []);
  });
});

describe("small helpers", () => {
  test("clip keeps a short text whole and cuts a long one with an ellipsis at n characters", () => {
    assert.equal(clip("short"), "short");
    assert.equal(clip("abcdefghij", 5), "abcd…");
    assert.equal(clip("x".repeat(61)).length, 60);
  });

  test("roman numerals read in any case, subtractive pairs included; anything else is NaN", () => {
    assert.deepEqual(
      ["I", "iv", "IX", "XIV", "XL", "xc", "MCMXCIX"].map(romanValue),
      [1, 4, 9, 14, 40, 90, 1999],
    );
    assert.ok(Number.isNaN(romanValue("IIa")));
    assert.ok(Number.isNaN(romanValue("12")));
    assert.ok(Number.isNaN(romanValue("")));
  });

  test("ordinals are words up to tenth, then numbers", () => {
    assert.equal(ordinal(1), "first");
    assert.equal(ordinal(3), "third");
    assert.equal(ordinal(10), "tenth");
    assert.equal(ordinal(11), "11th");
  });
});
