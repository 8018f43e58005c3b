/**
 * Who holds a duty (docs/obligations.md#addressees): a regulated party, a Member State, a public
 * authority, a Union body, or no one (a rule about law: "Union or Member State law may restrict …").
 *
 * A duty of a Member State that prescribes the conduct of named entities ("Member States shall ensure
 * that essential and important entities take …", "… shall require payment service providers to …")
 * binds those entities through national law; one that only a State can perform (designate an
 * authority, lay down penalties, notify the Commission) binds no firm.
 */
import type { Modality } from "./modality.ts";
import { type ActorMap, type Addressee, addresseeOfType, type Taxonomy } from "./taxonomy.ts";

export interface AddresseeOf {
  addressee: Addressee;
  /** For a Member State's duty prescribing the conduct of regulated parties: their types. */
  through_national_law: string[] | null;
}

/** The prescribed conduct's subject follows these words: "ensure that X …", "require X to …". */
const PRESCRIBES =
  /^(?:take (?:all )?(?:the )?(?:appropriate|necessary)(?: and (?:proportionate|appropriate|necessary))? measures (?:to|in order to) )?(?:ensure|provide|require|lay down|stipulate)\b(?:[^.;]*?\bthat\b|(?=\s+(?!that)\w))\s*/iu;
/** Rules 8: the same after an adverb ("Member States shall further ensure that all investment firms adhere …", MiFID II Art 75(1)). */
const PRESCRIBES_8 = new RegExp(
  `^(?:(?:also|further|moreover|additionally|in addition)\\s+)?${PRESCRIBES.source.slice(1)}`,
  "iu",
);
/**
 * … unless the State does it itself: lays down penalties, designates, notifies, or takes its own market
 * measure after the Union safeguard procedure ("all Member States shall take the necessary measures to
 * ensure that the non-compliant radio equipment is withdrawn or recalled from their market", RED Art
 * 41(2)), where "take … measures to ensure that" otherwise prescribes conduct ("… to ensure that radio
 * equipment is made available on the market only if it complies", RED Art 6).
 */
const STATE_ONLY =
  /^(?:lay down (?:the )?rules on (?:penalties|sanctions)|designate|notify the commission|communicate|inform the commission|ensure that (?:the |their |its )?(?:competent|supervisory|national|designated|relevant) (?:authorit|bod))|\b(?:is|are) (?:withdrawn|recalled|restricted|prohibited)\b[^.;]{0,40}\bfrom (?:their|its|the) markets?\b/iu;

const RULE_ABOUT_LAW =
  /\b(?:union|member state|national)\s+law\b|\blegislati(?:on|ve measures?)\b|\bnational (?:measures|provisions|rules)\b|^(?:the\s+)?(?:regulation|directive)\s+\((?:eu|ec|eec)\)|\bunion legal acts?\b/iu;

const STATE_LAW_13 = /\b(?:Member State|national)\s+(?:law|measures|legislation|provisions|rules)\b/iu;

/**
 * "Union or Member State law may restrict …": the subject is law, not a holder of the duty. Rules 13 read
 * the subject's head only, before its relative clause: "Public sector bodies which are competent under
 * national law to grant or refuse access for the re-use" (DGA Art 5(1)) are bodies, not law.
 */
export const isRuleAboutLaw = (actor: string, rules = 0) =>
  RULE_ABOUT_LAW.test(rules >= 13 ? (actor.split(/\s+(?:which|who|whose|that)\s/iu)[0] as string) : actor);

/**
 * Rules 8: an entity acts through its management body ("ensure that the management bodies of essential
 * and important entities approve …", NIS2 Art 20): the conduct prescribed is the entity's.
 */
const MANAGEMENT_BODY_OF_8 = /^(?:the\s+)?(?:members\s+of\s+(?:the\s+)?)?management\s+bod(?:y|ies)\s+of\s+/iu;
/** Rules 8: "… ensure that …, essential entities are subject … to administrative fines" (NIS2 Art 34(4)). */
const SUBJECT_TO_PENALTIES_8 =
  /^[^.;:]{0,120}?\b(?:are|is|be)\s+subject\b[^.;:]{0,80}?\bto\s+(?:administrative\s+|effective[^.;:]{0,60}?\s+)?(?:fines|penalties|sanctions|periodic penalty payments)\b/iu;
/**
 * Rules 8: a clause of time or condition before the subject names no one who acts ("require that before
 * the payment service user is bound by a single payment service contract or offer, the payment service
 * provider makes available …", PSD2 Art 44(1)): the subject follows its comma. Narrower than subject.ts's
 * LEADING_CLAUSE, whose openers ("in", "to", "as", "by" …) would cut prescribed conduct elsewhere.
 */
