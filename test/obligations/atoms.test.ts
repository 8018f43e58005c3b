/**
 * Obligation atoms (src/obligations/atoms.ts): one duty each, read from made-up units, with its modality,
 * actor and action, the words it quotes and their offsets, and its constants; under the extraction rules
 * a ledger names (1 to 5), each reading what the earlier ones misread.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Unit } from "../../src/canon/model.ts";
import { EXTRACTION_RULES, extractAtoms, fingerprint } from "../../src/obligations/atoms.ts";

function unit(
  eid: string,
  own: string,
  kind: Unit["kind"] = "paragraph",
  parent: string | null = null,
): Unit {
  return {
    node: `x/${eid}`,
    act: "x",
    eid,
    kind,
    num: null,
    heading: null,
    parent: parent && `x/${parent}`,
    own_text: own,
    text: own,
    citation: eid,
    eli: eid,
    valid_from: "2100-01-01",
    valid_to: "2105-01-01",
  };
}

const read = (text: string, rules = EXTRACTION_RULES) =>
  extractAtoms([unit("art_1__para_1", text)], rules).map((a) => [a.modality, a.actor, a.action]);

describe("obligation atoms", () => {
  test("the modal decides the modality; the subject is the actor; the rest is the action", () => {
    assert.deepEqual(read("Manufacturers shall keep records."), [
      ["obligation", "Manufacturers", "keep records"],
    ]);
    assert.deepEqual(read("Distributors shall not sell unsafe widgets."), [
      ["prohibition", "Distributors", "sell unsafe widgets"],
    ]);
    assert.deepEqual(read("Importers must label widgets."), [["obligation", "Importers", "label widgets"]]);
    assert.deepEqual(read("Importers may appoint a representative."), [
      ["permission", "Importers", "appoint a representative"],
    ]);
    assert.deepEqual(read("Retailers are prohibited from selling toys."), [
      ["prohibition", "Retailers", "from selling toys"],
    ]);
  });

  test("an atom quotes its sentence with offsets into the unit's own text, and carries the unit's dates", () => {
    const text = "Scope first. Manufacturers shall keep records; importers shall check them.";
    const atoms = extractAtoms([unit("art_1__para_1", text)], 5);
    assert.deepEqual(
      atoms.map((a) => [a.key, a.quoted_text, text.slice(a.char_start, a.char_end)]),
      [
        ["x/art_1__para_1#1", "Manufacturers shall keep records;", "Manufacturers shall keep records;"],
        ["x/art_1__para_1#2", "importers shall check them.", "importers shall check them."],
      ],
    );
    assert.deepEqual(
      [atoms[0]?.effective, atoms[0]?.expires, atoms[0]?.unit_eid],
      ["2100-01-01", "2105-01-01", "art_1__para_1"],
    );
    assert.equal(atoms[0]?.fingerprint, fingerprint("Manufacturers   shall keep records;"));
  });

  test("'shall A and shall B' is two duties of one actor", () => {
    assert.deepEqual(
      read("Distributors shall not make widgets available, and shall inform the manufacturer."),
      [
        ["prohibition", "Distributors", "make widgets available"],
        ["obligation", "Distributors", "inform the manufacturer"],
      ],
    );
  });

  test("sentences about the act itself, definitions and entry into force state no duty", () => {
    assert.deepEqual(read("This Regulation shall apply from 1 January 2100."), []);
    assert.deepEqual(read("It shall enter into force on the twentieth day."), []);
    assert.deepEqual(read("‘widget’ shall mean any device."), []);
    assert.deepEqual(read("Paragraph 3 shall not apply to microenterprises."), []);
    assert.deepEqual(read("Widgets that may be used at home are covered."), [], "'may' in a relative clause");
    assert.deepEqual(read("No modal here."), []);
  });

  test("a leading clause is not the actor; a passive's agent is", () => {
    assert.deepEqual(read("Where a widget is unsafe, the manufacturer shall recall it."), [
      ["obligation", "the manufacturer", "recall it"],
    ]);
    assert.deepEqual(read("The report shall be submitted by the manufacturer within a month."), [
      ["obligation", "the manufacturer", "be submitted by the manufacturer within a month"],
    ]);
    assert.deepEqual(read("The report shall be submitted by the date set."), [
      ["obligation", "The report", "be submitted by the date set"],
    ]);
  });

  test("'they' and 'it' stand for the previous duty's actor in the same article", () => {
    const atoms = extractAtoms(
      [
        unit("art_1__para_1", "Manufacturers shall keep records."),
        unit("art_1__para_2", "They shall show them on request."),
      ],
      5,
    );
    assert.deepEqual(
      atoms.map((a) => a.actor),
      ["Manufacturers", "Manufacturers"],
    );
  });

  test("a lead-in ending in a colon is completed by each point under it, anchored at the point", () => {
    const units = [
      unit("art_2__para_1", "The notification shall at least:"),
      unit("art_2__para_1__point_a", "describe the incident;", "point", "art_2__para_1"),
      unit("art_2__para_1__point_b", "be sent within 24 hours;", "point", "art_2__para_1"),
      unit("art_2__para_1__point_c", "Importers shall also sign it.", "point", "art_2__para_1"),
    ];
    const atoms = extractAtoms(units, 5);
    assert.deepEqual(
      atoms.map((a) => [a.unit_eid, a.actor, a.action, a.lead_in]),
      [
        ["art_2__para_1__point_a", "The notification", "at least: describe the incident;", "x/art_2__para_1"],
        [
          "art_2__para_1__point_b",
          "The notification",
          "at least: be sent within 24 hours;",
          "x/art_2__para_1",
        ],
        ["art_2__para_1__point_c", "Importers", "also sign it", null],
      ],
    );
    assert.equal(atoms[1]?.executable_name, "x_art_2_para_1_point_b_deadline_hours");
    assert.equal(atoms[1]?.executable_value, 24);
  });

  test("a point under a lead-in inherits the quantities the lead-in states", () => {
    const units = [
      unit("art_3", "Member States shall impose fines of up to EUR 10 000 000 on:", "article"),
      unit("art_3__point_a", "manufacturers;", "point", "art_3"),
    ];
    const [a] = extractAtoms(units, 5);
    assert.deepEqual([a?.executable_unit, a?.executable_value], ["EUR", 10000000]);
  });

  test("rules 1 read 'shall be responsible for' as liability; rules 2 as the duty it is", () => {
    const text = "The controller shall be responsible for compliance.";
    assert.deepEqual(read(text, 1), []);
    assert.deepEqual(read(text, 2), [["obligation", "The controller", "be responsible for compliance"]]);
  });

  test("rules 2: the same words twice in one unit are one duty; a presumption is no duty", () => {
    assert.equal(read("Keepers shall lock the gate. Keepers shall lock the gate.", 1).length, 2);
    assert.equal(read("Keepers shall lock the gate. Keepers shall lock the gate.", 2).length, 1);
    assert.deepEqual(read("Such widgets shall be presumed to conform.", 2), []);
  });

  test("rules 3: grants worded with 'shall' are permissions, 'No …' and '… only if' forbid, effects are no duty", () => {
    assert.deepEqual(read("Authorities shall have the power to inspect.", 2), [
      ["obligation", "Authorities", "have the power to inspect"],
    ]);
    assert.deepEqual(read("Authorities shall have the power to inspect.", 3), [
      ["permission", "Authorities", "have the power to inspect"],
    ]);
    assert.deepEqual(read("No manufacturer shall sell unsafe widgets.", 3), [
      ["prohibition", "No manufacturer", "sell unsafe widgets"],
    ]);
    assert.deepEqual(read("Importers may sell widgets only if they are labelled.", 3)[0]?.[0], "prohibition");
    assert.deepEqual(read("The authorisation shall lapse after a year.", 3), []);
  });

  test("rules 4: classifications are no duty; procedural guarantees are rights", () => {
    assert.deepEqual(read("Such a widget shall be regarded as safe.", 4), []);
    assert.deepEqual(read("The manufacturer shall be heard before a decision.", 3)[0]?.[0], "obligation");
    assert.deepEqual(read("The manufacturer shall be heard before a decision.", 4)[0]?.[0], "permission");
  });

  test("rules 5: the dates a duty states are constants, after its first quantity", () => {
    const text = "Manufacturers shall report within 72 hours and by 1 March 2101.";
    const [old] = extractAtoms([unit("art_1__para_1", text)], 4);
    const [now] = extractAtoms([unit("art_1__para_1", text)], 5);
    assert.deepEqual(
      old?.constants.map((c) => c.unit),
      ["hours"],
    );
    assert.deepEqual(
      now?.constants.map((c) => [c.unit, c.value]),
      [
        ["hours", 72],
        ["by", "2101-03-01"],
      ],
    );
    assert.equal(now?.executable_unit, "hours", "a date never displaces the deadline");
  });

  test("rules 8: a passive's agent named without an article is the holder when it is a party", () => {
    const actor = (text: string, rules: number) => read(text, rules).map(([, a]) => a);
    const access =
      "The market surveillance authorities shall be granted full access by providers to the data.";
    assert.deepEqual(actor(access, 7), ["The market surveillance authorities"]);
    assert.deepEqual(actor(access, 8), ["providers"]);
    // Of two "by" phrases the first is the agent; the second is another participle's.
    assert.deepEqual(
      actor("The checks shall be carried out by Member States as laid down by the Commission.", 8),
      ["Member States"],
    );
    // Inside a relative clause or after an "of" complement, "by" names someone else than the holder.
    assert.deepEqual(
      actor("The information shall be provided in a language which can be easily understood by users.", 8),
      ["The information"],
    );
    assert.deepEqual(actor("Attention shall be given to the storage of the UDI by economic operators.", 8), [
      "Attention",
    ]);
    // An article-less "by" that names no party (a period, a means) is no agent.
    assert.deepEqual(actor("The period shall be extended by three months.", 8), ["The period"]);
  });

  test("rules 8: rules and disclosures are documents; what they contain is no one's duty", () => {
    const bcr =
      "The binding corporate rules referred to in paragraph 1 shall specify at least the complaint procedures.";
    assert.equal(read(bcr, 7).length, 1);
    assert.deepEqual(read(bcr, 8), []);
    const disclosure = "The disclosure to the public shall include a statement of the right to appeal.";
    assert.deepEqual(read(disclosure, 8), []);
    // Drawing the document up stays a duty, and so does a rule's subject that is a party's conduct.
    assert.deepEqual(read("Controllers shall adopt binding corporate rules.", 8), [
      ["obligation", "Controllers", "adopt binding corporate rules"],
    ]);
    // A transfer of responsibilities between authorities allocates a competence.
    assert.deepEqual(
      read(
        "The supervisory responsibilities with respect to the issuer shall be transferred from the competent authority to EBA.",
        8,
      ),
      [],
    );
  });

  test("rules 8: what parties agree shall happen is their arrangement, not the sentence's duty", () => {
    const agreed =
      "If the payment service user and the payment service provider agree that execution of the payment order shall start on a specific day, the time of receipt is deemed to be the agreed day.";
    assert.equal(read(agreed, 7).length, 1);
    assert.deepEqual(read(agreed, 8), []);
    // A clause set off by a comma ends the agreement: the main clause's duty stays one.
    assert.deepEqual(read("Where the authority agrees that the threshold is met, it shall notify ESMA.", 8), [
      ["obligation", "the authority", "notify ESMA"],
    ]);
  });

  test("rules 8: a duty passed on to the party informed is that party's own; a description is not", () => {
    const text =
      "The competent authority shall inform the manufacturer, or where applicable the authorised representative, which shall then take the necessary corrective actions.";
    assert.deepEqual(read(text, 7), [
      [
        "obligation",
        "The competent authority",
        "inform the manufacturer, or where applicable the authorised representative, which shall then take the necessary corrective actions",
      ],
    ]);
    assert.deepEqual(read(text, 8)[1], [
      "obligation",
      "the manufacturer or where applicable the authorised representative",
      "take the necessary corrective actions",
    ]);
    assert.equal(
      read(
        "The team shall send its opinion to the Commission, which shall immediately submit it to the Board.",
        8,
      )[1]?.[1],
      "the Commission",
    );
    assert.equal(read("The provider shall draw up a report, which shall include the results.", 8).length, 1);
  });

  test("rules 8: an interjection closing just before the modal no longer loses the duty", () => {
    const text =
      "Where not all consumers can be contacted, economic operators and providers of online marketplaces, in accordance with their respective responsibilities, shall disseminate a recall notice.";
    assert.deepEqual(read(text, 7), []);
    assert.deepEqual(read(text, 8), [
      [
        "obligation",
        "economic operators and providers of online marketplaces",
        "disseminate a recall notice",
      ],
    ]);
    const other =
      "Without prejudice to Article 16, financial entities, other than microenterprises, shall test.";
    assert.equal(read(other, 8)[0]?.[1], "financial entities");
    // A piece that names no party is still no subject: the duty stays unread rather than misread.
    assert.deepEqual(
      read("For the purposes of point (b), in accordance with Article 5, shall apply.", 8),
      [],
    );
  });

  test("rules 8: an interjection inside a coordinated subject is no part of it", () => {
    const text =
      "Economic operators and, where applicable, providers of online marketplaces that collect personal data shall make use of that information for recalls.";
    assert.equal(read(text, 7)[0]?.[1], "Economic operators and");
    assert.equal(
      read(text, 8)[0]?.[1],
      "Economic operators and providers of online marketplaces that collect personal data",
    );
  });

  test("rules 8: a pronoun after a conditional clause whose subject is a party stands for that party", () => {
    const text =
      "The payer shall keep its credentials safe. Where the payee or the payment service provider of the payee fails to accept strong customer authentication, it shall refund the financial damage caused to the payer’s payment service provider.";
    assert.equal(read(text, 7)[1]?.[1], "The payer");
    assert.equal(read(text, 8)[1]?.[1], "the payee or the payment service provider of the payee");
    // The party must head the clause's subject, and agree in number with the pronoun.
    const thing =
      "The controller shall notify the breach. Where the notification to the supervisory authority is not made within 72 hours, it shall be accompanied by reasons for the delay.";
    assert.equal(read(thing, 8)[1]?.[1], "The controller");
    const plural =
      "Importers shall keep a register. Where the distributors consider that a device is not in conformity, it shall inform the manufacturer.";
    assert.equal(read(plural, 8)[1]?.[1], "Importers");
  });

  test("rules 8: an annex's items under a lead-in are its duties, one each, as points are", () => {
    const annex = unit(
      "anx_I",
      "Part I Requirements\n\n(1)\n\nProducts shall be designed securely.\n\n(2)\n\nOn the basis of the risk assessment, products shall:\n\n(a)\n\nbe made available without known exploitable vulnerabilities;\n\n(b)\n\nnot expose unnecessary interfaces;\n\n(c)\n\nthe manufacturer shall keep a log;\n\n(3)\n\nUpdates shall be free of charge.",
      "annex",
    );
    const atoms = extractAtoms([annex], 8);
    assert.deepEqual(
      atoms.map((a) => [a.modality, a.quoted_text]),
      [
        ["obligation", "Products shall be designed securely."],
        ["obligation", "be made available without known exploitable vulnerabilities;"],
        ["prohibition", "not expose unnecessary interfaces;"],
        ["obligation", "the manufacturer shall keep a log;"],
        ["obligation", "Updates shall be free of charge."],
      ],
      "each item completes the lead-in; an item with its own duty is read on its own; '(3)' ends the list",
    );
    assert.equal(atoms[1]?.actor, "products");
    assert.match(atoms[1]?.action ?? "", /^: be made available without known exploitable vulnerabilities;$/u);
    assert.deepEqual(
      extractAtoms([annex], 7).map((a) => a.quoted_text),
      [
        "Products shall be designed securely.",
        "the manufacturer shall keep a log;",
        "Updates shall be free of charge.",
      ],
      "before rules 8 the lead-in, on a line without a stop, was lost with the items it completes",
    );
    const numbered = unit(
      "anx_III",
      "Part II Vulnerability handling\n\nManufacturers shall:\n\n(1)\n\nidentify and document vulnerabilities;\n\n(2)\n\naddress and remediate vulnerabilities without delay.",
      "annex",
    );
    assert.deepEqual(
      extractAtoms([numbered], 8).map((a) => [a.actor, a.quoted_text]),
      [
        ["Manufacturers", "identify and document vulnerabilities;"],
        ["Manufacturers", "address and remediate vulnerabilities without delay."],
      ],
      "a list numbered '(1)', '(2)' from its first item is a list too",
    );
    const label = unit(
      "anx_IV",
      "The manufacturer shall mark the device with the following:\n\n(a)\n\nits name;\n\n(b)\n\nwhere applicable, an indication that the device contains:\n\n—\n\na medicinal substance, or\n\n—\n\ntissues of human origin;\n\n(c)\n\nthe lot number.\n\nPart B Instructions\n\n(a)\n\nstray text.",
      "annex",
    );
    assert.deepEqual(
      extractAtoms([label], 8).map((a) => a.quoted_text),
      ["its name;", "where applicable, an indication that the device contains:", "the lot number."],
      // The dashes under (b) complete (b), which states no duty of its own: they are not items of the
      // manufacturer's list, and reading them as its sub-items is not done yet.
      "an item runs on through its own list ('…, or') to the next item; a heading ends the list",
    );
    const examples = unit(
      "anx_II",
      "The business processes shall include but are not limited to:\n\n(a)\n\nsettlement;\n\n(b)\n\ncustody.",
      "annex",
    );
    assert.deepEqual(extractAtoms([examples], 8), [], "examples of what a thing covers are no duties");
    assert.equal(extractAtoms([examples], 7).length, 0, "(nor were they read before: the lead-in was lost)");
  });

  test("headings, chapters and recitals state no duties", () => {
    const units = [
      unit("chp_I", "Manufacturers shall comply.", "chapter"),
      unit("rec_1", "Manufacturers should comply.", "recital"),
    ];
    assert.deepEqual(extractAtoms(units, 5), []);
  });
});
