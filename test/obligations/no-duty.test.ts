/** Sentences with a modal that state no one's duty (src/obligations/no-duty.ts), rule by rule. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { completesNoDuty, statesNoDuty } from "../../src/obligations/no-duty.ts";

describe("sentences that state no duty", () => {
  test("the act about itself and entry into force are never duties; conduct is", () => {
    assert.equal(statesNoDuty("This Regulation shall enter into force on the twentieth day.", 1), true);
    assert.equal(statesNoDuty("Manufacturers shall keep records.", 8), false);
  });

  test("'shall be responsible' is liability under rules 1 and the duty it is from rules 2", () => {
    const text = "The controller shall be responsible for compliance with paragraph 1.";
    assert.equal(statesNoDuty(text, 1), true);
    assert.equal(statesNoDuty(text, 2), false);
  });

  // Each sentence states no duty from the rules named, and did under the rules before them.
  const introduced: [rules: number, sentence: string][] = [
    [6, "An economic activity shall qualify as environmentally sustainable where it meets the criteria."],
    [8, "A decision to revoke shall put an end to the delegation of the power specified in that decision."],
    [8, "The criteria for classifying tokens as significant shall be the following, as further specified:"],
    [8, "A decision shall be adopted by two-thirds of the members."],
    // When a directive's measures apply is a rule about the law, not conduct (PSD2 Art 115(4)) ...
    [
      8,
      "Member States shall ensure the application of the security measures referred to in Articles 65, 66, 67 and 97 from 18 months after the date of entry into force of the regulatory technical standards.",
    ],
    // ... and so is when a moment is (PSD2 Art 78(1)).
    [
      8,
      "Member States shall ensure that the time of receipt is when the payment order is received by the payer's payment service provider.",
    ],
    // The act about itself: a name it gives, the law that governs a thing, what it leaves untouched.
    [
      8,
      "For the purposes of this Regulation, in vitro diagnostic medical devices shall hereinafter be referred to as ‘devices’.",
    ],
    [8, "Any device which incorporates a medical device shall be governed by that Regulation."],
    [
      8,
      "However, if the action of the substances is principal, the integral product shall be governed by Directive 2001/83/EC.",
    ],
    [
      8,
      "Nothing in this Regulation shall restrict the freedom of the press or the freedom of expression in the media.",
    ],
    [8, "The setting-up and internal functioning of an ECIC shall be governed by:"],
    [
      8,
      "Infringements of the following provisions shall, in accordance with paragraph 2, be subject to administrative fines up to 10 000 000 EUR:",
    ],
    [
      8,
      "An electronic ledger shall not be denied legal effect or admissibility as evidence in legal proceedings.",
    ],
    [
      8,
      "The presence of the device UDI-DI in the UDI database shall not be assumed to mean that the device is in conformity.",
    ],
    [
      8,
      "Any contractual term which excludes the user's rights under this Chapter shall not be binding on the user.",
    ],
    [8, "It shall be possible for the designated legal representative to be held liable for non-compliance."],
    [8, "An authorisation shall be valid in all Member States"],
    [
      8,
      "the controller or the specific criteria for its nomination may be provided for by Union or Member State law;",
    ],
    [
      8,
      "The failure of the provider to submit its views shall not prevent the Commission from designating it.",
    ],
    [
      8,
      "When assessing whether a product is safe, the following aspects in particular shall be taken into account:",
    ],
    // Liability, not conduct (ninth session; the adjudicators of the lt and nl registers read GDPR Art 82 so):
    // the recourse between parties liable for the same damage, and liability that stays where it was.
    [
      8,
      "Where a controller or processor has paid full compensation for the damage suffered, that controller or processor shall be entitled to claim back from the other controllers or processors involved in the same processing that part of the compensation corresponding to their part of responsibility.",
    ],
    [
      8,
      "Where that other processor fails to fulfil its data protection obligations, the initial processor shall remain fully liable to the controller for the performance of that other processor's obligations.",
    ],
    [
      8,
      "The latter shall remain fully responsible if the information supplied is incomplete, incorrect or misleading.",
    ],
    [8, "The Board shall be composed of one representative per Member State."],
    [8, "The Union financial contribution shall cover up to 50 % of the acquisition costs of the tools."],
    [
      8,
      "Without prejudice to the supervisory feedback received, financial entities shall remain fully responsible for the handling and for consequences of the ICT-related incidents reported pursuant to Article 19(1).",
    ],
    // Read on the cz dev register (eleventh session): which law a product is not subject to, the limits
    // of a mandate, and the annex part a category belongs in.
    [
      8,
      "Radio equipment falling within the scope of this Directive shall not be subject to Directive 2014/35/EU, except as set out in point (a) of Article 3(1) of this Directive.",
    ],
    [
      8,
      "The obligations laid down in Article 10(1) and the obligation to draw up technical documentation laid down in Article 10(3) shall not form part of the authorised representative's mandate.",
    ],
    [
      8,
      "Any other category of machinery or related product that presents a serious inherent potential risk shall be included in Annex I, Part B.",
    ],
  ];
  test("each later set applies from the rules that introduced it", () => {
    for (const [rules, sentence] of introduced) {
      assert.equal(statesNoDuty(sentence, rules - 1), false, `before rules ${rules}: ${sentence}`);
      assert.equal(statesNoDuty(sentence, rules), true, `from rules ${rules}: ${sentence}`);
    }
  });

  test("the CE marking's general principles are the affixer's duties from rules 8 (RED Art 19(1))", () => {
    const text =
      "The CE marking shall be subject to the general principles set out in Article 30 of Regulation (EC) No 765/2008.";
    assert.equal(statesNoDuty(text, 7), true);
    assert.equal(statesNoDuty(text, 8), false);
  });

  test("near misses are still read as conduct: a date no later than, a duty to apply something, a right held against others", () => {
    for (const sentence of [
      "Member States shall ensure that the credit value date is no later than the business day.",
      "Member States shall ensure the application of appropriate safeguards to the processing.",
      "The processor shall be entitled to receive the instructions in writing.",
      // Responsibility for doing a thing stays a duty (RTS 2024/1774 Art 28(4)).
      "In case of such outsourcing, financial entities shall remain fully responsible for the verification of compliance with the ICT risk management requirements.",
      "Processing by a processor shall be governed by a contract or other legal act under Union or Member State law.",
      // "valid" in a relative clause is not the sentence's verb (MiFID II Art 57(13)).
      "Competent authorities shall publish the position limits they decide to impose, which shall be valid for an initial period.",
    ])
      assert.equal(statesNoDuty(sentence, 8), false, sentence);
  });

  test("rules 9: a factor's values, a programme's objectives and the actions it supports are no duties; a list of properties is", () => {
    for (const sentence of [
      "The multiplication factor shall be:",
      "The Initiative shall have the following five operational objectives:",
      "The Cybersecurity Emergency Mechanism shall support the following types of action:",
    ]) {
      assert.equal(statesNoDuty(sentence, 8), false, `until rules 9: ${sentence}`);
      assert.equal(statesNoDuty(sentence, 9), true, `from rules 9: ${sentence}`);
    }
    // GDPR Art 5(1): the principles the controller's processing must meet.
    assert.equal(statesNoDuty("Personal data shall be:", 9), false);
    assert.equal(statesNoDuty("The secondary processing site shall be:", 9), false);
  });

  test("rules 9: a period suspended, a liability not incurred and an option's reach are no duties; a certificate suspended is", () => {
    for (const sentence of [
      "The term referred to in Article 8(5) shall be suspended during ESMA’s deliberation in accordance with this paragraph.",
      "Until the expiry of that deadline, each period as set out in paragraphs 1 to 6 shall be suspended.",
      "Such notifications shall not subject critical entities to increased liability.",
      "Where the measures adopted pursuant to Article 7 provide for deferred publication, that possibility shall also apply to those transactions.",
    ]) {
      assert.equal(statesNoDuty(sentence, 8), false, `until rules 9: ${sentence}`);
      assert.equal(statesNoDuty(sentence, 9), true, `from rules 9: ${sentence}`);
    }
    const suspend =
      "Where the holder of the EUCC certificate does not propose appropriate remedial action during the time period referred to in paragraph 1, the certificate shall be suspended.";
    assert.equal(statesNoDuty(suspend, 9), false);
  });

  test("rules 9, from the fifth dev sample: what is pursued, covered, sufficient, served, run or borne states no duty; a body's or a record's is a duty", () => {
    for (const sentence of [
      "The financial contribution from the Union under Specific Objective 6 shall pursue the objectives laid down in Article 4(2).",
      "Testing in real world conditions shall not be covered by that exclusion.",
      "The CN codes shall be those under Regulation (EEC) No 2658/87.",
      "By way of derogation from Article 168(3), the request from a single third country shall be sufficient to mandate the Commission.",
      "The date of the acknowledgement referred to in the first subparagraph shall serve as the start of the permit-granting process.",
      "In accordance with Article 72(1), the burden shall be on the payment initiation service provider to prove that the payment transaction was authenticated.",
      "That period shall run from:",
    ]) {
      assert.equal(statesNoDuty(sentence, 8), false, `until rules 9: ${sentence}`);
      assert.equal(statesNoDuty(sentence, 9), true, `from rules 9: ${sentence}`);
    }
    for (const sentence of [
      "In providing such minimum criteria, BEREC shall pursue the objectives in Article 3.",
      "Those records shall be sufficient to enable competent authorities to fulfil their supervisory tasks.",
      "Devices for performance studies shall be subject to the requirements set out in Articles 57 to 77.",
    ])
      assert.equal(statesNoDuty(sentence, 9), sentence.startsWith("Devices"), sentence);
  });

  test("rules 9: a party made subject to obligations takes them on (RED Art 14, CRA Art 22(2))", () => {
    const sentence =
      "The person referred to in paragraph 1 of this Article shall be subject to the obligations set out in Article 13.";
    assert.equal(statesNoDuty(sentence, 8), true);
    assert.equal(statesNoDuty(sentence, 9), false);
  });

  test("rules 10, from the sixth dev sample: no authorisation required, what a thing does not constitute and an interrupted period are legal effects", () => {
    for (const sentence of [
      "Such a transfer shall not require any specific authorisation.",
      "The designation of a legal representative within the Union pursuant to paragraph 1 shall not constitute an establishment in the Union.",
      "The limitation period for the enforcement of penalties shall be interrupted:",
      "That period shall be extended by three months at the initiative of the European Parliament or of the Council.",
    ]) {
      assert.equal(statesNoDuty(sentence, 9), false, `until rules 10: ${sentence}`);
      assert.equal(statesNoDuty(sentence, 10), true, `from rules 10: ${sentence}`);
    }
    assert.equal(statesNoDuty("The provider shall interrupt the service.", 10), false);
    assert.equal(
      statesNoDuty("The controller shall obtain the authorisation of the supervisory authority.", 10),
      false,
    );
  });

  test("rules 11, from the seventh dev sample: what prevails, articles or obligations disapplied and a classification are legal effects", () => {
    for (const sentence of [
      "Action adopted by ESMA under this Article shall prevail over any previous action taken by a competent authority.",
      "Where the entities referred to in paragraphs 1 to 6 of this Article provide crypto-asset services, they shall not be subject to Articles 62, 63, 64, 67, 83 and 84.",
      "When providing portfolio compression, investment firms and market operators shall not be subject to the best execution obligation in Article 27 of Directive 2014/65/EU.",
      "Devices shall be divided into classes A, B, C and D, taking into account the intended purpose of the devices and their inherent risks.",
    ]) {
      assert.equal(statesNoDuty(sentence, 10), false, `until rules 11: ${sentence}`);
      assert.equal(statesNoDuty(sentence, 11), true, `from rules 11: ${sentence}`);
    }
    // Being made subject to obligations is still a duty.
    assert.equal(statesNoDuty("Importers shall be subject to the obligations of manufacturers.", 11), false);
  });

  test("rules 12, from the eighth dev sample: what a term covers for the act's purposes, and a date of application past a stray comma", () => {
    for (const sentence of [
      "For the purposes of this Regulation, market manipulation shall comprise any of the following activities:",
      "For the purposes of this Regulation, inside information shall comprise the following types of information:",
      "The procedure set out in Article 74 shall, apply from 26 May 2027 without prejudice to Article 74(14).",
      "The right referred to in paragraph 1 shall not adversely affect the rights of data subjects pursuant to the applicable Union and national law on the protection of personal data.",
      "A prohibition or restriction shall only apply to action taken after the measures take effect.",
      "The period between the deadline for providing the additional information and the submission of that information shall not be counted towards the duration of the permit-granting process.",
      "Adherence to approved codes of conduct as referred to in Article 40 may be used as an element by which to demonstrate compliance with the obligations of the controller.",
      "Neither this Article nor Article 76 or 88 shall prevent a competent authority from transmitting to ESMA … confidential information.",
    ]) {
      assert.equal(statesNoDuty(sentence, 11), false, `until rules 12: ${sentence}`);
      assert.equal(statesNoDuty(sentence, 12), true, `from rules 12: ${sentence}`);
    }
    // "Neither" before parties bars them (modality.ts), it is no rule about the act.
    assert.equal(
      statesNoDuty(
        "Neither a conformity assessment body nor its personnel shall be directly involved in the design.",
        12,
      ),
      false,
    );
    // What a party must include stays its duty, whatever purpose it serves.
    assert.equal(
      statesNoDuty(
        "For the purposes of paragraph 1, the provider shall include the following information:",
        12,
      ),
      false,
    );
  });

  test("rules 13, from the tenth dev sample: a tacit extension, a replacement, when time runs, a right's reach and a benefit withheld", () => {
    for (const sentence of [
      "The delegation of power shall be tacitly extended for periods of an identical duration, unless the European Parliament or the Council opposes such extension not later than three months before the end of each period.",
      "However, where Directive 2002/65/EC is also applicable, the information requirements set out in Article 3(1) of that Directive … shall be replaced by Articles 44, 45, 51 and 52 of this Directive.",
      "Time shall begin to run on the day on which the decision becomes final.",
      "In particular, the right of access shall not extend to correspondence between the Commission and the competent authorities of the Member States.",
      "Persons exempt from this Directive pursuant to paragraph 1 shall not benefit from the freedom to provide services or to perform activities or to establish branches as provided for in Articles 34 and 35 respectively.",
    ]) {
      assert.equal(statesNoDuty(sentence, 12), false, `until rules 13: ${sentence}`);
      assert.equal(statesNoDuty(sentence, 13), true, `from rules 13: ${sentence}`);
    }
  });

  test("rules 13: a competence conferred is no longer read as no duty (modality.ts grants it)", () => {
    const competent =
      "By derogation from paragraph 1, each supervisory authority shall be competent to handle a complaint lodged with it or a possible infringement of this Regulation, if the subject matter relates only to an establishment in its Member State.";
    assert.equal(statesNoDuty(competent, 12), true);
    assert.equal(statesNoDuty(competent, 13), false);
    // What law "shall be considered" stays a classification.
    assert.equal(
      statesNoDuty("Such a body shall be considered competent for the purposes of Article 5.", 13),
      true,
    );
  });

  test("rules 13: a proof that may serve and the law that prevails are no duties", () => {
    for (const sentence of [
      "Where a specific Union legal act so provides, a certificate or an EU statement of conformity issued under a European cybersecurity certification scheme may be used to demonstrate the presumption of conformity with requirements of that legal act.",
      "In the event of a conflict between this Regulation and Union law on the protection of personal data, the relevant Union or national law on the protection of personal data shall prevail.",
    ]) {
      assert.equal(statesNoDuty(sentence, 12), false, `until rules 13: ${sentence}`);
      assert.equal(statesNoDuty(sentence, 13), true, `from rules 13: ${sentence}`);
    }
  });

  test("rules 14, from the eleventh dev sample: when time runs again, how references read, a conferred capacity, a programme's aims, a class and a definition", () => {
    for (const sentence of [
      "Each interruption shall start time running afresh.",
      "That period shall be extended by the time during which the limitation period is suspended because the decision of the Commission is the subject of proceedings pending before the Court of Justice of the European Union.",
      "References in this Regulation to harmonised standards shall also include the monographs of the European Pharmacopoeia adopted in accordance with the Convention on the Elaboration of a European Pharmacopoeia.",
      "In each Member State ENISA shall enjoy the most extensive legal capacity accorded to legal persons under national law.",
      "It shall also contribute to the achievement of the green and digital transitions.",
      "The Cybersecurity Emergency Mechanism shall support preparedness actions not covered by Article 12.",
      "Accessories for an in vitro diagnostic medical device shall be classified in their own right separately from the device with which they are used.",
      "‘public undertaking’ means any undertaking over which the public sector bodies may exercise directly or indirectly a dominant influence.",
    ]) {
      assert.equal(statesNoDuty(sentence, 13), false, `until rules 14: ${sentence}`);
      assert.equal(statesNoDuty(sentence, 14), true, `from rules 14: ${sentence}`);
    }
    // Parties that contribute to objectives still do so as a duty (EECC Art 3(1)).
    assert.equal(
      statesNoDuty(
        "Member States, the Commission, the RSPG and BEREC shall also contribute to the achievement of those objectives.",
        14,
      ),
      false,
    );
  });

  test("rules 14: the aspects weighed in assessing whether a product is safe are a duty (GPSR Art 6(1))", () => {
    const lead =
      "When assessing whether a product is a safe product, the following aspects in particular shall be taken into account:";
    assert.equal(statesNoDuty(lead, 13), true);
    assert.equal(statesNoDuty(lead, 14), false);
    // Other criteria lists stay no duties.
    assert.equal(
      statesNoDuty(
        "In determining the probability and severity of harm, the following criteria shall, where relevant, be taken into account:",
        14,
      ),
      true,
    );
  });

  test("rules 15, from the twelfth dev sample: a right lost, a competence withheld, how a body votes, is made up and represented, what measures may include", () => {
    for (const sentence of [
      "Supervisory authorities shall not be competent to supervise processing operations of courts acting in their judicial capacity.",
      "A majority of two-thirds of the members of the Management Board shall be required for the adoption of the single programming document and of the annual budget.",
      "The maximum number of members of the high-level group shall not exceed 30.",
      "For the purpose of concluding the employment contract with the Executive Director, ENISA shall be represented by the Chairperson of the Management Board.",
      "Such steps may include, in particular, the transmission of relevant information on the conduct of an investigation.",
    ]) {
      assert.equal(statesNoDuty(sentence, 14), false, `until rules 15: ${sentence}`);
      assert.equal(statesNoDuty(sentence, 15), true, `from rules 15: ${sentence}`);
    }
    // A point adding a right lost to its lead-in's modal states none either (DGA Art 24(5)(a)).
    assert.equal(completesNoDuty("lose its right to use the label in any written communication;", 14), false);
    assert.equal(completesNoDuty("lose its right to use the label in any written communication;", 15), true);
    // A lead-in listing what a party may do stays its permission (DSA Art 35(1)).
    assert.equal(statesNoDuty("Such measures may include, where applicable:", 15), false);
  });
});
