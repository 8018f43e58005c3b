/** The subject as written (src/obligations/subject.ts), reading by reading, each from its rules on. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { actorOf } from "../../src/obligations/subject.ts";

describe("the subject as written", () => {
  test("a leading clause is no part of the subject", () => {
    assert.equal(
      actorOf("Where the breach is likely to result in a high risk, the controller ", 8),
      "the controller",
    );
  });

  test("rules 2: a sentence opening with its subject is not cut at the commas inside it", () => {
    const before = "Processing of personal data revealing racial or ethnic origin, political opinions ";
    assert.equal(actorOf(before, 1), "political opinions");
    assert.equal(actorOf(before, 2), before.trim());
  });

  test("rules 8: a relative clause or an exception describing the subject stays with it", () => {
    const before =
      "Where a public body demonstrates an exceptional need, data holders that are legal persons, other than public sector bodies, which hold those data ";
    assert.equal(actorOf(before, 7), "which hold those data");
    assert.equal(
      actorOf(before, 8),
      "data holders that are legal persons, other than public sector bodies, which hold those data",
    );
  });

  test("rules 8: an interjection closing before the modal leaves the party before it, or nothing", () => {
    const before =
      "Where not all consumers can be contacted, economic operators, in accordance with their responsibilities, ";
    assert.equal(actorOf(before, 7), "");
    assert.equal(actorOf(before, 8), "economic operators");
    assert.equal(actorOf("For the purposes of point (b), in accordance with Article 5, ", 8), "");
  });

  test("rules 8: an interjection inside a coordinated subject is no part of it", () => {
    assert.equal(
      actorOf("Economic operators and, where applicable, providers of online marketplaces ", 8),
      "Economic operators and providers of online marketplaces",
    );
  });

  test("rules 10: a leading phrase without a comma that ends in a citation ends there", () => {
    const before =
      "In the case referred to in point (a) of paragraph 1 the competent authority of the Member State which has requested cooperation";
    assert.equal(actorOf(before, 9), "the Member State which has requested cooperation");
    assert.equal(
      actorOf(before, 10),
      "the competent authority of the Member State which has requested cooperation",
    );
    assert.equal(actorOf("By 1 January 2025 the Commission", 10), "the Commission");
    // No citation: the subject still begins at its last determiner.
    assert.equal(
      actorOf("For relying parties other than public sector bodies the notifying Member State", 10),
      "the notifying Member State",
    );
  });

  test("rules 11: a participle opening the sentence leads in as a clause does (GDPR Art 24(1))", () => {
    const before =
      "Taking into account the nature, scope, context and purposes of processing as well as the risks of varying likelihood and severity for the rights and freedoms of natural persons, the controller";
    assert.equal(actorOf(before, 10), before);
    assert.equal(actorOf(before, 11), "the controller");
  });
});
