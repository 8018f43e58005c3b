/**
 * What a duty's subject says of its role before the actor map reads a party in it (release-atoms.ts):
 * a party a passive acts upon, a measure imposed on a party, the subscribers a right is given to, a
 * demonstrative that points back to a narrower party (docs/obligations.md#extraction-rules).
 */
import type { Atom } from "./atoms.ts";
import { ancestors, type Taxonomy } from "./taxonomy.ts";

/** Rules 7: a passive that weighs something ("shall be taken into account"), done by someone else. */
export const BENEFICIARY_7 = /^\s*(?:also\s+)?be\s+(?:duly\s+)?taken\s+into\s+(?:due\s+)?account\b/iu;

/**
 * Rules 8: a party a passive without agent acts upon is not who acts: "the depositary shall be duly
 * informed", "Branches of payment institutions shall be entered in the register", "the notified body
 * shall be granted full access". Its holder is found as for a thing. A procedural right ("shall be given
 * the opportunity to …") stays its holder's (rules 4).
 */
const PATIENT_8 =
  /^\s*(?:not\s+)?be\s+(?:\w+ly\s+)?(?:informed|notified|entered|listed|granted|given|paid|refunded|reimbursed|compensated|offered|sent|provided\s+with)\b(?!\s+(?:the\s+|a\s+)?(?:possibility|opportunity|right)\b)/iu;
export const isPatient = (a: Pick<Atom, "actor" | "action">, rules: number) =>
  rules >= 8 &&
  ((PATIENT_8.test(a.action) && !a.action.includes(`by ${a.actor}`)) || MEASURE_ON_PARTY_8.test(a.actor));

const BENEFICIARY_8 = String.raw`(?:(?:any|all|the|each|every)\s+)?(?:subscribers?|users?|end-users?|consumers?)\b`;
/** Whether a subject names subscribers, users, end-users or consumers, the parties rights are given to. */
export const namesBeneficiary = (actor: string) => new RegExp(`^${BENEFICIARY_8}`, "iu").test(actor.trim());
/**
 * "ensure that any subscriber has the possibility …", "… that subscribers are given the opportunity to …".
 * Not "are informed" or "are able to": the State informs end-users itself, and what they are able to do
 * is often the State's or another party's to secure (EECC Arts 96, 98).
 */
export const BENEFICIARY_ENSURED_8 = new RegExp(
  String.raw`^(?:ensure|provide)\s+that\s+${BENEFICIARY_8}[^.;]{0,120}?\b(?:ha(?:s|ve)\s+(?:the\s+)?(?:possibility|option|right)|(?:is|are)\s+(?:given|offered|provided\s+with)\s+(?:the\s+|an?\s+)?(?:opportunity|possibility|option))\b`,
  "iu",
);
export const DEMONSTRATIVE_NOUN_8 = /^(?:those|these|such)\s+[a-z-]+$/iu;
/** Whether every type of `narrow` is a strict descendant of a type in `broad`. */
export const narrows = (narrow: string[], broad: string[], tax: Taxonomy) =>
  narrow.length > 0 &&
  narrow.every((t) => !broad.includes(t) && ancestors(tax, [t]).some((x) => x !== t && broad.includes(x)));

/**
 * Rules 8: a subject that names a party only as the one a measure is imposed on or involves is the
 * measure, not that party's duty ("Any administrative charges imposed on undertakings providing
 * electronic communications networks … shall cover …", EECC Art 16(1); "Any obligations imposed on an
 * undertaking by the national regulatory authority …", Art 27(5); "no compensation mechanism involving
 * specific undertakings shall be imposed", Art 92): its holder is found as for a thing.
 */
const MEASURE_ON_PARTY_8 =
  /^(?:(?:any|all|no|the|such|specific|those|these)\s+)*(?:[\w-]+\s+){0,2}(?:charges?|fees?|obligations?|conditions?|measures?|requirements?|mechanisms?|remed(?:y|ies)|penalt(?:y|ies)|fines?)\b(?:\s+which\s+may\s+be|\s+which\s+are|\s+adopted\b[^;.]{0,60}?)?\s+(?:(?:imposed|conferred|attached)\s+(?:on|upon|to)|involving)\s|^(?:the\s+)?(?:criteria|procedures|rules)(?:\s+and\s+(?:criteria|procedures|rules))?\s+for\s+imposing\b/iu;
