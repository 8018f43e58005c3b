/**
 * Who holds a thing-subject duty, read from the duties before it (src/obligations/thing-trail.ts, rules 9
 * and 10).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  agreementParties,
  referencedUnit,
  referencedUnits,
  ThingTrail,
} from "../../src/obligations/thing-trail.ts";

describe("the thing trail", () => {
  test("a thing referred to in a paragraph or subparagraph names that unit of its own article", () => {
    const node = "nis2/art_21__para_2__point_h";
    assert.equal(referencedUnit(node, "The measures referred to in paragraph 1"), "nis2/art_21__para_1");
    assert.equal(
      referencedUnit(
        "mifid2/art_73__para_1__subpara_2__point_a",
        "The mechanisms referred to in the first subparagraph",
      ),
      "mifid2/art_73__para_1__subpara_1",
    );
    assert.equal(referencedUnit(node, "The measures referred to in paragraph 1 of Article 20"), null);
    assert.equal(referencedUnit(node, "The measures"), null);
  });

  test("the thing is held as the duty there that names it; a document as the duty that made it", () => {
    const trail = new ThingTrail<string>((held) => held.join("+"));
    trail.remember(
      "nis2/art_21",
      "nis2/art_21__para_1",
      "ensure that essential entities take measures",
      "member_state",
    );
    trail.remember("nis2/art_21", "nis2/art_21__para_1", "report the incident", "entity");
    assert.equal(
      trail.holderOf(
        "nis2/art_21",
        "nis2/art_21__para_2__point_h",
        "The measures referred to in paragraph 1",
      ),
      "member_state",
    );
    trail.remember(
      "aifmd/art_47",
      "aifmd/art_47__para_8",
      "notify the competent authorities of the decision",
      "esma",
    );
    assert.equal(trail.holderOf("aifmd/art_47", "aifmd/art_47__para_8__point_a", "The notification"), "esma");
    assert.equal(trail.holderOf("aifmd/art_47", "aifmd/art_47__para_8__point_a", "The register"), undefined);
  });

  test("rules 10: a list or a range of paragraphs names each; paragraph 12 of another article none", () => {
    const node = "cra/art_14__para_7";
    const units = (actor: string) => referencedUnits(node, actor, 10);
    assert.deepEqual(units("The notifications referred to in paragraphs 1 and 3 of this Article"), [
      "cra/art_14__para_1",
      "cra/art_14__para_3",
    ]);
    assert.deepEqual(
      units("The information referred to in paragraphs 1 to 4").map((u) => u.slice(-1)),
      ["1", "2", "3", "4"],
    );
    assert.deepEqual(units("Applications for registration referred to in paragraphs 1, 2 and 3").length, 3);
    assert.deepEqual(units("The measures referred to in paragraph 12 of Article 20"), []);
    assert.deepEqual(units("The measures referred to in paragraph 12"), ["cra/art_14__para_12"]);
    // Rules 9 read one paragraph only: an older release is rebuilt as it was.
    assert.deepEqual(referencedUnits(node, "The notifications referred to in paragraphs 1 and 3", 9), []);
  });

  test("rules 10: a thing several paragraphs name is held by each one's party; powers by whom they are given to", () => {
    const trail = new ThingTrail<string>((held) => held.join("+"));
    trail.remember(
      "gdpr/art_30",
      "gdpr/art_30__para_1",
      "maintain a record of processing activities",
      "controller",
    );
    trail.remember("gdpr/art_30", "gdpr/art_30__para_2", "maintain a record of all categories", "processor");
    const records = {
      node: "gdpr/art_30__para_3",
      actor: "The records referred to in paragraphs 1 and 2",
      quoted_text: "The records referred to in paragraphs 1 and 2 shall be in writing.",
    };
    assert.equal(trail.subjectReferredTo(records, 10), "controller+processor");
    assert.equal(trail.subjectReferredTo(records, 9), undefined);
    // The object of a preposition is not the subject: the single point of contact forwards it.
    const receipt =
      "Upon receipt of the records referred to in paragraphs 1 and 2, the single point of contact shall";
    assert.equal(trail.subjectReferredTo({ ...records, quoted_text: receipt }, 10), undefined);

    trail.remember(
      "mifid2/art_69",
      "mifid2/art_69__para_1",
      "be given all supervisory powers",
      "member_state",
    );
    trail.empower("mifid2/art_69__para_1", "competent_authority");
    const powers = { node: "mifid2/art_69__para_2__point_l", actor: "The powers referred to in paragraph 1" };
    assert.equal(trail.referredTo(powers.node, powers.actor, 10), "competent_authority");
    assert.equal(trail.referredTo(powers.node, powers.actor, 9), "member_state");
  });

  test("rules 10: a thing a paragraph makes is that paragraph's, and a document its author's where no party types it", () => {
    const trail = new ThingTrail<string>((held) => held.join("+"));
    trail.remember(
      "cra/art_14",
      "cra/art_14__para_1",
      "notify any actively exploited vulnerability",
      "manufacturer",
    );
    trail.remember(
      "cra/art_14",
      "cra/art_14__para_6",
      "request manufacturers to provide an intermediate report",
      "csirt",
    );
    const referred = {
      node: "cra/art_14__para_7",
      actor: "The notifications referred to in paragraphs 1 and 3 of this Article",
      quoted_text:
        "The notifications referred to in paragraphs 1 and 3 of this Article shall be submitted via the platform.",
    };
    assert.equal(trail.subjectReferredTo(referred, 10), "manufacturer");
    const notification = {
      ...referred,
      actor: "The notification",
      quoted_text: "The notification shall be submitted.",
    };
    assert.equal(trail.subjectReferredTo(notification, 10), "manufacturer");
    assert.equal(trail.subjectReferredTo({ ...notification, actor: "The register" }, 10), undefined);
  });

  test("rules 12: an agreement is its parties', named as the text lists them, not a pronoun", () => {
    const mdr =
      "In cases where a manufacturer terminates its contract with a notified body …, the detailed arrangements for the change of notified body shall be clearly defined in an agreement between the manufacturer, the incoming notified body and, where practicable the outgoing notified body. That agreement shall cover at least the following aspects:";
    assert.equal(
      agreementParties("That agreement", [
        "the date on which the contract with the outgoing notified body ends;",
        mdr,
      ]),
      "the manufacturer  the incoming notified body and  where practicable the outgoing notified body",
    );
    assert.equal(
      agreementParties("That agreement", [
        "They shall determine their responsibilities by means of an arrangement between them.",
      ]),
      null,
    );
    assert.equal(agreementParties("The technical documentation", [mdr]), null);
  });
});
