/**
 * A duty's modality (src/obligations/modality.ts): what the modal says, as each rule set reads grants,
 * rights and prohibitions worded with "shall" and "may".
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { modalityIn } from "../../src/obligations/modality.ts";

describe("modality", () => {
  test("a list of powers a thing includes grants them from rules 9 (MiFID II Art 69(2), DORA Art 50(2))", () => {
    const head = " include, at least, the following powers to:";
    const subject = "The powers referred to in paragraph 1";
    assert.equal(modalityIn("shall", head, subject, 8), "obligation");
    assert.equal(modalityIn("shall", head, subject, 9), "permission");
    assert.equal(
      modalityIn("shall", " include at least the following information:", "The application", 9),
      "obligation",
    );
  });

  test("a power held, a prohibition and a plain duty read as before", () => {
    assert.equal(
      modalityIn("shall", " have the following investigative powers:", "Each authority", 8),
      "permission",
    );
    assert.equal(modalityIn("shall not", " disclose the information", "The provider", 9), "prohibition");
    assert.equal(modalityIn("shall", " keep records", "The provider", 9), "obligation");
  });

  test("rules 9: a jurisdiction, a competence, a time allowed and a power past an interjected clause are grants", () => {
    for (const [head, subject] of [
      [
        " have unlimited jurisdiction to review decisions of the Commission",
        "The Court of Justice of the European Union",
      ],
      [
        " have 20 working days from the date of notification of that draft decision to provide observations",
        "Issuers",
      ],
      [
        ", where the procedure outlined in paragraph 2 is initiated, be empowered to adopt delegated acts",
        "The Commission",
      ],
    ] as const) {
      assert.equal(modalityIn("shall", head, subject, 8), "obligation", head);
      assert.equal(modalityIn("shall", head, subject, 9), "permission", head);
    }
  });

  test("rules 9: a public body's ability is a power, a firm's a capability it must have", () => {
    assert.equal(
      modalityIn("shall", " be able to waive the obligation", "Competent authorities", 9),
      "permission",
    );
    assert.equal(
      modalityIn("shall", " be able to identify the following", "Economic operators", 9),
      "obligation",
    );
  });

  test("rules 9: a permission only on a far condition, and what is limited to the listed, forbid the rest", () => {
    const permit =
      " permit an investment firm or market operator operating an OTF to engage in matched principal trading in bonds only where the client has consented to the process";
    assert.equal(modalityIn("shall", permit, "Member States", 8), "obligation");
    assert.equal(modalityIn("shall", permit, "Member States", 9), "prohibition");
    assert.equal(
      modalityIn("shall", " be limited to the following:", "The involvement of the notified body", 9),
      "prohibition",
    );
    assert.equal(modalityIn("shall", " permit access to the register", "Member States", 9), "obligation");
  });

  test("rules 10: a power conferred is a grant; what may be done only for a purpose, on a basis or of a kind forbids the rest", () => {
    const delegation = "The power to adopt delegated acts referred to in Article 6(6)";
    const conferred = " be conferred on the Commission for a period of five years";
    assert.equal(modalityIn("shall", conferred, delegation, 9), "obligation");
    assert.equal(modalityIn("shall", conferred, delegation, 10), "permission");
    const rts = " be delegated to the Commission to adopt the regulatory technical standards";
    assert.equal(modalityIn("shall", rts, "Power", 10), "permission");
    // A task conferred is still a duty.
    assert.equal(
      modalityIn("shall", " be conferred on the Agency", "The task of the secretariat", 10),
      "obligation",
    );
    for (const [subject, head] of [
      [
        "Health data users",
        " only process electronic health data for secondary use on the basis of a data permit",
      ],
      ["The results or output of secondary use", " contain only anonymous data"],
      ["Importers", " place only compliant machinery on the market"],
    ] as const) {
      assert.equal(modalityIn("shall", head, subject, 9), "obligation", `until rules 10: ${head}`);
      assert.equal(modalityIn("shall", head, subject, 10), "prohibition", `from rules 10: ${head}`);
    }
    // "may … only" is read by the rules before (ONLY_IF_3); "only" before a condition too.
    assert.equal(modalityIn("shall", " keep only if requested", "The provider", 10), "prohibition");
    assert.equal(modalityIn("shall", " keep the records for five years", "The provider", 10), "obligation");
  });

  test("rules 11: what may be done only with another's agreement is barred without it", () => {
    const head =
      " release the content of that report, in full or in part, only with the agreement of the manufacturer";
    assert.equal(modalityIn("shall", head, "the notified body", 10), "obligation");
    assert.equal(modalityIn("shall", head, "the notified body", 11), "prohibition");
    assert.equal(
      modalityIn("shall", " act with the agreement of the manufacturer", "the notified body", 11),
      "obligation",
    );
  });

  /** A head read as `from` under the rules before `rules`, and as `to` from them on. */
  const readsAnew = (rules: number, subject: string, head: string, from: string, to: string) => {
    assert.equal(modalityIn("shall", head, subject, rules - 1), from, `until rules ${rules}: ${head}`);
    assert.equal(modalityIn("shall", head, subject, rules), to, `from rules ${rules}: ${head}`);
  };

  test('rules 12: "only" past a citation, a State\'s "provide for … only where" and "Neither … nor" bar the rest', () => {
    readsAnew(
      12,
      "The policy",
      " only permit the use of the methods referred to in paragraph 2, points (c) and (d), where the financial entity:",
      "obligation",
      "prohibition",
    );
    readsAnew(
      12,
      "Member States",
      " provide for any transfer by competent authorities of personal data … to take place, subject to compliance with the national provisions, only where the conditions laid down in this Chapter are met, namely:",
      "obligation",
      "prohibition",
    );
    readsAnew(
      12,
      "Neither a conformity assessment body, its top-level management nor the personnel responsible for carrying out its conformity assessment tasks",
      " be directly involved in the design",
      "obligation",
      "prohibition",
    );
    assert.equal(
      modalityIn("shall", " provide for penalties for infringements", "Member States", 12),
      "obligation",
    );
  });

  test('rules 12: powers listed past an interjection and "at least", and the ways they are exercised, are granted', () => {
    readsAnew(
      12,
      "competent authorities",
      " have, in accordance with national law, at least the following supervisory and investigatory powers in addition to the powers referred to in paragraph 1:",
      "obligation",
      "permission",
    );
    readsAnew(12, "Such powers", " be exercised in any of the following ways:", "obligation", "permission");
  });

  test('rules 14: "only if" however far past the object bars the rest, not what a State is to ensure', () => {
    const far =
      " conclude administrative agreements on the exchange of information with the supervisory authorities of third countries only if the information disclosed is subject to guarantees of professional secrecy.";
    assert.equal(modalityIn("may", far, "EBA", 13), "permission");
    assert.equal(modalityIn("may", far, "EBA", 14), "prohibition");
    assert.equal(
      modalityIn(
        "shall",
        " take appropriate measures to ensure that radio equipment is made available on the market only if it complies with this Directive.",
        "Member States",
        14,
      ),
      "obligation",
    );
  });

  test("rules 14: a public body or a committee that shall be consulted is a duty to consult it, not a party's guarantee", () => {
    readsAnew(
      14,
      "The relevant competent authorities of the other Member States involved",
      " be consulted before authorisation is granted to the following AIFMs:",
      "permission",
      "obligation",
    );
    readsAnew(
      14,
      "The committee",
      " be consulted by the Commission on any matter.",
      "permission",
      "obligation",
    );
    assert.equal(
      modalityIn(
        "shall",
        " be consulted and have the possibility to present their views.",
        "The operators concerned",
        14,
      ),
      "permission",
    );
  });

  test("rules 14: powers and discretion a party shall have are grants", () => {
    readsAnew(
      14,
      "The Commission",
      " have exclusive powers to supervise and enforce Chapter V.",
      "obligation",
      "permission",
    );
    readsAnew(
      14,
      "The Commission",
      " have full discretion as regards the appropriate measures.",
      "obligation",
      "permission",
    );
    readsAnew(
      14,
      "the AI Office",
      " have all the powers of a market surveillance authority.",
      "obligation",
      "permission",
    );
    assert.equal(modalityIn("shall", " have the necessary resources.", "The authority", 14), "obligation");
  });

  test("rules 13: access a party shall have is a right, not the means a body must have nor access kept to some", () => {
    readsAnew(
      13,
      "The Commission and the Member States",
      " have access to the Safety Gate Rapid Alert System.",
      "obligation",
      "permission",
    );
    assert.equal(
      modalityIn(
        "shall",
        " have access to all necessary equipment or facilities.",
        "A conformity assessment body",
        13,
      ),
      "obligation",
    );
    assert.equal(
      modalityIn(
        "shall",
        " have access to the respective restricted section",
        "Only the Commission and national authorities",
        13,
      ),
      "obligation",
    );
  });

  test("rules 13: a lead-in listing the only places a thing is done bars the rest", () => {
    readsAnew(
      13,
      "Financial counterparties",
      " conclude transactions which are neither intragroup transactions as defined in Article 3 of that Regulation nor transactions covered by the transitional provisions in Article 89 of that Regulation with other financial counterparties only on:",
      "obligation",
      "prohibition",
    );
    // A list that is no bar: "shall include, on:" stays a duty.
    assert.equal(modalityIn("shall", " include information on:", "The report", 13), "obligation");
  });
});
