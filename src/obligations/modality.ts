/**
 * A duty's modality (docs/obligations.md#extraction-rules): the modal's ("shall" an obligation, "shall
 * not" a prohibition, "may" a permission), as the rules from 3 on read grants, rights and prohibitions
 * worded otherwise ("shall be entitled to", "shall have the power to", "may … only if …").
 */
export type Modality = "obligation" | "prohibition" | "permission";

/** A modal verb: what makes a sentence a duty, a prohibition or a permission. */
export const MODAL = /\b(shall not|shall|must not|must|may not|may|(?:is|are) prohibited)\b/u;

/** Rules 4: procedural guarantees worded with "shall" are rights of their holder. */
const GUARANTEE_4 =
  /^\s*(?:be (?:consulted|heard|given (?:the|an) (?:opportunity|possibility))|have the (?:possibility|opportunity) to)\b/iu;

/** Rules 3: grants worded with "shall". */
const GRANT_3 = /^\s*(?:also\s+)?(?:be entitled to|have the powers? to)\b/iu;
/** Rules 3: "may/shall … only if …" permits nothing else: a prohibition of the rest. */
const ONLY_IF_3 =
  /^\s*(?:\w+\s+){0,8}?only\s+(?:if|with|where|when|on|upon|after|in accordance|to the extent|for)\b/iu;

/** "shall have the right to …" grants a right: a permission of its holder. */
const RIGHT = /^\s*(?:also\s+)?have the right\b/iu;

/** The modality a modal states by itself. */
export function modalityOf(modal: string): Modality {
  if (/not|prohibited/u.test(modal)) return "prohibition";
  return modal === "may" ? "permission" : "obligation";
}

/** Rules 8: a list of powers grants them ("Each supervisory authority shall have all of the following … powers:"). */
const POWERS_8 = /^\s*have (?:all )?(?:of )?the following (?:[\w-]+,? (?:and |or )?){0,4}powers\b/iu;

/**
 * Rules 9: "The powers referred to in paragraph 1 shall include at least the following powers to:"
 * (MiFID II Art 69(2), DORA Art 50(2)) grants them, as "shall have the following powers" does; rules 9
 * read what a thing includes as a duty, which a list of powers is not.
 */
const POWERS_INCLUDED_9 =
  /^\s*include,?\s*(?:(?:at least|at a minimum|in particular|inter alia),?\s*)?(?:all )?(?:of )?the following (?:[\w-]+,? (?:and |or )?){0,4}powers\b/iu;

/**
 * Rules 9: more grants worded with "shall": a jurisdiction or a competence ("shall have unlimited jurisdiction to review",
 * "shall be competent for authorising and supervising"), a time allowed to act ("shall have 20 working
 * days … to provide observations", MiCA Art 56(8)), and a power granted past an interjected clause
 * ("shall, where the procedure … is initiated, be empowered to adopt", MiFID II Art 90(3)).
 */
const GRANT_9 =
  /^\s*(?:also\s+)?(?:have (?:unlimited |exclusive |full )?jurisdiction\b|be competent (?:for|to)\b|have (?:\w+ ){1,2}(?:working |calendar )?(?:days|weeks|months)\b[^.;]{0,120}\bto\b|,[^,]{1,200},\s*be empowered to\b)/iu;

/**
 * Rules 9: a public body's ability is a power ("Competent authorities shall be able to waive …", MiFIR Art
 * 9(1)); a firm's is a capability it must have ("Economic operators shall be able to identify …", IVDR Art
 * 22(2)).
 */
const ABLE_9 = /^\s*(?:also\s+)?be able to\b/iu;
const PUBLIC_BODY_9 =
  /\b(?:authorit(?:y|ies)|Commission|ESMA|EBA|EIOPA|ECB|Board|Member States?|coordinators?|regulators?)\b/u;

/**
 * Rules 9: a permission that holds only on a condition forbids the rest, however far the condition
 * ("Member States shall permit an investment firm … to engage in matched principal trading … only where
 * the client has consented", MiFID II Art 20(2); "shall provide for transfers … to be permitted only if",
 * LED Art 35(2)); and what "shall be limited to" the listed is barred from the rest (MDR Art 52(7)).
 */
const PERMIT_ONLY_9 =
  /^\s*(?:permit\b|provide for\b[^.;]{0,200}\bto be permitted\b)[^.;]{0,400}\bonly (?:if|where|when|to the extent)\b|^\s*(?:also\s+|only\s+)?be limited(?: \w+){0,3}? to\b/iu;

/** Rules 8: "The Commission shall be empowered to adopt delegated acts": a power, as "the power to" is. */
const EMPOWERED_8 = /^\s*(?:also\s+)?be empowered to\b/iu;
/**
 * Rules 8: "shall only provide crypto-asset services if …" (MiCA Art 59(3)): "only" before the verb
 * and the condition after its object forbids the rest, as "only if" does.
 */
const ONLY_VERB_IF_8 = /^\s*only\s+(?:[\w’-]+\s+){1,12}?(?:if|where|when|provided that)\b/iu;

