/** The answer's size budget (src/engine/budget.ts) on made-up blocks. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ANSWER_BUDGET, type BudgetBlock, excerpt, withinBudget } from "../../src/engine/budget.ts";

const cite = (node: string) => ({
  release: "t",
  as_of: "2026-01-01",
  label: node,
  atom: null,
  eid: node,
  node,
  work_iri: "http://example.invalid/w",
  expression_iri: "http://example.invalid/w/eng",
  valid_from: "2020-01-01",
  valid_to: null,
});
const block = (id: string, role: string, chars: number): BudgetBlock => ({
  id,
  role,
  text: "word ".repeat(Math.ceil(chars / 5)).slice(0, chars),
  citation: cite(id),
  attached_to: role === "match" ? null : "m1",
});

describe("the answer's size budget", () => {
  test("an excerpt is cut at a word and marked with an ellipsis; a short text is whole", () => {
    assert.equal(excerpt("short text", 200), "short text");
    const cut = excerpt("alpha beta gamma delta", 12);
    assert.equal(cut, "alpha beta …");
  });

  test("matches keep up to 3000 characters, the rest become marked excerpts without the act's IRIs", () => {
    const { blocks, omitted } = withinBudget(
      [block("m1", "match", 5000), block("d1", "definition", 900)],
      {},
    );
    const shown = blocks[0]?.text.length ?? 0;
    assert.ok(shown > 2900 && shown <= 3002, String(shown));
    assert.match(blocks[0]?.text ?? "", / …$/u);
    assert.deepEqual(blocks[0]?.detail?.excerpt, { shown_chars: shown, total_chars: 5000 });
    assert.ok((blocks[1]?.text.length ?? 0) <= 202);
    assert.equal(blocks[1]?.citation.work_iri, undefined);
    assert.deepEqual(omitted, {});
  });

  test("what does not fit is counted by role, derogations and duties kept before definitions and ancestors", () => {
    const many = [
      block("m1", "match", 3000),
      ...Array.from({ length: 200 }, (_, i) => block(`a${i}`, "ancestor", 400)),
      ...Array.from({ length: 200 }, (_, i) => block(`o${i}`, "obligation", 400)),
      block("g1", "derogation", 400),
    ];
    const { blocks, omitted } = withinBudget(many, {});
    assert.ok(Buffer.byteLength(JSON.stringify(blocks)) <= ANSWER_BUDGET);
    assert.ok(
      blocks.some((b) => b.role === "derogation"),
      "the derogation fits first",
    );
    assert.ok((omitted.ancestor ?? 0) > (omitted.obligation ?? 0), "ancestors give way before duties");
    assert.equal(blocks.length + Object.values(omitted).reduce((n, x) => n + x, 0), many.length);
    assert.deepEqual(
      blocks.map((b) => b.id),
      many.map((b) => b.id).filter((id) => blocks.some((b) => b.id === id)),
      "kept blocks stay in closure order",
    );
  });
});