const LEADING_TIME_CLAUSE_8 =
  /^(?:before|after|where|when|whenever|if|once|unless|until|as soon as|prior to)\b[^,;.:]{0,200},\s*/iu;
const HOW_THE_STATE_PROCEEDS_8 =
  /^,?\s*(?:after|having|following|in close cooperation with|in cooperation with|where appropriate|where necessary)\b[^,;.:]{0,200},\s*(?=(?:ensure|provide|require|lay down|stipulate|take)\b)/iu;

/**
 * Rules 8: a party named after a preposition is not the subject of the conduct prescribed ("ensure that
 * the information provided to critical entities assists them", CER Art 5(3); "ensure that the specific
 * obligations imposed on undertakings under this Directive are published", EECC Art 120(5)).
 */
const AFTER_PREPOSITION_8 =
  /\s(?:(?:provided|made available|given|addressed|sent|communicated)?\s*(?:to|for|from|with|about)|(?:imposed|conferred|attached)\s+(?:on|upon|to))\s.*$/isu;

/**
 * Rules 8: a party that is told something is not the one who acts ("ensure that entities that are no
 * longer identified as critical entities … are notified in due time", CER Art 6(5); "ensure that
 * subscribers are informed …", ePrivacy Art 12(1)), unless an agent is named.
 */
const TOLD_8 =
  /^[^.;:]{0,160}?\b(?:are|is)\s+(?:\w+ly\s+)?(?:notified|informed|consulted|heard|told)\b(?![^.;:]{0,60}?\bby\b)/iu;

export function addresseeOf(
  actor: string,
  action: string,
  act: string,
  map: ActorMap,
  tax: Taxonomy,
  rules = 0,
  modality: Modality | null = null,
): AddresseeOf {
  if (isRuleAboutLaw(actor, rules)) return lawsHolder(actor, rules);
  // The party named first holds the duty; the others named with it share it (taxonomy, rules 8, 15).
  const own = map.typesIn(actor, act, rules >= 15 ? rules : 0);
  if (own.length === 0) return { addressee: "none", through_national_law: null };
  const kinds = own.map((t) => addresseeOfType(tax, t));
  const addressee = rules >= 11 ? firstNamed(actor, act, map, tax, kinds, rules) : stateFirst(kinds);
  // Rules 13: a public holder named first holds it ("The Approval Authority or the Technical Service").
  if (kinds.includes("regulated_party") && (rules < 13 || addressee === "regulated_party"))
    return { addressee: "regulated_party", through_national_law: null };
  if (addressee !== "member_state") return { addressee, through_national_law: null };
  // Rules 8: a clause on how the State proceeds comes before what it ensures (", after consulting
  // national regulatory authorities …, ensure that providers … provide access", EECC Art 109(2)).
  const a = rules >= 8 ? action.trim().replace(HOW_THE_STATE_PROCEEDS_8, "") : action.trim();
  const m = (rules >= 8 ? PRESCRIBES_8 : PRESCRIBES).exec(a);
  if (!m || STATE_ONLY.test(a)) return { addressee, through_national_law: null };
  // Rules 8: a State that "shall not require such undertakings to obtain …" (EECC Art 12(3)) refrains.
  if (rules >= 8 && modality === "prohibition") return { addressee, through_national_law: null };
  // The subject of the prescribed conduct: the agent of a passive ("… are provided by the payment
  // service provider to the user"), else the first entity named within the next dozen words.
  const rest = a.slice(m[0].length);
  const party = (t: string) => addresseeOfType(tax, t) === "regulated_party";
  const agent =
    /^[^.;:]{0,160}?\b(?:are|is|be)\s+\w+(?:ed|en|t|wn)\b[^.;:]{0,60}?\bby\s+((?:the|a|an|its|their)\s+[^,;.:]{2,60})/iu.exec(
      rest,
    );
  const byAgent = agent ? map.firstTypesIn(agent[1] as string, act, rules).filter(party) : [];
  // The party must be the subject: named within the first words after "that" (a leading clause set
  // off by commas skipped), not a beneficiary further on ("ADR procedures are applicable to payment
  // service providers", "the burden of proof lies with the payment service provider").
  let subject = rest.replace(/^,[^,]{0,160},\s*/u, "");
  if (rules >= 8)
    subject = subject.replace(/^(?:by|in) (?:national )?law,?\s+/iu, "").replace(MANAGEMENT_BODY_OF_8, "");
  const namedIn = (text: string) => {
    // Rules 8: a party set off by a comma ("require that AIFMs, before implementation, notify …", AIFMD
    // Art 10(1)) is still named: a word's trailing comma is no part of it.
    let window = text
      .split(/\s+/u)
      .slice(0, 6)
      .map((w) => (rules >= 8 ? w.replace(/[,;]+$/u, "") : w))
      .join(" ");
    if (rules >= 8) window = window.replace(AFTER_PREPOSITION_8, "");
    return rules >= 8 && TOLD_8.test(text) ? [] : map.firstTypesIn(window, act, rules).filter(party);
  };
  // The subject after a leading clause of time or condition; failing a party there, the clause's own
  // ("ensure that where an undertaking is required …, the report … is made available", CSRD Art 1(13)).
  let afterClause = rules >= 8 ? subject.replace(LEADING_TIME_CLAUSE_8, "") : subject;
  let first = afterClause !== subject ? namedIn(afterClause) : [];
  // A clause with commas of its own ("when an AIF, individually or jointly, acquires control …, in
  // conjunction with paragraph 5 of that Article, the AIFM managing such an AIF shall …", AIFMD Art 30(1)):
  // the subject is the first later segment that opens with a determiner and names a party.
  if (afterClause !== subject && first.length === 0)
    for (const c of afterClause.slice(0, 400).matchAll(/,\s+(?=(?:the|a|an|any|each|every|all|such)\s)/giu)) {
      const rest = afterClause.slice((c.index ?? 0) + c[0].length);
      first = namedIn(rest);
      if (first.length > 0) {
        afterClause = rest;
        break;
      }
    }
  if (first.length > 0) subject = afterClause;
  const named = first.length > 0 ? first : namedIn(subject);
  // "… ensure that payment institutions have access to …": a right of the party, not its duty.
  const benefit =
    /^[^,;.]{0,80}?\b(?:ha(?:ve|s)\s+(?:access|the right)|are able|is able|are entitled|is entitled|may|can)\b/iu.test(
      subject,
    ) ||
    // A penalty the State lays down is not the entities' conduct.
    (rules >= 8 && SUBJECT_TO_PENALTIES_8.test(subject));
  const parties = byAgent.length > 0 ? byAgent : benefit ? [] : named;
  return { addressee, through_national_law: parties.length > 0 ? [...parties].sort() : null };
}