/**
 * Rules 10: "The power to adopt delegated acts referred to in Article 6(6) shall be conferred on the
 * Commission for a period of five years", "Power shall be delegated to the Commission to adopt the regulatory
 * technical standards" grant the power, as "shall be empowered to" does.
 */
const CONFERRED_10 = /^\s*(?:also\s+)?be (?:conferred on|delegated to)\b/iu;
/**
 * Rules 10: "Health data users shall only process electronic health data … for secondary use on the
 * basis of … a data permit" (EHDS Art 54), "The results … shall contain only anonymous data" (EHDS Art
 * 61(4)): what may be done only for a purpose, on a basis or of a kind forbids the rest.
 */
const ONLY_10 =
  /^\s*only\s+(?:[\w’-]+\s+){1,12}?(?:for|on the basis of|in accordance with|to the extent)\b|^\s*(?:be\s+)?[a-z]+\s+only\b(?!\s+(?:if|where|when)\b)/iu;

/**
 * Rules 11: "the notified body shall release the content of that report … only with the agreement of
 * the manufacturer" (Machinery Annex VII): barred without it.
 */
const ONLY_WITH_11 =
  /\bonly with the (?:prior |express |written |explicit )*(?:agreement|consent|approval|authori[sz]ation|permission)\b/iu;

/**
 * Rules 12: the same past a citation between "only" and the condition ("The policy shall only permit the
 * use of the methods referred to in paragraph 2, points (c) and (d), where the financial entity:", RTS
 * 2024/1773 Art 8(3)), and what a State provides for to take place only on conditions ("Member States
 * shall provide for any transfer … to take place … only where the conditions laid down in this Chapter
 * are met", LED Art 35(1)): each bars the rest.
 */
const ONLY_12 =
  /^\s*only\s+(?:[\w’(),-]+\s+){1,16}?(?:if|where|when|provided that)\b|^\s*provide for\b[^.;]{0,400}\bonly (?:if|where|when|to the extent)\b/iu;

/**
 * Rules 12: a list of powers past an interjection and "at least" ("competent authorities shall have, in
 * accordance with national law, at least the following supervisory and investigatory powers", MiCA Art
 * 94(3)), and the ways powers are exercised ("Such powers shall be exercised in any of the following
 * ways:", AIFMD Art 46(1)): grants, as rules 8 read "shall have the following powers".
 */
const POWERS_12 =
  /^\s*have,?\s+(?:[^,;:]{1,80},\s*)?(?:at least |at a minimum )?(?:all )?(?:of )?the following (?:[\w-]+,? (?:and |or )?){0,4}powers\b|^\s*be exercised in (?:any|one or more) of the following ways\b/iu;

/**
 * Rules 13: access a party "shall have" is a right ("The Commission and the Member States shall have
 * access to the Safety Gate Rapid Alert System", GPSR Art 25(2); "Users, data holders and data recipients
 * shall have access to a dispute settlement body", Data Act Art 10(1)), not the means a body must have
 * ("A conformity assessment body shall have access to all necessary equipment or facilities", CRA Art
 * 39(6)), nor access kept to some ("Only the Commission … shall have access").
 */
const ACCESS_13 =
  /^\s*(?:also\s+)?have access to\b(?![^.;]{0,40}\b(?:necessary|required|adequate|appropriate|sufficient)\s+(?:equipment|facilities|resources|staff|personnel|means))/iu;
/**
 * Rules 13: a lead-in that lists the only places or ways a thing is done ("shall conclude transactions
 * which are neither intragroup transactions … nor … only on: (a) regulated markets; (b) MTFs;", MiFIR Art
 * 28(1)) bars the rest, however long the object before it.
 */
const ONLY_ON_13 = /\bonly\s+(?:on|in|at|through|via|with|to|by|for)\s*:\s*$/iu;
/**
 * Rules 14: powers and discretion a party "shall have" are grants ("The Commission shall have exclusive
 * powers to supervise and enforce Chapter V", AI Act Art 88(1); "the Commission shall have full discretion
 * as regards the appropriate measures", DMA Art 27(2); "the AI Office shall have all the powers of a market
 * surveillance authority", AI Act Art 75(1)), as rules 3 read "shall have the power to".
 */
const POWERS_14 =
  /^\s*(?:also\s+)?have (?:(?:exclusive|full|all|the|competences and|all the|broad)\s+){0,3}(?:(?:supervisory|investigatory|enforcement|investigative)\s+)?(?:powers?|discretion)\b/iu;
/**
 * Rules 14: "only if" however far past the verb's object ("A device may be placed on the market or put
 * into service only if it complies with this Regulation", MDR and IVDR Art 5(1); "EBA may conclude
 * administrative agreements on the exchange of information with the supervisory authorities of third
 * countries only if …", MiCA Art 126(1)) bars the rest, as rules 3 read it within eight words. Not what a
 * State is to ensure or require, which stays its duty ("Member States shall take appropriate measures to
 * ensure that radio equipment is made available on the market only if it complies", RED Art 6), nor
 * when a thing is valid (MDR Art 11(2)).
 */
