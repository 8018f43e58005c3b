/**
 * Sentences that state no one's duty although they carry a modal: rules about the act itself, legal
 * effects, classifications, voting rules, purposes (docs/obligations.md#extraction-rules). Each set is
 * read from the rules that introduced it on.
 */

import { MODAL } from "./modality.ts";

/** Never a duty: the act about itself, definitions, entry into force, liability. */
const NOT_A_DUTY =
  /^(?:this|that|the present) (?:regulation|directive|decision|article|chapter|section|title|annex|paragraph)\b|^(?:paragraphs?|points?|subparagraphs?|articles?|chapters?|sections?|annex(?:es)?)\s+[\dIVX(]|\bshall not apply\b|\bshall (?:apply|enter into force|be binding|mean|be construed|be understood|be deemed|be without prejudice|not affect|not prejudice|be read|be addressed|cease to|expire)\b|\bmay be cited\b|\bshall (?:not )?be (?:liable|subject to any|assimilated|assisted by)\b|\bshall consist of\b|\bshall be adopted in accordance with the (?:examination|advisory) procedure\b|\bshall suffer no\b/iu;
/** Rules 1 read "shall be responsible for" as a rule of liability; rules 2 as the duty it is
 * ("The controller shall be responsible for, and be able to demonstrate compliance with, paragraph 1"). */
const RESPONSIBLE_1 = /\bshall (?:not )?be responsible\b/iu;

/** Not duties under rules 2: what the sentence states is a legal effect, not conduct. */
const NOT_A_DUTY_2 =
  /\bshall be (?:exempt(?:ed)? from\b|voluntary|presumed|considered to (?:comply|be in conformity|fulfil)|recognised|null and void|void|deemed|regarded as)\b|\bproceedings\b[^.;]*\bshall be brought\b|\bshall not be (?:liable|bound)\b|\bshall (?:be entitled|have the right) to (?:receive )?compensation\b|\bshall be held liable\b|\bshall be considered\b|\bshall be neither restricted nor prohibited\b|\bshall be competent\b/iu;

/** Not duties under rules 3: the legal effect of a thing, not anyone's conduct. */
const NOT_A_DUTY_3 =
  /\bshall (?:not |also |likewise |equally )?be (?:deemed|considered)\b|\bshall (?:also )?have (?:an? |the same )?(?:equivalent )?(?:legal )?effect\b|\bshall (?:automatically )?lapse\b|\bshall take effect\b|\bshall start (?:the time )?running\b|\bshall not entail\b|\bshall be subject to (?:appropriate )?safeguards\b|\bshall be subject to (?:administrative )?(?:fines|penalties|sanctions)\b/iu;
/** Not a duty under rules 8: the same with an interjection ("shall, in accordance with paragraph 2, be subject to administrative fines"). */
const SUBJECT_TO_FINES_8 =
  /\bshall,\s[^,;.]{0,80},\s*be subject to (?:administrative )?(?:fines|penalties|sanctions)\b/iu;
/** Not duties under rules 4: classifications, submissions to a regime, bars on imposing duties. */
const NOT_A_DUTY_4 =
  /\bshall (?:always |also |not |likewise |equally |therefore )?be (?:deemed|considered|regarded)\b|\bshall (?:also )?be subject to\b|\bshall be imposed on\b/iu;
/**
 * A duty under rules 8, though worded as a submission to a regime: "The CE marking shall be subject to
 * the general principles set out in Article 30 of Regulation (EC) No 765/2008" brings that Article's
 * rules on affixing the marking (only by the manufacturer, no misleading marks) into each act (RED Art
 * 19(1), both cz readers bind it).
 */
const CE_MARKING_8 = /\bCE marking shall be subject to the general principles\b/iu;
/**
 * Not a duty under rules 9, which read what a thing contains as a duty: a lead-in listing the values of
 * a factor or rate ("The multiplication factor shall be:", PSD2 Art 9; not "Personal data shall be:",
 * whose points are the controller's principles), a programme's objectives ("The
 * Initiative shall have the following five operational objectives:") or the actions it supports. Also
 * a legal effect ("Such notifications shall not subject critical entities to increased liability", CER Art
 * 15(2); "The term … shall be suspended during ESMA's deliberation", AIFMD Art 37(5)) and the reach of an
 * option ("that possibility shall also apply to those transactions", MiFIR Art 20(2)); objectives pursued,
 * what an exclusion does not cover, what a code or term is ("The CN codes shall be those under …"), what
 * suffices, what serves as a start, when a period runs and where a burden of proof lies.
 */
const NOT_A_DUTY_9 =
  /\b(?:contribution|funding|financing|programme|initiative|action|mechanism)s?\b[^.;]{0,120}\bshall pursue the (?:following )?objectives\b|\bobjectives\b[^.;:]{0,80}\bshall be pursued through the following\b|\bshall not be covered by (?:that|this|the) (?:exclusion|exemption|derogation)\b|\bshall be those (?:under|referred to|set out|laid down|listed|defined)\b|\bshall be sufficient to (?:mandate|trigger|constitute|justify)\b|\bshall serve as the (?:start|starting point|reference date)\b|\bthe burden (?:of proof )?shall (?:be on|lie with|rest (?:on|with))\b|\bperiod shall (?:run|start|begin) (?:from|on)\b|\bshall not subject\b[^.;]{0,80}\bto (?:any )?(?:increased )?liability\b|\b(?:possibility|derogation|exemption|waiver|option|deferral)s? shall (?:also |equally )?apply\b|(?:^|,\s*)(?:(?:the|each|that|this|any)\s+)?(?:[\w-]+\s+){0,3}(?:term|period|time limit|time-limit|deadline)s?\b[^,;.]{0,80}\bshall be suspended\b|\b(?:factor|rate|percentage|coefficient|weighting)s? shall be\s*:\s*$|\bshall have the following (?:[\w-]+ ){0,3}objectives\s*:|\bshall support the following (?:[\w-]+ ){0,3}actions?\s*:/iu;
/** Rules 9: a party made subject to obligations takes them on: a duty, not a submission to a regime. */
/**
 * Rules 10: legal effects: "Such a transfer shall not require any specific authorisation" (GDPR Art
 * 45(1)), "shall not constitute an establishment in the Union" (DSA Art 13(5)), "The limitation period …
 * shall be interrupted" (DSA Art 78(3)), "That period shall be extended by three months at the initiative of the
 * European Parliament or of the Council" (every act's delegation article).
 */
const NOT_A_DUTY_10 =
  /\bshall not require any (?:specific |further |prior |separate )?(?:authori[sz]ation|approval|permission)\b|\bshall not constitute\b|\bperiods?\b[^.;]{0,80}\bshall be interrupted\b|\bshall be extended by (?:[\w-]+ ){1,3}(?:months?|weeks?|days?)\b[^.;]{0,40}\bat the initiative of\b/iu;
/**
 * Rules 11: which act prevails ("Action adopted by ESMA under this Article shall prevail over any
 * previous action taken by a competent authority", MiFIR Art 40(7)), articles and obligations disapplied
 * ("they shall not be subject to Articles 62, 63, 64 …", MiCA Art 60(10)) and a classification ("Devices shall be
 * divided into classes A, B, C and D", IVDR Art 47(1)) are legal effects.
 */
const NOT_A_DUTY_11 =
  /\bshall prevail over\b|\bshall not be subject to (?:Articles?|Titles?|Chapters?|Sections?)\s|\bshall not be subject to the (?:[\w-]+ ){0,4}(?:obligations?|requirements?)\b|\bshall be (?:divided|classified) into (?:the following )?(?:classes|categories)\b/iu;
/**
 * Rules 12: what a term covers for the act's purposes is a definition ("For the purposes of this
 * Regulation, market manipulation shall comprise any of the following activities:", MiCA Art 91(2);
 * "inside information shall comprise", Art 87(1)), and a date of application survives a stray comma
 * ("The procedure set out in Article 74 shall, apply from 26 May 2027", IVDR Art 113(3), as published).
 * From the ninth dev sample: what a right does not adversely affect (Data Act Art 5(13)), to what a
 * rule also or only applies ("A prohibition or restriction shall only apply to action taken after the
 * measures take effect", MiFIR Art 40(5)), a period not counted (CRMA Art 11(9)), what counts as evidence
 * ("may be used as an element by which to demonstrate compliance", GDPR Arts 24(3), 28(5), 32(3)) and
 * what the act's provisions do not prevent ("Neither this Article nor Article 76 … shall prevent",
 * MiFID II Art 81(5)).
 */
const NOT_A_DUTY_12 =
  /\bshall not (?:\w+ly )?affect\b|\bshall (?:only|also|equally|likewise) apply\b|\bshall not be counted towards\b|\bmay be used as an element\b|^\s*Neither\s+(?:this|that|the present|paragraph|Articles?)\b|^\s*For the purposes of (?:this|the present) (?:Regulation|Directive|Article|Chapter|Title|Section)\b[^.;]{0,200}\bshall (?:comprise|include|cover|encompass|consist of)\b|\bshall,\s*apply (?:from|as from|until)\b/iu;
/**
 * Rules 13, from the tenth dev sample: legal effects worded with "shall" ("The delegation of power shall
 * be tacitly extended", IVDR Art 108(2); "the information requirements … shall be replaced by Articles 44,
 * 45, 51 and 52 of this Directive", PSD2 Art 39; "Time shall begin to run on the day on which the
 * decision becomes final", DSA Art 78(2)), the reach of a right ("the right of access shall not extend to
 * correspondence", DMA Art 34(4)) and a benefit withheld ("Persons exempt … shall not benefit from the
 * freedom to provide services", MiFID II Art 3(3)); and what proof may serve, as rules 12 read "may be
 * used as an element" ("a certificate … may be used to demonstrate the presumption of conformity",
 * Cybersecurity Act Art 54(3)), and which law prevails in a conflict without saying over what ("the
 * relevant Union or national law on the protection of personal data shall prevail", DGA Art 1(3)).
 */
const NOT_A_DUTY_13 =
  /\bshall be tacitly (?:extended|renewed)\b|\bshall be replaced by (?:Articles?|the|this|that)\b|\bshall (?:begin|start|continue) to run\b|\bshall not extend to\b|\bshall not benefit from\b|\bmay (?:also )?be used (?:in order )?to demonstrate\b|\bshall prevail\b/iu;
/**
 * Rules 14, from the eleventh dev sample: more legal effects ("Each interruption shall start time running
 * afresh", DMA Art 32(4), DSA Art 77(4); "That period shall be extended by the time during which limitation
 * is suspended", DMA Art 32(4)), how the act's references read ("References in this Regulation to
 * harmonised standards shall also include the monographs of the European Pharmacopoeia", MDR and IVDR Art
 * 8(2)), a capacity the law confers ("An ECIC shall: … (b) have, in each Member State concerned, the most
 * extensive legal capacity accorded to legal entities", Chips Act Art 7(2); "ENISA shall enjoy the most
 * extensive legal capacity accorded to legal persons", Cybersecurity Act Art 38(2)), a programme's
 * objectives and what it funds ("It shall also contribute to the achievement of the green and digital
 * transitions", Chips Act Art 4(1); "The Cybersecurity Emergency Mechanism shall support preparedness
 * actions not covered by Article 12", Cyber Solidarity Act Art 13(1)) and how a device is classified
 * ("Accessories … shall be classified in their own right", IVDR Annex VIII 1.3), and a definition, whose
 * "may" is the defined term's ("‘public undertaking’ means any undertaking over which the public sector
 * bodies may exercise directly or indirectly a dominant influence", DGA Art 2(19)).
 */
const NOT_A_DUTY_14 =
  /^\s*[‘'"“][^’'"”]{1,120}[’'"”]\s+means\b|\bshall start (?:the )?time running\b|\bshall be extended by the (?:time|period) during which\b|^\s*References? in (?:this|the present) (?:Regulation|Directive)\b|\blegal capacity accorded to\b|\bhave legal personality from\b|^\s*It shall (?:also )?contribute to the achievement of\b|^\s*(?:The\s+)?(?:[A-Z][\w-]*\s+){0,4}(?:Initiative|Mechanism|Programme)\s+shall (?:also )?(?:support|contribute to|finance|fund)\b|\bshall be classified (?:in their own right|as (?:class|belonging to class)|in (?:the )?(?:same |highest |lowest )?class)\b|\bshall (?:also )?fall within (?:the )?(?:same |highest )?class\b/u;
/**
 * Rules 15, from the twelfth dev sample: a right lost is a legal effect ("shall: (a) lose its right to use
 * the label", DGA Art 24(5)), a competence withheld is no prohibition ("Supervisory authorities shall not be
 * competent to supervise processing operations of courts", GDPR Art 55(3)), how a body is made up, votes
 * and is represented states no one's conduct ("A majority of two-thirds of the members of the Management
 * Board shall be required for the adoption of …", Cybersecurity Act Art 18(2); "The maximum number of
 * members of the high-level group shall not exceed 30", DMA Art 40(3); "ENISA shall be represented by the
 * Chairperson of the Management Board", Art 36(3)), and what measures may include describes them ("Such
 * steps may include, in particular, the transmission of relevant information", CSDDD Art 28(4)); not a
 * lead-in listing what a party may do ("Such measures may include, where applicable: …", DSA Art 35(1)).
 */
const NOT_A_DUTY_15 =
  /(?:^[\s:]*|\bshall:?\s+)lose (?:its|their|his|her|the) (?:right|status|entitlement)\b|\bshall not be competent (?:to|for)\b|\bmajority of\b[^.;]{0,80}\bshall be required (?:for|to)\b|^\s*The (?:maximum |minimum )?number of (?:members|representatives|experts)\b[^.;]{0,80}\bshall (?:not exceed|be)\b|\bshall be represented by (?:the|its) (?:Chair|Chairperson|Executive Director|President)\b|^\s*(?:[Ss]uch|[Tt]hese|[Tt]hose|The) (?:steps|measures|actions|sweeps|sandboxes|services|requirements|rules|information|arrangements|plans|activities|means|procedures) may (?:also )?include\b(?![^.;]*:\s*$)/u;
/**
 * Rules 14: the aspects weighed "When assessing whether a product is a safe product" (GPSR Art 6(1)) are
 * the content of the economic operators' duty to place only safe products on the market (Art 5), as
 * three of four dev samples' readers label its points; rules 8 read the lead-in as a list of criteria.
 */
const SAFE_PRODUCT_14 = /^\s*When assessing whether a product is a safe product\b/u;
/**
 * Rules 13: a competence conferred is a power ("each supervisory authority shall be competent to handle
 * a complaint lodged with it", GDPR Art 56(2)), which modality.ts's GRANT_9 grants: rules 2 read it as
 * no duty at all.
 */
const COMPETENT_13 = /\bshall be competent (?:to|for)\b/iu;
const SUBJECT_TO_OBLIGATIONS_9 = /\bshall (?:also )?be subject to the (?:same )?(?:obligations|duties)\b/iu;
/** Not a duty under rules 6: a qualification ("An economic activity shall qualify as …"). */
const NOT_A_DUTY_6 = /\bshall (?:also |only )?qualify as\b/iu;
/**
 * Not a duty under rules 8: a classification with an adverb ("shall only be considered an effective
 * remedy where …"); a legal effect ("A decision to revoke shall put an end to the delegation", "shall not
 * involve such persons in liability of any kind"); a voting rule ("a decision shall be adopted by
 * two-thirds of the members"); a purpose ("The exchange of information shall be intended for …"); the
 * allocation of a competence ("shall be the subject of the overall control of the Member State",
 * "the supervisory responsibilities … shall be transferred from the competent authority to EBA"); and a lead-in that lists
 * objectives, criteria or ways rather than duties ("shall aim to contribute to the following objectives:",
 * "The criteria … shall be the following:", "shall be provided in one or more of the following ways:",
 * "all circumstances shall be taken into account, including:"); and when a directive's measures apply
 * ("Member States shall ensure the application of the security measures … from 18 months after …"), and
 * when a moment is ("Member States shall ensure that the time of receipt is when the payment order is
 * received by the payer's payment service provider"). About the act itself, too: a name it gives ("shall hereinafter be referred to as ‘devices’"), which law governs
 * a thing ("shall be governed by that Regulation", "by Directive 2001/83/EC", "by the law applicable
 * to the contract"; a thing governed by a contract is still a duty, GDPR Art 28(3)), and what it does
 * not touch ("Nothing in this Regulation shall restrict the freedom of the press"). From the third dev
 * sample of atom labels, more of the same: a lead-in listing the laws that govern a thing ("shall be
 * governed by:"), legal effects ("shall not be denied legal effect", "shall not be binding on the user",
 * "An authorisation shall be valid in all Member States", "It shall be possible for the designated
 * legal representative to be held liable", "The failure of the provider … to submit its views shall not
 * prevent …"), an interpretation ("shall not be assumed to mean"), what law may provide ("the controller
 * … may be provided for by Union or Member State law") and a lead-in listing the criteria to weigh
 * ("the following aspects in particular shall be taken into account:"). From the adjudicated registers,
 * a recourse between parties liable for the same damage ("shall be entitled to claim back from the other
 * controllers … that part of the compensation", GDPR Art 82(5)): liability, as Art 82(1)-(4) are; and
 * liability that stays where it was ("shall remain fully liable to the controller", "shall remain fully
 * responsible if the information supplied is incomplete", "for the handling and for consequences of the
 * ICT-related incidents", DORA Art 22(1)). Responsibility for doing a thing stays a duty ("shall remain
 * fully responsible for the verification of compliance"). And how a body is made up ("The Board shall be
 * composed of one representative per Member State", 26 in the corpus, none a firm's) or what a Union
 * contribution covers ("The Union financial contribution shall cover up to 50 % of the costs").
 * From the PSD2 payer's and payee's duties, read against the text: when a user's claim stands ("The
 * payment service user shall obtain rectification … only if [it] notifies …", Art 71), what a claim may
 * not invoke ("the payer shall not rely on currency exchange reasons if …", Art 76(2)) and when a charge
 * is owed ("The payer shall only be obliged to pay for the charges … if their full amount was made
 * known", Art 60(3)): conditions of a right or a debt, not conduct.
 * From the cz dev register, read against the text: which law a product is not subject to ("Radio
 * equipment … shall not be subject to Directive 2014/35/EU", RED Art 1(4); "Systematic internalisers
 * shall not be subject to this Article … when", MiFIR Art 14(2)), the limits of a mandate ("The
 * obligations laid down in Article 10(1) … shall not form part of the authorised representative's
 * mandate", RED Art 11(1), Machinery Art 12(1), CRA Art 18(2): the manufacturer's own duties stay in
 * Art 10) and which part of the act's annex a category belongs in ("A category of machinery … shall be
 * included in Annex I, Part A, if", Machinery Art 6(7), the Commission's criterion for amending it).
 * From the pt dev register, read against the text: legal effects on a procedure or a conduct ("The
 * procedure … shall not preclude either party from bringing an action before the courts", EECC Art
 * 27(6); "Implementation by undertakings of conditions … shall remain subject to competition law", Art
 * 47(2)). From the lu dev register: which authority supervises ("The prudential supervision of an AIFM
 * shall be the responsibility of the competent authorities of the home Member State", AIFMD Art 45(1)).
 */
/**
 * Rules 8: "shall not apply" with an object is conduct, not a disapplication ("Providers … shall not
 * apply any different requirements or general conditions of access … to end-users", EECC Art 99).
 */
const APPLIES_A_THING_8 =
  /\bshall not apply (?!(?:to|on|in|where|if|when|until|before|after|for|as|insofar|unless|with|except|mutatis)\b|[.,;:(])/iu;

const NOT_A_DUTY_8 =
  /\bshall not be subject to (?:this|that|the provisions of|Directive|Regulation)\b|\bshall not form part of the [^.;]{0,40}\bmandate\b|\bshall be included in Annex [IVXL]+\b|\bshall obtain rectification\b|\bshall not rely on\b[^.;]{0,40}\breasons\b|\bshall only be (?:obliged|required) to\b[^.;]*\bif\b|\bshall (?:only|also|not|always|then|therefore) be considered\b|\bshall be entitled to claim back\b|\bshall be composed of\b|\bcontributions? shall cover\b|\bshall (?:at all times )?remain (?:fully )?(?:liable\b|responsible (?:if|where|for (?:the )?(?:handling and for )?(?:the )?consequences)\b)|\bshall put an end to\b|\bshall not involve\b[^.;]*\bliability\b|\bshall not give rise to (?:any )?liability\b|\bshall be (?:adopted|taken) by (?:a |an )?(?:simple |qualified |absolute |two-thirds )?(?:majority|two-thirds|consensus|unanimity)\b|\bshall be intended (?:for|to)\b|\bshall,? (?:however,? )?be the subject of the (?:overall )?control of\b|\bresponsibilit(?:y|ies)\b[^.;]*\bshall be transferred (?:from\b[^.;]*?\b)?to\b|\bthe following objectives\s*:|\bshall be (?:the following|as follows)\b[^.;:]{0,160}:|\bin (?:one or more of )?the following ways\s*:|\bshall be taken into account,? including\s*:|\bshall ensure the application of\b[^.;]*\bfrom\b|\bshall ensure that the (?:time|moment) of [^,;.]{0,60}? is when\b|\bshall (?:hereinafter )?be referred to as\b|\bshall (?:also )?be governed by (?:(?:this|that|the present) (?:Regulation|Directive)|(?:Directive|Regulation|Decision) (?:\(|\d)|the law applicable|the rules of civil procedure)|^\s*Nothing in (?:this|the present) (?:Regulation|Directive|Article|paragraph|Chapter)\b|\bshall (?:also )?be governed by\s*:\s*$|\bshall not be denied (?:the )?legal effect\b|\bshall not be (?:assumed|presumed|taken|interpreted|construed) to (?:mean|imply)\b|\bshall not be binding\b|^\s*(?:the\s+)?following provisions\b[^.;]{0,80}\bshall (?:also |equally |likewise )?apply\b|\bshall be the responsibility of the (?:competent|supervisory|national) authorit|\bshall remain subject to (?:Union |national )?(?:competition )?law\b|\bshall not preclude\b[^.;]{0,60}\bfrom bringing (?:an )?action\b|\bto be held liable\b|^(?:(?!\b(?:shall|may|must)\b)[^;])*\bshall (?:be|remain) valid\b|\b(?:shall|may) be (?:provided for|laid down|specified|determined|restricted) by (?:Union or Member State|Union|Member State|national) law\b|^\s*(?:the )?(?:failure|absence)\b[^.;]*\bshall not\b|\bshall (?:not )?be subject to (?:any )?liability\b|\bmay (?:also |only )?be (?:deemed|considered|regarded) (?:to|as)\b|\bshall (?:in any event|nevertheless|equally) be subject to\b|\bshall (?:not |only )?bear (?:all (?:of )?the |any |the )?(?:financial )?(?:losses|consequences|risk)\b|\bshall bear the burden of (?:proof|proving|demonstrating)\b|\bshall bear no (?:contractual )?liability\b|\bthe following (?:parameters|criteria|factors|elements|aspects)\b[^.;:]{0,120}\bshall\b[^.;:]{0,60}\btaken into account\s*:\s*$/iu;

/**
 * Rules 14: whether what a point adds to its lead-in's modal states a legal effect rules 14 read as no
 * duty ("An ECIC shall: … (b) have … the most extensive legal capacity accorded to legal entities").
 */
export const completesNoDuty = (action: string, rules: number): boolean =>
  (rules >= 14 && NOT_A_DUTY_14.test(action)) || (rules >= 15 && NOT_A_DUTY_15.test(action));

/** Whether a sentence with a modal states no one's duty under these extraction rules. */
export function statesNoDuty(sentence: string, rules: number): boolean {
  if (NOT_A_DUTY.test(rules >= 8 ? sentence.replace(APPLIES_A_THING_8, "shall not use ") : sentence))
    return true;
  if (rules < 2 && RESPONSIBLE_1.test(sentence)) return true;
  if (rules >= 2 && NOT_A_DUTY_2.test(rules >= 13 ? sentence.replace(COMPETENT_13, "shall act") : sentence))
    return true;
  if (rules >= 3 && NOT_A_DUTY_3.test(sentence)) return true;
  // Rules 9: "he shall be subject to the obligations of the manufacturer" (RED Art 14) takes them on.
  if (rules >= 9 && SUBJECT_TO_OBLIGATIONS_9.test(sentence)) return false;
  if (rules >= 4 && NOT_A_DUTY_4.test(sentence) && !(rules >= 8 && CE_MARKING_8.test(sentence))) return true;
  if (rules >= 6 && NOT_A_DUTY_6.test(sentence)) return true;
  if (rules >= 9 && NOT_A_DUTY_9.test(sentence)) return true;
  if (rules >= 10 && NOT_A_DUTY_10.test(sentence)) return true;
  if (rules >= 11 && NOT_A_DUTY_11.test(sentence)) return true;
  if (rules >= 12 && NOT_A_DUTY_12.test(sentence)) return true;
  if (rules >= 13 && NOT_A_DUTY_13.test(sentence)) return true;
  if (rules >= 14 && NOT_A_DUTY_14.test(sentence)) return true;
  if (rules >= 15 && NOT_A_DUTY_15.test(sentence)) return true;
  if (rules >= 14 && SAFE_PRODUCT_14.test(sentence)) return false;
  return rules >= 8 && (NOT_A_DUTY_8.test(sentence) || SUBJECT_TO_FINES_8.test(sentence));
}

const RELATIVE_BEFORE = /\b(?:which|who|whom)\b(?! (?:case|event)\b)[^.;:]{0,120}$/iu;

/**
 * Rules 8: a sentence with the modals of the relative clauses after its main modal masked ("shall
 * implement … plans which, in the case of …, shall be subject to …").
 */
export function maskRelativeModals(text: string, from: number): string {
  return text.replace(new RegExp(MODAL.source, "gu"), (modal, _m, i: number) =>
    // not "in which case", which opens no clause on a noun
    i >= from && RELATIVE_BEFORE.test(text.slice(from, i)) ? "\u2060" : modal,
  );
}

/** Rules 8: the clause of the duty whose modal is at `modalAt`: every other modal masked. */
export function clauseOf(text: string, modalAt: number): string {
  return text.replace(new RegExp(MODAL.source, "gu"), (modal, _m, i: number) =>
    i === modalAt ? modal : "\u2060",
  );
}
