/** What a pronoun or a relative clause refers back to (src/obligations/antecedents.ts, rules 8). */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { conditionSubject, demonstrativeThing, passedOnDuty } from "../../src/obligations/antecedents.ts";

describe("antecedents", () => {
  test("a pronoun stands for the party a conditional clause names, in number", () => {
    const where = "Where the payee or the payment service provider of the payee fails to accept it, ";
    assert.equal(conditionSubject(where, "it"), "the payee or the payment service provider of the payee");
    assert.equal(conditionSubject("Where the distributors consider that a device is unsafe, ", "it"), null);
    assert.equal(
      conditionSubject("Where the distributors consider that a device is unsafe, ", "they"),
      "the distributors",
    );
  });

  test("a saving clause before the condition is no part of it (RED Art 43(1))", () => {
    assert.equal(
      conditionSubject(
        "Without prejudice to Article 40, where a Member State makes one of the following findings, ",
        "it",
      ),
      "a Member State",
    );
  });

  test("a pronoun not agreeing with the party, said to be of a kind, is a thing of the party's (PSD2 Art 40(3))", () => {
    const where =
      "Where the payment service provider may impose charges for information in accordance with paragraph 2, ";
    assert.equal(
      conditionSubject(
        where,
        "they",
        " be reasonable and in line with the payment service provider’s actual costs.",
      ),
      "the payment service provider",
    );
    // One said to act is left to the previous actor: a thing does not inform.
    assert.equal(conditionSubject(where, "they", " inform the user."), null);
  });

  test("a public body or a subject without article names the pronoun too; a citation in the subject is no part of it", () => {
    assert.equal(
      conditionSubject("Where the Commission finds that the conditions are not met, ", "it"),
      "the Commission",
    );
    assert.equal(
      conditionSubject("Where a Member State considers that a specification falls short, ", "it"),
      "a Member State",
    );
    assert.equal(
      conditionSubject(
        "Where providers of very large online platforms as referred to in Article 33 of Regulation (EU) 2022/2065 of the European Parliament and of the Council (6) require user authentication for access to online services, ",
        "they",
      ),
      "providers of very large online platforms",
    );
  });

  test("a thing heading the clause, or a subject that is no pronoun, leaves the actor alone", () => {
    assert.equal(
      conditionSubject("Where the notification to the supervisory authority is late, ", "it"),
      null,
    );
    assert.equal(conditionSubject("Where a payment order is initiated, ", "it"), null);
    assert.equal(conditionSubject("Where the provider fails to act, ", "the importer"), null);
  });

  test("a duty passed on to the party informed, quoted from that party on", () => {
    const text =
      "The authority shall inform the manufacturer, or where applicable the authorised representative, which shall then take the necessary corrective actions.";
    const next = passedOnDuty(text);
    assert.deepEqual(next && { ...next, from: text.slice(next.from, next.from + 16) }, {
      modal: "shall",
      actor: "the manufacturer or where applicable the authorised representative",
      action: "take the necessary corrective actions",
      from: "the manufacturer",
    });
    assert.equal(passedOnDuty("The provider shall draw up a report, which shall include the results."), null);
  });

  test("rules 12: a citation of the article's own paragraph and point is no part of the condition's subject", () => {
    const before =
      "If an entity as referred to in paragraph 1, point (b), is not established in the Union, but offers services within the Union, ";
    assert.equal(conditionSubject(before, "it", "designate a representative in the Union", 11), null);
    assert.equal(conditionSubject(before, "it", "designate a representative in the Union", 12), "an entity");
    // Rules 12 also read a party that opts or chooses.
    const opts =
      "Where a microenterprise or small enterprise opts to provide the information set out in Annex VII in a simplified manner, ";
    assert.equal(conditionSubject(opts, "it", "use the form", 11), null);
    assert.equal(conditionSubject(opts, "it", "use the form", 12), "a microenterprise or small enterprise");
    const reuser =
      "Where a re-user intends to transfer non-personal data protected on the grounds set out in Article 3(1) to a third country, ";
    assert.equal(conditionSubject(reuser, "it", "inform the public sector body", 11), null);
    assert.equal(conditionSubject(reuser, "it", "inform the public sector body", 12), "a re-user");
  });

  test("rules 12: a demonstrative before a thing, not before a party", () => {
    assert.equal(
      demonstrativeThing("Such decision to refuse the status of authorised CBAM declarant"),
      "Such decision",
    );
    assert.equal(
      demonstrativeThing("Such information provided to the recipient of the service"),
      "Such information",
    );
    assert.equal(demonstrativeThing("That competent authority"), null);
    assert.equal(demonstrativeThing("Such a person"), null);
    assert.equal(demonstrativeThing("The decision"), null);
    // "that" opening a clause ("ensure that access … is free of charge") is no demonstrative.
    assert.equal(
      demonstrativeThing("that access to the AI regulatory sandboxes is free of charge for SMEs"),
      null,
    );
  });

  test("rules 13: a coordinator is a condition's subject", () => {
    const before =
      "Where a Digital Services Coordinator has reason to suspect that a provider has infringed this Regulation, ";
    assert.equal(conditionSubject(before, "it", "send a request to the Commission", 12), null);
    assert.equal(
      conditionSubject(before, "it", "send a request to the Commission", 13),
      "a Digital Services Coordinator",
    );
  });

  test("rules 15: a clause set off right after 'Where' is no part of the condition's subject (RED Art 42(1))", () => {
    const where =
      "Where, having carried out an evaluation under Article 40(1), a Member State finds that although radio equipment is in compliance with this Directive, it presents a risk, ";
    assert.equal(
      conditionSubject(where, "it", " require the relevant economic operator to act.", 15),
      "a Member State",
    );
    assert.equal(conditionSubject(where, "it", " require the relevant economic operator to act.", 14), null);
  });
});
