/**
 * parseProvision, unit by unit: how an article's blocks become paragraphs, subparagraphs and points,
 * and the paragraph numbers parser 4 reads where the source misprinted them.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Draft, parseProvision } from "../../src/canon/provisions.ts";

/** eId segments of the tree, depth first: "para_1", "para_1/point_a", … */
function shape(drafts: Draft[], up = ""): string[] {
  return drafts.flatMap((d) => {
    const id = up ? `${up}/${d.segment}` : d.segment;
    return [id, ...shape(d.children, id)];
  });
}

describe("parseProvision", () => {
  test("numbered paragraphs, a subparagraph and points under the subparagraph", () => {
    const p = parseProvision([
      "1. Providers shall:",
      "(a)",
      "keep records;",
      "(b)",
      "report.",
      "A second block.",
      "2. Deployers shall act.",
    ]);
    assert.equal(p.own, "");
    assert.deepEqual(shape(p.children), [
      "para_1",
      "para_1/point_a",
      "para_1/point_b",
      "para_1/subpara_2",
      "para_2",
    ]);
    assert.equal(p.children[0]?.own, "Providers shall:");
  });

  test("a number that breaks the sequence is text, not a paragraph", () => {
    const p = parseProvision(["1. The limit is set as follows.", "5. years is the period."]);
    assert.deepEqual(shape(p.children), ["para_1", "para_1/subpara_2"]);
  });

  test("parser 4: 'N.' right after an empty point opens paragraph N (Data Act Art 1(3))", () => {
    const blocks = [
      "1. This Regulation lays down rules.",
      "2. It covers:",
      "(a)",
      "(b)",
      "3. This Regulation applies to:",
      "(a)",
      "manufacturers.",
    ];
    const before = parseProvision(blocks, 3);
    assert.equal(
      before.children[1]?.children[1]?.own,
      "3. This Regulation applies to:",
      "parser 3 read it as point (b)'s text",
    );
    const after = parseProvision(blocks, 4);
    assert.deepEqual(shape(after.children), [
      "para_1",
      "para_2",
      "para_2/point_a",
      "para_2/point_b",
      "para_3",
      "para_3/point_a",
    ]);
    assert.equal(after.children[1]?.children[1]?.own, "", "point (b) has no text: the source lost it");
    assert.deepEqual(after.recovered, ['"3." after the empty point (b) opens paragraph 3']);
  });

  test("parser 4: a paragraph number printed without its full stop (IVDR Art 42(7))", () => {
    const blocks = [
      "1. The authority shall act.",
      "2. In the event of restriction, the authority shall keep the files.",
      "3 In the event of restriction, suspension or withdrawal of a designation, the authority shall:",
    ];
    assert.deepEqual(shape(parseProvision(blocks, 3).children), ["para_1", "para_2", "para_2/subpara_2"]);
    assert.deepEqual(shape(parseProvision(blocks, 4).children), ["para_1", "para_2", "para_3"]);
  });

  test("parser 4: text before paragraph 2 is paragraph 1 whose number was lost (eIDAS Art 26)", () => {
    const blocks = [
      "An advanced electronic signature shall meet the following requirements:",
      "(a)",
      "it is uniquely linked to the signatory;",
      "2. By 21 May 2026, the Commission shall assess.",
    ];
    const before = parseProvision(blocks, 3);
    assert.equal(before.own, "An advanced electronic signature shall meet the following requirements:");
    const after = parseProvision(blocks, 4);
    assert.equal(after.own, "");
    assert.deepEqual(shape(after.children), ["para_1", "para_1/point_a", "para_2"]);
  });
});
