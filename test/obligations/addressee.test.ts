/**
 * Who holds a duty (src/obligations/addressee.ts): a regulated party, the State side, or no one; and the
 * regulated parties a Member State's duty binds through national law, or a right is held against.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { addresseeOf, isRuleAboutLaw, owedBy } from "../../src/obligations/addressee.ts";
import { ActorMap, parseTaxonomy } from "../../src/obligations/taxonomy.ts";

const tax = parseTaxonomy(
  `entity_types:
  - { id: provider, label: provider, parents: [], defined_in: x }
  - { id: controller, label: controller, parents: [], defined_in: x }
  - { id: user, label: user, parents: [], defined_in: x }
  - { id: member_state, label: Member State, parents: [], defined_in: x, addressee: member_state }
  - { id: commission, label: Commission, parents: [], defined_in: x, addressee: union_body }
`,
  `actors:
  - { phrase: payment service providers, types: [provider] }
  - { phrase: payment service provider, types: [provider] }
  - { phrase: controller, types: [controller] }
  - { phrase: payment service users, types: [user] }
  - { phrase: Member States, types: [member_state] }
  - { phrase: Commission, types: [commission] }
`,
  "x",
);
const map = new ActorMap(tax);
const of = (actor: string, action: string) => addresseeOf(actor, action, "psd", map, tax);

describe("addressees", () => {
  test("a regulated party holds its own duty; the Commission's is a Union body's; an unknown actor is no one", () => {
    assert.deepEqual(of("Payment service providers", "keep records"), {
      addressee: "regulated_party",
      through_national_law: null,
    });
    assert.deepEqual(of("The Commission", "adopt delegated acts"), {
      addressee: "union_body",
      through_national_law: null,
    });
    assert.deepEqual(of("The widget", "rotate"), { addressee: "none", through_national_law: null });
  });

  test("rules 8: a State that 'shall further ensure that' parties act prescribes their conduct, as 'shall ensure that' does (MiFID II Art 75(1)); a party set off by commas is still named (AIFMD Art 10(1))", () => {
    const at = (action: string, rules: number) =>
      addresseeOf("Member States", action, "psd", map, tax, rules, "obligation");
    assert.deepEqual(
      at("further ensure that all payment service providers adhere to such bodies", 7).through_national_law,
      null,
    );
    assert.deepEqual(
      at("further ensure that all payment service providers adhere to such bodies", 8).through_national_law,
      ["provider"],
    );
    assert.deepEqual(
      at("require that payment service providers, before implementation, notify the authority", 8)
        .through_national_law,
      ["provider"],
    );
  });

  test("a State that shall not require a party to act, or that publishes what is imposed on parties, prescribes no conduct of theirs (EECC Arts 12(3), 120(5))", () => {
    const rules8 = (action: string, modality: "obligation" | "prohibition") =>
      addresseeOf("Member States", action, "psd", map, tax, 8, modality);
    assert.deepEqual(
      rules8("require payment service providers to obtain an explicit decision", "prohibition"),
      {
        addressee: "member_state",
        through_national_law: null,
      },
    );
    assert.deepEqual(
      rules8("require payment service providers to obtain an explicit decision", "obligation"),
      {
        addressee: "member_state",
        through_national_law: ["provider"],
      },
    );
    assert.deepEqual(
      rules8(
        "ensure that the specific obligations imposed on payment service providers are published",
        "obligation",
      ),
      { addressee: "member_state", through_national_law: null },
    );
  });

  test("'take appropriate measures to ensure that' prescribes conduct as 'ensure that' does; a market measure after the safeguard procedure is the State's (RED Arts 6, 41(2))", () => {
    assert.deepEqual(
      of(
        "Member States",
        "take appropriate measures to ensure that payment service providers keep records only if they comply",
      ),
      { addressee: "member_state", through_national_law: ["provider"] },
    );
    assert.deepEqual(
      of(
        "all Member States",
        "take the necessary measures to ensure that the payment service providers' non-compliant product is withdrawn or recalled from their market",
      ),
      { addressee: "member_state", through_national_law: null },
    );
  });

  test("a rule about law binds no one", () => {
    assert.ok(isRuleAboutLaw("Union or Member State law"));
    assert.ok(isRuleAboutLaw("National provisions"));
    assert.ok(!isRuleAboutLaw("Member States"));
    assert.deepEqual(of("Union or Member State law", "restrict the scope"), {
      addressee: "none",
      through_national_law: null,
    });
  });

  test("rules 8: an entity acts through its management body; a party told something, or named after a preposition, is not the one who acts", () => {
    const of8 = (action: string) => addresseeOf("Member States", action, "psd", map, tax, 8);
    assert.deepEqual(
      of8("ensure that the management bodies of payment service providers approve the measures"),
      {
        addressee: "member_state",
        through_national_law: ["provider"],
      },
    );
    assert.deepEqual(
      of8(
        "ensure that the members of the management bodies of payment service providers are required to follow training",
      ),
      { addressee: "member_state", through_national_law: ["provider"] },
    );
    assert.deepEqual(of8("ensure that the information provided to payment service providers assists them"), {
      addressee: "member_state",
      through_national_law: null,
    });
    assert.deepEqual(
      of8("ensure that payment service providers that are no longer authorised are notified in due time"),
      {
        addressee: "member_state",
        through_national_law: null,
      },
    );
    // The rules a ledger names are the rules its atoms are read with: rules 7 read the old way.
    const told = "ensure that the information provided to the controller assists them";
    assert.deepEqual(addresseeOf("Member States", told, "psd", map, tax, 7).through_national_law, [
      "controller",
    ]);
    assert.equal(addresseeOf("Member States", told, "psd", map, tax, 8).through_national_law, null);
  });

  test("a Member State's duty that prescribes a party's conduct binds that party through national law", () => {
    assert.deepEqual(of("Member States", "ensure that payment service providers keep records"), {
      addressee: "member_state",
      through_national_law: ["provider"],
    });
    assert.deepEqual(of("Member States", "require payment service providers to report fraud"), {
      addressee: "member_state",
      through_national_law: ["provider"],
    });
  });

  test("the agent of a passive is the party bound", () => {
    assert.deepEqual(
      of(
        "Member States",
        "ensure that the information is provided by the payment service provider to the user",
      ),
      {
        addressee: "member_state",
        through_national_law: ["provider"],
      },
    );
  });

  test("what only a State can do, a right of the party, or a party named far into the sentence binds no firm", () => {
    const none = { addressee: "member_state", through_national_law: null };
    assert.deepEqual(
      of("Member States", "lay down the rules on penalties applicable to payment service providers"),
      none,
    );
    assert.deepEqual(of("Member States", "designate the competent authorities"), none);
    assert.deepEqual(
      of("Member States", "ensure that payment service providers have access to payment systems"),
      none,
    );
    assert.deepEqual(
      of(
        "Member States",
        "ensure that out-of-court procedures for complaints are applicable to payment service providers",
      ),
      none,
    );
    assert.deepEqual(of("Member States", "cooperate with each other"), none);
  });

  test("a right held against a party is that party's correlative duty", () => {
    assert.deepEqual(
      owedBy("have the right to obtain from the controller the erasure of data", "psd", map, tax),
      ["controller"],
    );
    assert.equal(owedBy("have the right to lodge a complaint", "psd", map, tax), null);
    assert.equal(
      owedBy("have the right to obtain from the Commission an answer", "psd", map, tax),
      null,
      "not a regulated party",
    );
  });

  test("rules 11: of public holders named together, the first named holds the duty (LED Art 40, 'Member States and ESMA')", () => {
    // As the EU actor map reads it: the pair is one phrase naming both.
    const both = parseTaxonomy(
      `entity_types:
  - { id: provider, label: provider, parents: [], defined_in: x }
  - { id: member_state, label: Member State, parents: [], defined_in: x, addressee: member_state }
  - { id: commission, label: Commission, parents: [], defined_in: x, addressee: union_body }
`,
      `actors:
  - { phrase: Commission and Member States, types: [commission, member_state] }
  - { phrase: Member States and the Commission, types: [commission, member_state] }
  - { phrase: payment service providers, types: [provider] }
  - { phrase: Commission, types: [commission] }
`,
      "x",
    );
    const pairs = new ActorMap(both);
    const at = (actor: string, rules: number) =>
      addresseeOf(actor, "develop cooperation", "psd", pairs, both, rules).addressee;
    assert.equal(at("The Commission and Member States", 10), "member_state");
    assert.equal(at("The Commission and Member States", 11), "union_body");
    assert.equal(at("Member States and the Commission", 11), "member_state");
    assert.equal(at("Payment service providers", 11), "regulated_party");
  });

  test("rules 13: a subject is law by its head, not by the law its relative clause cites", () => {
    const bodies =
      "Public sector bodies which are competent under national law to grant or refuse access for the re-use of one or more of the categories of data";
    assert.equal(isRuleAboutLaw(bodies, 12), true);
    assert.equal(isRuleAboutLaw(bodies, 13), false);
    assert.equal(isRuleAboutLaw("Union or Member State law which applies to the controller", 13), true);
  });

  test("rules 13: what national law shall say or may do is the State's to legislate; Union law holds nothing", () => {
    const at = (actor: string, rules: number) =>
      addresseeOf(actor, "specify at least the objectives of processing", "psd", map, tax, rules).addressee;
    assert.equal(at("Member State law regulating processing within the scope of this Directive", 12), "none");
    assert.equal(
      at("Member State law regulating processing within the scope of this Directive", 13),
      "member_state",
    );
    assert.equal(at("Union or Member State law", 13), "member_state");
    assert.equal(at("The national measures referred to in paragraphs 1 and 2", 13), "member_state");
    assert.equal(at("Union law", 13), "none");
  });
});
