/**
 * Extraction rules 6 (src/obligations/atoms.ts, docs/obligations.md#extraction-rules): one small
 * sentence per rule, read under rules 6 and, where it changes, under rules 5.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Unit } from "../../src/canon/model.ts";
import { extractAtoms } from "../../src/obligations/atoms.ts";
import type { ObligationsCanon } from "../../src/obligations/canon.ts";
import { emptyLedger, sync } from "../../src/obligations/ledger.ts";
import { documentHolders, releaseAtoms } from "../../src/obligations/release-atoms.ts";
import { parseTaxonomy } from "../../src/obligations/taxonomy.ts";

/** An article of act `act` whose paragraphs are `texts`; a text ending with ":" takes the next `points`. */
function article(act: string, texts: (string | { lead: string; points: string[] })[]): Unit[] {
  const unit = (eid: string, kind: Unit["kind"], parent: string | null, own: string): Unit => ({
    node: `${act}/${eid}`,
    act,
    eid,
    kind,
    num: null,
    heading: null,
    parent,
    own_text: own,
    text: own,
    citation: eid,
    eli: `http://example.eu/${act}/${eid}`,
    valid_from: "2026-01-01",
    valid_to: null,
  });
  const units = [unit("art_1", "article", null, "")];
  texts.forEach((t, i) => {
    const eid = `art_1__para_${i + 1}`;
    if (typeof t === "string") {
      units.push(unit(eid, "paragraph", `${act}/art_1`, t));
      return;
    }
    units.push(unit(eid, "paragraph", `${act}/art_1`, t.lead));
    t.points.forEach((p, j) => {
      units.push(unit(`${eid}__point_${"abcdefgh"[j]}`, "point", `${act}/${eid}`, p));
    });
  });
  return units;
}

const read = (units: Unit[], rules: number, own: string[] = []) =>
  extractAtoms(units, rules, new Set(own)).map((a) => ({
    modality: a.modality,
    actor: a.actor,
    text: a.quoted_text,
  }));