const ENSURES_ONLY_14 = /^\s*(?:[\w’'(),/-]+\s+){0,8}?(?:ensure|require)\b|\bvalid only\b/iu;
const ONLY_FAR_14 = /^\s*(?:[\w’'(),/-]+\s+){0,30}?only\s+(?:if|where|when|provided that|to the extent)\b/iu;
const LIMITED_TO_14 = /^\s*,[^,;]{1,120},\s*(?:also\s+|only\s+)?be limited(?: \w+){0,3}? to\b/iu;
/**
 * Rules 14: a public body or a committee "shall be consulted" by whoever decides ("The relevant competent
 * authorities of the other Member States involved shall be consulted before authorisation is granted",
 * AIFMD Art 8(2); "The committee shall be consulted by the Commission", Machinery Art 48(5)): a duty to
 * consult it, not a procedural guarantee of a party's, which rules 4 read "be consulted" as.
 */
const consultsBody = (head: string, before: string): boolean =>
  /^\s*be consulted\b/iu.test(head) &&
  (PUBLIC_BODY_9.test(before) ||
    /\b(?:committee|Group)\b/iu.test(before) ||
    /^\s*be consulted by\b/iu.test(head));
/** Rules 8: "shall have a right of withdrawal", "shall have a right to …": a right, as "the right" is. */
const RIGHT_OF_8 = /^\s*(?:also\s+)?have an? right (?:of|to)\b/iu;

/**
 * A right worded with "shall" (rules 3, 4, 8): held against others, so not an option ("may") nor a
 * power ("shall have the power to"). Release-atoms reads its holder as holding no duty after it.
 */
export const isRightWorded = (action: string, rules: number): boolean =>
  RIGHT.test(action) ||
  (rules >= 3 && /^\s*(?:also\s+)?be entitled\b/iu.test(action)) ||
  (rules >= 4 && GUARANTEE_4.test(action)) ||
  (rules >= 8 && RIGHT_OF_8.test(action));

/** A duty's modality: the modal's, as rules 3 on read grants and prohibitions worded with "shall" and "may". */
export function modalityIn(modal: string, head: string, before: string, rules: number): Modality {
  if (RIGHT.test(head)) return "permission";
  if (rules < 3) return modalityOf(modal);
  if (GRANT_3.test(head)) return "permission";
  if (rules >= 4 && GUARANTEE_4.test(head) && !(rules >= 14 && consultsBody(head, before)))
    return "permission";
  if (rules >= 8 && (POWERS_8.test(head) || RIGHT_OF_8.test(head) || EMPOWERED_8.test(head)))
    return "permission";
  if (rules >= 9 && (POWERS_INCLUDED_9.test(head) || GRANT_9.test(head))) return "permission";
  if (rules >= 9 && ABLE_9.test(head) && PUBLIC_BODY_9.test(before)) return "permission";
  if (rules >= 10 && CONFERRED_10.test(head) && /\bpowers?\b/iu.test(before)) return "permission";
  if (/^\s*be prohibited\b/iu.test(head) || /^\s*No\s/u.test(before)) return "prohibition";
  if (ONLY_IF_3.test(head) && !/not/u.test(modal)) return "prohibition";
  if (rules >= 8 && ONLY_VERB_IF_8.test(head) && !/not/u.test(modal)) return "prohibition";
  if (rules >= 9 && PERMIT_ONLY_9.test(head) && !/not/u.test(modal)) return "prohibition";
  // Rules 14: the same past an interjection ("shall, in addition to promoting competition, be limited to
  // one or more of the following:", EECC Art 55(2)).
  if (rules >= 14 && LIMITED_TO_14.test(head) && !/not/u.test(modal)) return "prohibition";
  if (rules >= 10 && ONLY_10.test(head) && modal !== "may" && !/not/u.test(modal)) return "prohibition";
  if (rules >= 11 && ONLY_WITH_11.test(head) && modal !== "may" && !/not/u.test(modal)) return "prohibition";
  if (rules >= 12 && ONLY_12.test(head) && !/not/u.test(modal)) return "prohibition";
  // Rules 12: "Neither a conformity assessment body, its top-level management nor the personnel … shall
  // be directly involved" (AI Act Art 31(5)) bars each, as "No …" does.
  if (rules >= 12 && /^\s*Neither\s/u.test(before)) return "prohibition";
  if (rules >= 12 && POWERS_12.test(head)) return "permission";
  if (rules >= 14 && POWERS_14.test(head) && modal === "shall") return "permission";
  if (rules >= 14 && ONLY_FAR_14.test(head) && !ENSURES_ONLY_14.test(head) && !/not/u.test(modal))
    return "prohibition";
  if (rules >= 13 && ONLY_ON_13.test(head) && modal === "shall") return "prohibition";
  if (rules >= 13 && ACCESS_13.test(head) && modal === "shall" && !/^\s*Only\s/u.test(before))
    return "permission";
  return modalityOf(modal);
}
