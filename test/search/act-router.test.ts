/**
 * The act router's canon file (src/search/act-router.ts): what a valid router holds, and each way a
 * file is refused, naming the file and the key.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseRouter, ROUTER_FORMAT } from "../../src/search/act-router.ts";

const valid = {
  format: ROUTER_FORMAT,
  trained_on: "eval/independent dev split",
  question_weight: 0.4,
  sharpness: 1.5,
  acts: { gdpr: { questions: 12, terms: { breach: 7, notifi: 3 } }, dora: { questions: 3 } },
};
const refusal = (over: Record<string, unknown>) => {
  try {
    parseRouter(JSON.stringify({ ...valid, ...over }), "act-router.json");
    return "parsed";
  } catch (e) {
    return (e as Error).message;
  }
};

describe("the act router file", () => {
  test("a valid file reads as written", () => {
    assert.deepEqual(parseRouter(JSON.stringify(valid), "act-router.json"), valid);
  });

  test("what is not JSON or not a router is refused", () => {
    assert.match(
      (() => {
        try {
          parseRouter("{", "act-router.json");
          return "";
        } catch (e) {
          return (e as Error).message;
        }
      })(),
      /^act-router\.json: not JSON: /u,
    );
    assert.equal(
      refusal({ format: "acquis-act-router/0" }),
      `act-router.json: format must be "${ROUTER_FORMAT}"`,
    );
  });

  test("weights, provenance and counts are checked", () => {
    assert.equal(
      refusal({ question_weight: 1 }),
      "act-router.json: question_weight must be a number in (0, 1)",
    );
    assert.equal(
      refusal({ question_weight: "0.4" }),
      "act-router.json: question_weight must be a number in (0, 1)",
    );
    assert.equal(refusal({ sharpness: 0 }), "act-router.json: sharpness must be a positive number");
    assert.equal(refusal({ trained_on: 3 }), "act-router.json: trained_on must be a string");
    assert.equal(refusal({ acts: null }), "act-router.json: acts must be an object");
    assert.equal(
      refusal({ acts: { gdpr: { questions: 0 } } }),
      "act-router.json: acts.gdpr.questions must be a positive integer",
    );
    assert.equal(
      refusal({ acts: { gdpr: { questions: 1, terms: { breach: 1.5 } } } }),
      'act-router.json: acts.gdpr.terms["breach"] must be a positive integer',
    );
  });
});
