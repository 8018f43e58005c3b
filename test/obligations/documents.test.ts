/**
 * Documents (src/obligations/documents.ts): a subject naming a document is a thing with contents, and
 * what it contains is no one's duty, under the rules that read it so.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  documentHead,
  documentsAuthored,
  isBareLeadIn,
  namesDocument,
  saysContents,
  statesContents,
} from "../../src/obligations/documents.ts";

describe("documents", () => {
  test("a subject is named by its head noun, past articles, complements and participles", () => {
    assert.equal(namesDocument("The report referred to in paragraph 1"), true);
    assert.equal(namesDocument("the notifications submitted"), true);
    assert.equal(namesDocument("Providers of high-risk AI systems"), false);
  });

  test("what a document contains is no duty; drawing it up is", () => {
    assert.equal(statesContents("The report", "include at least the following", 6), true);
    assert.equal(statesContents("The report", ", where appropriate, contain a summary", 6), true);
    assert.equal(statesContents("The report", "be submitted to the authority", 6), false);
    assert.equal(statesContents("Manufacturers", "include a summary", 6), false);
  });

  test("rules 8 read rules and disclosures as documents too", () => {
    const bcr = "specify at least the complaint procedures";
    assert.equal(statesContents("The binding corporate rules", bcr, 7), false);
    assert.equal(statesContents("The binding corporate rules", bcr, 8), true);
    assert.equal(
      statesContents("The disclosure to the public", "include the following statements:", 8),
      true,
    );
  });

  test("a lead-in that stops after its modal, and points that say what it contains", () => {
    assert.equal(isBareLeadIn(" at least:"), true);
    assert.equal(isBareLeadIn(" submit the following:"), false);
    assert.equal(saysContents("describe the measures taken"), true);
    assert.equal(saysContents("notify the authority"), false);
  });

  test("rules 9: the documents a duty makes its holder the author of, by its verb and by its words", () => {
    assert.deepEqual(documentsAuthored("notify the competent authorities of the decision"), ["notification"]);
    assert.deepEqual(documentsAuthored("draw up a report on its activities"), ["report"]);
    assert.deepEqual(documentsAuthored("establish, maintain and review a sound testing programme"), [
      "programme",
    ]);
    assert.deepEqual(documentsAuthored("take appropriate measures"), []);
    // Naming a document is not making it: an authority that examines the application is not its author.
    assert.deepEqual(documentsAuthored("examine the application and the marketing communications"), []);
    assert.deepEqual(documentsAuthored("adopt a decision on the application"), ["decision"]);
    assert.equal(documentHead("The notification referred to in paragraph 2"), "notification");
    assert.equal(documentHead("The digital operational resilience testing programme"), "programme");
    assert.equal(documentHead("Financial entities"), null);
  });

  test("rules 13: the document a duty makes, past the words that say when and how", () => {
    const notify =
      "without undue delay and, where feasible, not later than 72 hours after having become aware of it, notify the personal data breach to the supervisory authority";
    assert.deepEqual(documentsAuthored(notify, 12), []);
    assert.deepEqual(documentsAuthored(notify, 13), ["notification"]);
  });
});