describe("extraction rules 6", () => {
  test("what a document contains is not a duty; in an act on one party's documents it is that party's", () => {
    const units = article("x", [
      "The report shall contain an assessment of the impact on small enterprises.",
    ]);
    assert.equal(read(units, 5).length, 1);
    assert.deepEqual(read(units, 6), []);
    assert.equal(read(units, 6, ["x"]).length, 1);
  });

  test("nor are the points completing a lead-in that says what a document contains", () => {
    const units = article("x", [
      {
        lead: "The summary shall contain a warning that:",
        points: ["the prospective holder should read the white paper as a whole;"],
      },
    ]);
    assert.equal(read(units, 5).length, 1);
    assert.deepEqual(read(units, 6), []);
  });

  test("a party's lead-in is still stated point by point", () => {
    const units = article("x", [
      { lead: "The provider shall:", points: ["keep the logs for six months;", "inform the deployer."] },
    ]);
    assert.deepEqual(
      read(units, 6).map((a) => [a.actor, a.text]),
      [
        ["The provider", "keep the logs for six months;"],
        ["The provider", "inform the deployer."],
      ],
    );
  });

  test("an exemption states no duty; the sentence's other duty stands", () => {
    const units = article("x", [
      "Micro enterprises shall not be required to appoint a representative and shall keep a register of requests.",
    ]);
    assert.deepEqual(
      read(units, 5).map((a) => a.modality),
      ["prohibition", "obligation"],
    );
    assert.deepEqual(read(units, 6), [
      { modality: "obligation", actor: "Micro enterprises", text: "shall keep a register of requests." },
    ]);
  });

  test("a qualification is not a duty", () => {
    const units = article("x", [
      "An economic activity shall qualify as sustainable where it reduces emissions.",
    ]);
    assert.equal(read(units, 5).length, 1);
    assert.deepEqual(read(units, 6), []);
  });

  test("a modal in a relative clause is not the sentence's verb", () => {
    const may = article("x", [
      "A description of the conditions under which the rights and obligations may be modified;",
    ]);
    assert.equal(read(may, 5).length, 1);
    assert.deepEqual(read(may, 6), []);
    const shall = article("x", [
      {
        lead: "The notified body shall:",
        points: ["for each project, provide a detailed report which shall be based on a standard format;"],
      },
    ]);
    assert.deepEqual(
      read(shall, 6).map((a) => a.actor),
      ["The notified body"],
    );
  });

  test("'it shall be verified that …' is impersonal, not the previous actor's", () => {
    const units = article("x", [
      "The investigator shall give the subject the information.",
      "It shall be verified that the subject has understood the information.",
    ]);
    assert.equal(read(units, 5)[1]?.actor, "The investigator");
    assert.equal(read(units, 6)[1]?.actor, "It");
  });

  test("'by' after a participle following a noun is that participle's agent, not the duty's", () => {
    const units = article("x", [
      "The EU declaration of conformity shall be kept up to date. It shall be translated into the languages required by the Member State.",
    ]);
    assert.equal(read(units, 5)[1]?.actor, "the Member State");
    assert.equal(read(units, 6)[1]?.actor, "The EU declaration of conformity");
  });

  test("a connective opening the sentence is no part of its subject", () => {
    const units = article("x", ["However, the importer shall inform the manufacturer."]);
    assert.equal(read(units, 5)[0]?.actor, "However, the importer");
    assert.equal(read(units, 6)[0]?.actor, "the importer");
  });

  test("a point's passive duty with no agent, under a party's lead-in, is that party's", () => {
    const units = article("x", [
      {
        lead: "Participants in data spaces shall comply with the following requirements:",
        points: ["the dataset content shall be described in a machine-readable format;"],
      },
    ]);
    assert.equal(read(units, 5)[0]?.actor, "the dataset content");
    assert.equal(read(units, 6)[0]?.actor, "Participants in data spaces");
  });

  test("rules 8: 'shall be empowered to' grants a power; 'shall only <verb> … if' forbids the rest", () => {
    const units = article("x", [
      "The Commission shall be empowered to adopt delegated acts in accordance with Article 89.",
      "Other undertakings shall only provide crypto-asset services if their legal form ensures equivalent protection.",
    ]);
    assert.deepEqual(
      read(units, 7).map((a) => a.modality),
      ["obligation", "obligation"],
    );
    assert.deepEqual(
      read(units, 8).map((a) => a.modality),
      ["permission", "prohibition"],
    );
  });

  test("rules 8: the points of an exception or of a derogation's conditions are no duties; the lead-in's duty is one", () => {
    const units = article("x", [
      {
        lead: "In the case of implantable devices, clinical investigations shall be performed, except if:",
        points: [
          "the device has been designed by modifications of a device already marketed;",
          "the modification is endorsed.",
        ],
      },
    ]);
    assert.equal(read(units, 7).length, 2);
    assert.deepEqual(
      read(units, 8).map((a) => a.text),
      ["In the case of implantable devices, clinical investigations shall be performed, except if:"],
    );
    // "may … only where all of the following conditions are met:" forbids the rest, condition by condition.
    const only = article("x", [
      {
        lead: "A clinical investigation may be conducted only where all of the following conditions are met:",
        points: ["it is authorised by the Member State;", "the subject has given informed consent."],
      },
    ]);
    assert.equal(read(only, 8).length, 2);
  });

  test("rules 8: who bears a loss, a risk or a burden of proof is an allocation, not a duty; who bears a cost pays", () => {
    const units = article("x", [
      "The payer shall bear all of the losses relating to any unauthorised payment transactions if they were incurred by the payer acting fraudulently.",
      "The payer shall not bear any financial consequences resulting from use of the lost payment instrument after notification.",
      "The payment service provider shall bear the risk of sending a payment instrument to the payer.",
      "At the payment service provider’s request, the payer shall bear the burden of proving such conditions are met.",
      "The company shall bear the cost of the independent third-party verification.",
    ]);
    assert.equal(read(units, 7).length, 5);
    assert.deepEqual(
      read(units, 8).map((a) => a.text),
      ["The company shall bear the cost of the independent third-party verification."],
    );
  });

  test("a point naming a party with 'for' under a document's passive lead-in names its holder", () => {
    const units = article("x", [
      {
        lead: "The information referred to in paragraph 1 shall be disclosed in the following manner:",
        points: ["for AIFMs, in the annual report;"],
      },
    ]);
    assert.equal(read(units, 5)[0]?.actor, "The information referred to in paragraph 1");
    assert.equal(read(units, 6)[0]?.actor, "AIFMs");
  });

  test("rules 8 (pt dev register): 'shall not apply' with an object is conduct; a procedure that does not preclude an action is an effect; a modal after 'to which' is a relative clause's", () => {
    const apply = article("x", ["Providers shall not apply any different requirements to end-users."]);
    assert.deepEqual(read(apply, 7), []);
    assert.deepEqual(read(apply, 8), [
      {
        modality: "prohibition",
        actor: "Providers",
        text: "Providers shall not apply any different requirements to end-users.",
      },
    ]);
    const effect = article("x", [
      "The procedure referred to in paragraph 2 shall not preclude either party from bringing an action before the courts.",
    ]);
    assert.equal(read(effect, 7).length, 1);
    assert.deepEqual(read(effect, 8), []);
    const relative = article("x", [
      "Where the use of radio spectrum has been harmonised, and undertakings to which the radio spectrum shall be assigned have been selected, Member States shall grant the right of use.",
    ]);
    assert.equal(read(relative, 7)[0]?.actor, "undertakings to which the radio spectrum");
    assert.equal(read(relative, 8)[0]?.actor, "Member States");
    // A clause "under which" a party shall act, completed by points, is that party's duty.
    const clause = article("x", [
      {
        lead: "The contract shall include a clause under which the provider shall:",
        points: ["provide reasonable assistance;"],
      },
    ]);
    assert.equal(read(clause, 8).length, read(clause, 7).length);
  });

  test("rules 8 (lu dev register): a noun's 'that must' is a relative clause; which authority supervises is no duty; 'accompanied by' names no agent", () => {
    const relative = article("x", [
      {
        lead: "The Commission shall adopt delegated acts specifying:",
        points: ["qualitative requirements that must be met by AIFMs which invest in such securities."],
      },
    ]);
    // What the delegated act lays down is the Commission's to adopt, not a duty of the AIFMs it names.
    assert.deepEqual(
      read(relative, 8).map((a) => a.actor),
      ["The Commission"],
    );
    const competence = article("x", [
      "The prudential supervision of an AIFM shall be the responsibility of the competent authorities of the home Member State.",
    ]);
    assert.equal(read(competence, 7).length, 1);
    assert.deepEqual(read(competence, 8), []);
    const accompanied = article("x", [
      "The information to be disclosed shall be accompanied by the following statement: 'None.'",
    ]);
    assert.match(read(accompanied, 7)[0]?.actor ?? "", /^the following statement/u);
    assert.equal(read(accompanied, 8)[0]?.actor, "The information to be disclosed");
  });

  test("rules 8 (nl investment firm register): which provisions also apply to whom is a rule about the act", () => {
    const units = article("x", [
      {
        lead: "The following provisions shall also apply to credit institutions:",
        points: ["Articles 23 to 26;"],
      },
    ]);
    assert.ok(read(units, 7).length > 0);
    assert.deepEqual(read(units, 8), []);
  });

  describe("holders found from context (release-atoms.ts)", () => {
    const taxonomy = parseTaxonomy(
      [
        "entity_types:",
        "  - { id: controller, label: controller, parents: [], defined_in: x/art_1 }",
        "  - { id: economic_operator, label: economic operator, parents: [], defined_in: x/art_1 }",
        "  - { id: authority, label: authority, parents: [], defined_in: x/art_1, addressee: public_authority }",
        "  - { id: distributor, label: distributor, parents: [], defined_in: x/art_1 }",
        "  - { id: designated_operator, label: designated operator, parents: [economic_operator], defined_in: x/art_1 }",
      ].join("\n"),
      [
        "actors:",
        "  - { phrase: controller, types: [controller] }",
        "  - { phrase: economic operator, types: [economic_operator] }",
        "  - { phrase: supervisory authority, types: [authority] }",
        "  - { phrase: distributor, types: [distributor] }",
        "  - { phrase: quality management system, types: [economic_operator] }",
        "  - { phrase: operator, types: [economic_operator] }",
        "  - { phrase: operator designated as having significant market power, types: [designated_operator] }",
      ].join("\n"),
      "test",
    );
    /** The release atoms of `units` under `rules`, with act x's scope (and parts) as a test states them. */
    const releaseWith = (
      units: Unit[],
      rules: number,
      {
        tax = taxonomy,
        act = {},
        parts = [],
      }: { tax?: typeof taxonomy; act?: object; parts?: object[] } = {},
    ) => {
      const scope = {
        acts: [
          {
            id: "x",
            nodes: ["x"],
            provision: "x/art_1",
            reason: "",
            reaches: [{ types: ["economic_operator", "authority"] }],
            ...act,
          },
        ],
        parts,
        derive: [],
      } as unknown as ObligationsCanon["scope"];
      const own = documentHolders({ scope });
      const ledger = sync(emptyLedger("t"), extractAtoms(units, rules, own), rules).ledger;
      return releaseAtoms(units, { taxonomy: tax, ledger, scope } as unknown as ObligationsCanon, "t", false)
        .atoms;
    };
    const released = (units: Unit[], rules: number) =>
      releaseWith(units, rules).map((a) => ({
        applies_to: a.applies_to,
        basis: a.applies_to_basis,
        addressee: a.addressee,
      }));

    test("a thing as subject with no duty before it takes the article's next duty's holder", () => {
      const units = article("x", [
        "A transfer of personal data shall take place only on one of the conditions in paragraph 2.",
        "The controller shall document the transfer.",
      ]);
      assert.equal(released(units, 5)[0]?.basis, "none");
      assert.deepEqual(released(units, 6)[0], {
        applies_to: ["controller"],
        basis: "following duty",
        addressee: "regulated_party",
      });
    });

    test("a thing the paragraph has just put a party in charge of is that party's, not its usual keeper's", () => {
      const units = article("x", [
        "Distributors shall ensure that they have in place a quality management system. The quality management system shall cover procedures for corrective action.",
      ]);
      assert.deepEqual(released(units, 7)[1]?.applies_to, ["economic_operator"]);
      assert.deepEqual(released(units, 8)[1], {
        applies_to: ["distributor"],
        basis: "preceding duty",
        addressee: "regulated_party",
      });
      // Only where that party keeps it: naming the thing in passing does not make it the party's.
      const mention = article("x", [
        "Distributors shall inform the manufacturer of the quality management system. The quality management system shall cover procedures.",
      ]);
      assert.deepEqual(released(mention, 8)[1]?.applies_to, ["economic_operator"]);
    });

    test("a thing in a paragraph about what an authority set up is the authority's, not its usual keeper's", () => {
      // MiCA Art 109: ESMA's register, whose out-of-date white papers the offeror does not archive.
      const units = article("x", [
        "The supervisory authority shall establish a register of quality management systems.",
        "As regards distributors, the register shall contain their details. Any out-of-date versions of the quality management system shall be kept in a separate archive.",
      ]);
      const archive = released(units, 8).at(-1);
      assert.deepEqual(archive, {
        applies_to: ["authority"],
        basis: "preceding duty",
        addressee: "public_authority",
      });
      assert.deepEqual(released(units, 7).at(-1)?.applies_to, ["economic_operator"]);
      // Only where the paragraph speaks of what the authority set up.
      const elsewhere = article("x", [
        "The supervisory authority shall establish a register of quality management systems.",
        "Any out-of-date versions of the quality management system shall be kept in a separate archive.",
      ]);
      assert.deepEqual(released(elsewhere, 8).at(-1)?.applies_to, ["economic_operator"]);
    });

    test("rules 8 (pt dev register): a measure imposed on a party is not that party's duty; 'Those operators' are the narrower ones just named", () => {
      const charges = article("x", [
        "Any administrative charges imposed on economic operators shall cover only administrative costs. The supervisory authority shall publish the charges.",
      ]);
      assert.deepEqual(released(charges, 7)[0]?.applies_to, ["economic_operator"]);
      assert.deepEqual(released(charges, 8)[0], {
        applies_to: ["authority"],
        basis: "following duty",
        addressee: "public_authority",
      });
      const those = article("x", [
        "Operators designated as having significant market power shall notify the supervisory authority. Those operators shall also inform it of any change.",
      ]);
      assert.deepEqual(released(those, 7)[1]?.applies_to, ["economic_operator"]);
      assert.deepEqual(released(those, 8)[1]?.applies_to, ["designated_operator"]);
    });

    test("rules 8 (pt dev register): rights the act gives subscribers are owed by the parties its scope names (ePrivacy Arts 7(1), 11)", () => {
      const tax = parseTaxonomy(
        [
          "entity_types:",
          "  - { id: provider, label: provider, parents: [], defined_in: x/art_1 }",
          "  - { id: person, label: person, parents: [], defined_in: x/art_1 }",
          "  - { id: member_state, label: Member State, parents: [], defined_in: x/art_1, addressee: member_state }",
        ].join("\n"),
        "actors:\n  - { phrase: subscriber, types: [person] }\n  - { phrase: Member States, types: [member_state] }\n  - { phrase: provider, types: [provider] }\n",
        "test",
      );
      const units = article("x", [
        "Subscribers shall have the right to receive non-itemised bills.",
        "Member States shall ensure that any subscriber has the possibility, free of charge, of stopping automatic call forwarding.",
      ]);
      const owed = (rightsAgainst: string[] | undefined, rules: number) =>
        releaseWith(units, rules, {
          tax,
          act: {
            reaches: [{ types: ["provider"] }],
            ...(rightsAgainst ? { rights_against: rightsAgainst } : {}),
          },
        }).map((a) => [a.owed_by ?? null, a.through_national_law ?? null]);
      assert.deepEqual(owed(undefined, 8), [
        [null, null],
        [null, ["person"]],
      ]);
      assert.deepEqual(owed(["provider"], 8), [
        [["provider"], null],
        [null, ["provider"]],
      ]);
      assert.deepEqual(owed(["provider"], 7), owed(undefined, 7));
    });

    test("a part whose documents are one party's (scope.yaml parts' holder) keeps their contents as that party's duties (SFDR Art 7, Taxonomy Arts 5-7)", () => {
      const units = article("x", [
        {
          lead: "The disclosures of each financial product shall include the following:",
          points: ["a statement on adverse impacts;"],
        },
      ]);
      const withPart = (holder: boolean) =>
        releaseWith(units, 8, {
          parts: holder
            ? [
                {
                  id: "p",
                  nodes: ["x/art_1"],
                  provision: "x/art_1",
                  reason: "",
                  reaches: [{ types: ["controller"] }],
                  holder: "controller",
                },
              ]
            : [],
        }).map((a) => a.applies_to);
      assert.deepEqual(withPart(false), []);
      assert.deepEqual(withPart(true), [["controller"]]);
    });

    test("rules 8: a measure adopted under a paragraph and involving sanctions on a party is not that party's duty (MiFID II Art 86(4))", () => {
      const units = article("x", [
        "Any measure adopted pursuant to paragraphs 1, 2 or 3 involving sanctions on economic operators shall be properly justified. The supervisory authority shall notify it.",
      ]);
      assert.deepEqual(released(units, 7)[0]?.applies_to, ["economic_operator"]);
      assert.deepEqual(released(units, 8)[0]?.applies_to, ["authority"]);
    });

    test("a right held against another passes no duty on to the things after it", () => {
      const units = article("x", [
        "The economic operator shall be given the opportunity to make submissions. The supervisory authority shall review the action taken.",
        "Any measure adopted shall be withdrawn upon the economic operator's demonstrating compliance.",
      ]);
      assert.deepEqual(released(units, 7)[2]?.applies_to, ["authority"]);
      const withRight = article("x", [
        "The supervisory authority shall adopt a measure. The economic operator shall be given the opportunity to make submissions.",
        "Any measure adopted shall be withdrawn upon the economic operator's demonstrating compliance.",
      ]);
      assert.deepEqual(released(withRight, 7)[2]?.applies_to, ["economic_operator"]);
      assert.deepEqual(released(withRight, 8)[2], {
        applies_to: ["authority"],
        basis: "preceding duty",
        addressee: "public_authority",
      });
    });

    test("an impersonal prohibition no one in its article holds binds the regulated parties the act reaches", () => {
      const units = article("x", [
        "In the advertising of devices, it shall be prohibited to use misleading names.",
      ]);
      assert.equal(released(units, 5)[0]?.addressee, "none");
      assert.deepEqual(released(units, 6)[0], {
        applies_to: ["economic_operator"],
        basis: "act's parties",
        addressee: "regulated_party",
      });
    });
  });

  test("rules 10: a point that completes a lead-in and ends with a colon is completed by its own points", () => {
    const units = article("x", [
      {
        lead: "A trust service provider shall:",
        points: [
          "have appropriate policies, which shall include at least measures relating to:",
          "notify the supervisory body of any breach.",
        ],
      },
    ]);
    const parent = units.find((u) => u.node === "x/art_1__para_1__point_a") as Unit;
    for (const [i, own] of [
      "registration and onboarding procedures;",
      "the management of trust services.",
    ].entries())
      units.push({
        ...parent,
        node: `${parent.node}__point_${i + 1}`,
        eid: `${parent.eid}__point_${i + 1}`,
        parent: parent.node,
        own_text: own,
        text: own,
      });
    const texts = (rules: number) => read(units, rules).map((a) => `${a.modality} ${a.actor}: ${a.text}`);
    assert.deepEqual(texts(10), [
      "obligation A trust service provider: have appropriate policies, which shall include at least measures relating to:",
      "obligation A trust service provider: registration and onboarding procedures;",
      "obligation A trust service provider: the management of trust services.",
      "obligation A trust service provider: notify the supervisory body of any breach.",
    ]);
    assert.equal(texts(9).length, 2);
    // The points of an exception stay no duties, however deep.
    parent.own_text = "report the incident, except where:";
    assert.equal(texts(10).length, 2);
  });

  test("rules 14: a point completing a lead-in that ends at its modal is a verb phrase whose inner modal is its clause's", () => {
    const units = article("x", [
      {
        lead: "In particular, ESMA may:",
        points: [
          "facilitate the exchange of information between the competent authorities concerned;",
          "determine the scope of the information that the competent authority of the Member State of reference must provide to the competent authorities of the host Member States concerned;",
        ],
      },
    ]);
    const texts = (rules: number) => read(units, rules).map((a) => `${a.modality} ${a.actor}: ${a.text}`);
    assert.deepEqual(texts(14), [
      "permission ESMA: facilitate the exchange of information between the competent authorities concerned;",
      "permission ESMA: determine the scope of the information that the competent authority of the Member State of reference must provide to the competent authorities of the host Member States concerned;",
    ]);
    // Until rules 14 the inner "must" made the point an obligation of a verb phrase.
    assert.match(texts(13)[1] as string, /^obligation determine the scope/u);
    // A legal effect a point adds to the lead-in's modal is no duty.
    const ecic = article("x", [
      {
        lead: "An ECIC shall:",
        points: [
          "have, in each Member State concerned, the most extensive legal capacity accorded to legal entities under the national law of that Member State;",
          "appoint a coordinator.",
        ],
      },
    ]);
    assert.deepEqual(
      read(ecic, 14).map((a) => a.text),
      ["appoint a coordinator."],
    );
    assert.equal(read(ecic, 13).length, 2);
  });

  test("rules 14: a subject's relative clause with a subject of its own keeps its modal; what 'shall, …, be limited to' lists bars the rest", () => {
    const units = article("x", [
      {
        lead: "The objectives that the Member State may set out with a view to designing the specific selection procedure shall, in addition to promoting competition, be limited to one or more of the following:",
        points: ["promoting coverage;", "ensuring the required quality of service;"],
      },
      "The authority or body with which the complaint has been lodged shall inform the complainant of the progress of the proceedings.",
    ]);
    const modalities = (rules: number) => read(units, rules).map((a) => `${a.modality} ${a.text}`);
    assert.deepEqual(modalities(14), [
      "prohibition promoting coverage;",
      "prohibition ensuring the required quality of service;",
      "obligation The authority or body with which the complaint has been lodged shall inform the complainant of the progress of the proceedings.",
    ]);
    assert.match(modalities(13)[0] as string, /^permission /u);
  });
});
