/** The agent of a passive duty (src/obligations/passive.ts), rule by rule. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { agentInSubject, agentOf, recipientOf } from "../../src/obligations/passive.ts";

describe("the agent of a passive duty", () => {
  test("the 'by' phrase after the participle names the holder; a date or a means names no one", () => {
    assert.equal(agentOf(" be submitted by the Commission to the Council.", 1), "the Commission");
    assert.equal(agentOf(" be submitted by the date of application.", 1), null);
    assert.equal(agentOf(" be kept up to date.", 1), null);
  });

  test("rules 2 read irregular participles", () => {
    assert.equal(agentOf(" be made available by the payment service provider.", 1), null);
    assert.equal(
      agentOf(" be made available by the payment service provider.", 2),
      "the payment service provider",
    );
  });

  test("rules 6: 'by' after a participle that follows a noun is that participle's agent", () => {
    const text = " be translated into the languages required by the Member State.";
    assert.equal(agentOf(text, 5), "the Member State");
    assert.equal(agentOf(text, 6), null);
  });

  test("rules 8: an article-less party, not in a relative clause nor after 'of'; the first 'by' wins", () => {
    assert.equal(agentOf(" be granted full access by providers to the data.", 7), null);
    assert.equal(agentOf(" be granted full access by providers to the data.", 8), "providers");
    assert.equal(
      agentOf(" be carried out by Member States as laid down by the Commission.", 8),
      "Member States",
    );
    assert.equal(agentOf(" be provided in a language which can be understood by users.", 8), null);
    assert.equal(agentOf(" be given to the storage of the UDI by economic operators.", 8), null);
    assert.equal(agentOf(" be extended by three months.", 8), null);
  });

  test("rules 8: what is defined in an agreement between parties is the first party's to define", () => {
    const after =
      " be clearly defined in an agreement between the manufacturer, the incoming notified body and, where practicable the outgoing notified body.";
    assert.equal(agentOf(after, 7), null);
    assert.equal(agentOf(after, 8), "the manufacturer");
    assert.equal(
      agentOf(" be defined in an agreement between the provider and the deployer.", 8),
      "the provider",
    );
  });

  test("rules 11: what a thing is followed by, and a 'by' inside a relative clause, name no agent", () => {
    const followed = " be followed by the identification number of the notified body responsible.";
    assert.equal(agentOf(followed, 10), "the identification number of the notified body responsible");
    assert.equal(agentOf(followed, 11), null);
    const reader = " be written in a way that is readily understood by a lay person.";
    assert.equal(agentOf(reader, 10), "a lay person");
    assert.equal(agentOf(reader, 11), null);
    assert.equal(
      agentOf(" be made publicly available by the holder of the certificate.", 11),
      "the holder of the certificate",
    );
  });

  test("rules 13: an adjective in -ent or -ant is no participle, so its sentence names no agent", () => {
    const lead =
      " be competent to act as lead supervisory authority for the cross-border processing carried out by that controller or processor";
    assert.equal(agentOf(lead, 12), "that controller");
    assert.equal(agentOf(lead, 13), null);
    assert.equal(
      agentOf(" be consistent with the timeline set by the Lead Overseer for each recommendation.", 13),
      null,
    );
    assert.equal(agentOf(" be sent by the Commission to the Member States.", 13), "the Commission");
  });

  test("rules 13: the party a thing-subject's act is done by", () => {
    assert.equal(
      agentInSubject("The monitoring of notified bodies by the authority responsible for notified bodies"),
      "the authority responsible for notified bodies",
    );
    assert.equal(agentInSubject("A request to access a CCP by a trading venue"), "a trading venue");
    // A party a "by" qualifies is the holder named first.
    assert.equal(agentInSubject("The officials and other persons authorised by the Lead Overseer"), null);
    assert.equal(agentInSubject("the coordinating Member State proposed by the sponsor"), null);
  });

  test("rules 13: a vote's majority is the body's", () => {
    const vote =
      " be adopted within one month from the referral of the subject-matter by a two-thirds majority of the members of the Board.";
    assert.equal(agentOf(vote, 12), "a two-thirds majority of the members of the Board");
    assert.equal(agentOf(vote, 13), "the Board");
  });

  test("rules 14: the party a passive gives its subject to, not a purpose, a topic nor another instance of a kind", () => {
    assert.equal(
      recipientOf(" be notified to competent authorities upon request", 14),
      "competent authorities",
    );
    assert.equal(recipientOf(" be notified to ESMA", 14), "ESMA");
    assert.equal(
      recipientOf(
        ", on request, be supplied to the national regulatory authority before its publication",
        14,
      ),
      "the national regulatory authority",
    );
    assert.equal(recipientOf(" be notified to ESMA", 13), null);
    // An infinitive of purpose gives nothing to anyone.
    assert.equal(recipientOf(" be provided to render stationary machinery immobile", 14), null);
    // Whom information is given to, not what it is about.
    assert.equal(
      recipientOf(
        " be provided in good time to clients or potential clients with regard to the investment firm",
        14,
      ),
      null,
    );
    // Another State's authority, or every State, is another party of the same kind.
    assert.equal(
      recipientOf(" be communicated to the competent authorities of the host Member State", 14),
      null,
    );
    assert.equal(
      recipientOf(" be made available through the electronic system to all Member States", 14),
      null,
    );
  });
});
