/**
 * Domain gates (src/engine/query/act-gates.ts): the Law Enforcement Directive counts at half weight
 * unless the question is about police or criminal matters; a release without it is not gated.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Engine } from "../../src/engine/context.ts";
import { actGates, GATES } from "../../src/engine/query/act-gates.ts";

const engine = (actOrder: string[]) => ({ actOrder }) as Engine;

describe("act gates", () => {
  test("an everyday question weighs the gated act down; every other act counts fully", () => {
    const w = actGates(engine(["gdpr", "led", "nis2"]), "when must a controller notify a breach?");
    assert.deepEqual([...(w ?? [])], [1, GATES[0]?.weight, 1]);
    assert.equal(GATES[0]?.weight, 0.5);
  });

  test("a question in the act's domain is not gated", () => {
    for (const q of [
      "may the police keep data?",
      "criminal investigations",
      "Law enforcement authorities",
      "prosecutors",
    ])
      assert.equal(actGates(engine(["gdpr", "led"]), q), null, q);
  });

  test("a release without a gated act has no gates", () => {
    assert.equal(actGates(engine(["gdpr", "nis2"]), "notify a breach"), null);
  });
});
