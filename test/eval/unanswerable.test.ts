/**
 * The unanswerable questions behind "saying no" (issue 14): the shipped set loads as written, a
 * malformed file is refused naming the entry, and the rates count what a reader of the table expects.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { splitOf } from "../../eval/split.ts";
import { loadUnanswerable, noMatchRates } from "../../eval/unanswerable.ts";

const SHIPPED = join(import.meta.dirname, "..", "..", "eval", "unanswerable");

describe("eval/unanswerable", () => {
  test("the shipped set: 100 questions, 50 of each kind, split by the same rule as the other sets", () => {
    const all = loadUnanswerable(SHIPPED);
    assert.equal(all.length, 100);
    assert.equal(all.filter((u) => u.kind === "nonsense").length, 50);
    assert.equal(all.filter((u) => splitOf(u.id) === "held-out").length, 37);
  });

  test("a wrong kind or a missing field is refused with the file and the entry", () => {
    const dir = mkdtempSync(join(tmpdir(), "acquis-unanswerable-"));
    writeFileSync(join(dir, "bad.yaml"), "- {id: x-1, kind: silly, query: q, why: w}\n");
    assert.throws(
      () => loadUnanswerable(dir),
      /bad\.yaml: entry 1: kind "silly" is not one of nonsense, outside/u,
    );
    writeFileSync(join(dir, "bad.yaml"), "- {id: x-1, kind: outside, query: q}\n");
    assert.throws(() => loadUnanswerable(dir), /entry 1: "why" must be a non-empty string/u);
  });

  test("precision counts every refusal, recall every unanswerable question", () => {
    const r = noMatchRates(
      [
        { kind: "nonsense", refused: true },
        { kind: "nonsense", refused: false },
        { kind: "outside", refused: true },
        { kind: "outside", refused: false },
      ],
      [true, false, false],
    );
    assert.deepEqual(r.refused, { nonsense: { refused: 1, n: 2 }, outside: { refused: 1, n: 2 } });
    assert.deepEqual(r.in_scope, { refused: 1, n: 3 });
    assert.equal(r.precision, 2 / 3);
    assert.equal(r.recall, 0.5);
    assert.equal(noMatchRates([{ kind: "outside", refused: false }], [false]).precision, null);
  });
});