/**
 * Rules 13: what national law shall say or may do is the State's to legislate ("Member State law
 * regulating processing … shall specify at least the objectives of processing", LED Art 8(2); "The
 * national measures referred to in paragraphs 1 and 2 shall be designed …", CRMA Art 26(4)); Union law
 * holds nothing.
 */
const lawsHolder = (actor: string, rules: number): AddresseeOf => ({
  addressee: rules >= 13 && STATE_LAW_13.test(actor) ? "member_state" : "none",
  through_national_law: null,
});

const stateFirst = (kinds: Addressee[]): Addressee =>
  kinds.includes("member_state") ? "member_state" : (kinds[0] as Addressee);

/**
 * Rules 11: of public holders named together, the first named holds the duty, as a reader writes it:
 * "the Commission and Member States shall … develop international cooperation mechanisms" (LED Art 40)
 * is the Commission's duty shared with the States; "Member States and ESMA" the States'.
 */
function firstNamed(
  actor: string,
  act: string,
  map: ActorMap,
  tax: Taxonomy,
  kinds: Addressee[],
  rules: number,
): Addressee {
  const conjunct = actor.split(/\s*,\s*|\s+(?:and|or|and\/or)\s+/u)[0] as string;
  const first = map.firstTypesIn(conjunct, act, rules).map((t) => addresseeOfType(tax, t));
  return first.length > 0 && first.every((k) => kinds.includes(k)) ? stateFirst(first) : stateFirst(kinds);
}

/** "… shall have the right to obtain from the controller …": a right held against a named party. */
const RIGHT_AGAINST =
  /^(?:also\s+)?(?:have the right|be entitled)\b[^.;]*?\b(?:from|against)\s+((?:the|a|an|any|that|its|each|their)\s+[^,;.()]{2,60})/iu;

/**
 * The regulated parties a right is held against: the correlative duty of a right ("the data subject
 * shall have the right to obtain from the controller the erasure …") binds the party it names.
 */
export function owedBy(action: string, act: string, map: ActorMap, tax: Taxonomy): string[] | null {
  const m = RIGHT_AGAINST.exec(action.trim());
  if (!m) return null;
  const types = map
    .firstTypesIn(m[1] as string, act)
    .filter((t) => addresseeOfType(tax, t) === "regulated_party");
  return types.length > 0 ? [...types].sort() : null;
}
