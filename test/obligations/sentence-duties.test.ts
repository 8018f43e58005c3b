/**
 * The duties one sentence states (src/obligations/sentence-duties.ts), called directly on a sentence:
 * the main modal and its subject, a second duty joined by "and", and sentences that state none.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dutiesIn, isImpersonal } from "../../src/obligations/sentence-duties.ts";

const read = (text: string, rules = 8) =>
  dutiesIn({ text, start: 0 }, rules).map((d) => [d.modality, d.actor, d.action.trim()]);

describe("duties in a sentence", () => {
  test("the subject before the modal holds the duty; a second modal joined by 'and' is a second duty", () => {
    assert.deepEqual(read("The controller shall keep a record and shall make it available on request."), [
      ["obligation", "The controller", "keep a record"],
      ["obligation", "The controller", "make it available on request"],
    ]);
  });

  test("a leading conditional clause is no part of the subject, and its own modal is not the main one", () => {
    const [d] = read(
      "Where the importer may not place the device on the market, the importer shall inform the manufacturer.",
    );
    assert.deepEqual(d?.slice(0, 2), ["obligation", "the importer"]);
  });

  test("an exemption and a relative 'may' state no duty", () => {
    assert.deepEqual(read("Micro enterprises shall not be required to keep a register."), []);
    assert.deepEqual(read("The conditions under which the data may be shared are set out in Annex I."), []);
  });

  test("'it shall be prohibited to …' is impersonal: no pronoun, no one's", () => {
    assert.ok(isImpersonal("it", " be prohibited to use misleading text"));
    assert.ok(!isImpersonal("it", " inform the manufacturer"));
  });

  test("rules 10: a duty stands though the clause joined to it states none (RED Annex IV)", () => {
    const sentence =
      "The manufacturer shall operate an approved quality system for design, manufacture and testing as specified in point 3 and shall be subject to surveillance as specified in point 4.";
    assert.deepEqual(read(sentence, 9), []);
    assert.deepEqual(read(sentence, 10), [
      [
        "obligation",
        "The manufacturer",
        "operate an approved quality system for design, manufacture and testing as specified in point 3",
      ],
    ]);
    // Both clauses stating none: still none.
    assert.deepEqual(read("The measure shall be deemed compliant and shall be subject to review.", 10), []);
  });

  test("rules 11: a leading clause does not end at a citation's comma; 'may' in an indirect question grants nothing", () => {
    const sentence =
      "Where national regulatory authorities consider that the provision of voice communications services as set out in Articles 84, 85 and 86 may represent an unfair burden on providers, national regulatory authorities shall calculate the net costs of such provision.";
    assert.equal(read(sentence, 10)[0]?.[0], "permission");
    assert.deepEqual(read(sentence, 11)[0]?.slice(0, 2), ["obligation", "national regulatory authorities"]);
    const point =
      "the standards guiding how a benchmark may be proven to be new in accordance with paragraph 2.";
    assert.equal(read(point, 10).length, 1);
    assert.deepEqual(read(point, 11), []);
  });

  test("rules 12: a 'may' in what a risk or an indication is of states no one's permission; a 'shall' after such a clause still binds", () => {
    const point =
      "indications that malicious activity may have been carried out in an ICT system or network, or that such ICT system or network may have been compromised;";
    assert.equal(read(point, 11)[0]?.[0], "permission");
    assert.deepEqual(read(point, 12), []);
    const borne =
      "All profits or losses, and any counterparty or operational risks that result from the investment of the reserve of assets shall be borne by the issuer of the asset-referenced token.";
    assert.equal(read(borne, 12)[0]?.[0], "obligation");
  });

  test("rules 13: a party deemed another and made subject to its obligations takes them on", () => {
    const deemed =
      "An importer, distributor or user shall be considered a manufacturer for the purposes of this Regulation and shall be subject to the obligations laid down in Article 30 where they:";
    assert.deepEqual(read(deemed, 12), []);
    assert.deepEqual(read(deemed, 13), [
      [
        "obligation",
        "An importer, distributor or user",
        "be subject to the obligations laid down in Article 30 where they:",
      ],
    ]);
    const reprocessor =
      "Any natural or legal person who reprocesses a single-use device to make it suitable for further use within the Union shall be considered to be the manufacturer of the reprocessed device and shall assume the obligations incumbent on manufacturers laid down in this Regulation.";
    assert.equal(read(reprocessor, 13)[0]?.[0], "obligation");
    // Deemed and nothing more: still no duty.
    assert.deepEqual(
      read("A manufacturer shall be considered to have its main establishment in the Union.", 13),
      [],
    );
  });

  test('rules 13: a "may" in what a way of doing is such that grants nothing', () => {
    const modifies =
      "modifies a device already placed on the market or put into service in such a way that compliance with the applicable requirements may be affected.";
    assert.equal(read(modifies, 12)[0]?.[0], "permission");
    assert.deepEqual(read(modifies, 13), []);
  });

  test('rules 13: "it may" and an active verb after a leading clause is a party\'s permission; "it may be" is not', () => {
    const send =
      "Where a Digital Services Coordinator has reason to suspect that a provider has infringed the provisions of Section 5 of Chapter III, it may send, through the information sharing system referred to in Article 85, a request to the Commission to assess the matter.";
    assert.deepEqual(read(send, 12), []);
    assert.deepEqual(
      read(send, 13).map(([modality, actor]) => [modality, actor]),
      [["permission", "a Digital Services Coordinator"]],
    );
    assert.deepEqual(
      read("Where the conditions are not met, it may be necessary to suspend the authorisation.", 13),
      [],
    );
  });

  test("rules 15: what the act does not prevent a party from doing is the party's permission", () => {
    assert.deepEqual(
      read(
        "Nothing in this Article shall prevent Member States from adopting or maintaining measures at national level which are more protective of patients.",
        15,
      ),
      [
        [
          "permission",
          "Member States",
          "adopting or maintaining measures at national level which are more protective of patients",
        ],
      ],
    );
    const neither =
      "Neither this Article nor Article 76 or 88 shall prevent a competent authority from transmitting to ESMA the information it needs.";
    assert.deepEqual(read(neither, 15), [
      ["permission", "a competent authority", "transmitting to ESMA the information it needs"],
    ]);
    // Until rules 15 a saving clause stated no one's duty.
    assert.deepEqual(read(neither, 14), []);
    // A failure that does not prevent a body from acting grants it nothing new.
    assert.deepEqual(
      read("The failure of a Member State to act shall not prevent the Board from performing its tasks.", 15),
      [],
    );
  });
});
