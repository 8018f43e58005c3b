/**
 * What a pronoun or a relative clause refers back to, where extraction rules 8 read it from the sentence
 * itself rather than from the article's previous actor (docs/obligations.md#extraction-rules): the party
 * a conditional clause names ("Where the payee … fails …, it shall refund") and the party a duty is
 * passed on to ("shall inform the manufacturer, … which shall then take …").
 */
import { FIRM_NOUN, PUBLIC_NOUN } from "./parties.ts";

/**
 * Rules 8: a pronoun after a conditional clause whose subject is a party stands for that party ("Where
 * the payee or the payment service provider of the payee fails to accept strong customer
 * authentication, it shall refund …"), not for the article's previous actor. "it" needs a singular
 * party, "they" a plural one, unless it is said to be of a kind ("they shall be reasonable"): then it
 * stands for a thing of the party's, whose duty it still is; a clause whose subject is a thing ("Where a payment order is initiated
 * …") leaves the pronoun to the previous actor. A public body names it too ("Where the Commission finds
 * …, it shall close the investigation", DSA Art 73(5)), and so does a plural subject without article
 * ("Where providers of very large online platforms … require user authentication …, they shall also
 * accept …", eIDAS Art 5f(3)).
 */
export function conditionSubject(before: string, actor: string, action = "", rules = 8): string | null {
  if (!/^(?:it|they|he or she)$/iu.test(actor)) return null;
  const subject = conditionParty(before, rules);
  if (!subject) return null;
  if (/s$/u.test(headOf(subject)) === /^they$/iu.test(actor)) return subject;
  // A pronoun whose number the party's does not match, said to be of a kind rather than to act, stands
  // for a thing of the party's ("Where the payment service provider may impose charges …, they shall be
  // reasonable", PSD2 Art 40(3)): the duty is still the party's. One said to act ("it shall inform the
  // manufacturer") is left to the previous actor.
  return THING_PREDICATE_8.test(action) ? subject : null;
}

/**
 * The party a leading conditional clause has as its subject ("Where the competent authority finds that
 * …," names the competent authority), or null when its subject is a thing or there is no such clause.
 */
export function conditionParty(before: string, rules = 8): string | null {
  // A citation inside the subject ("providers of very large online platforms as referred to in Article
  // 33 of Regulation (EU) 2022/2065 of the European Parliament and of the Council (6) require …", eIDAS
  // Art 5f(3)) is no part of whom it names.
  const cited = before
    .trim()
    .replace(
      /\s+(?:as\s+)?referred to in (?:Article|Articles|point|Annex)\b(?:[^,;]*?of the Council|[^,;]*?\d{4}\/\d+)(?:\s*\(\d+\))?(?=\s)/u,
      "",
    )
    .replace(/\s*\(\d+\)(?=\s)/gu, "");
  // Rules 12: so is a citation of the article's own paragraph and point ("If an entity as referred to in
  // paragraph 1, point (b), is not established in the Union, … it shall designate a representative",
  // NIS2 Art 26(3)).
  const clause = (rules >= 12 ? cited.replace(OWN_CITATION_12, "") : cited)
    // A saving clause before the condition ("Without prejudice to Article 40, where a Member State makes
    // one of the following findings, it shall require …", RED Art 43(1)) is no part of it.
    .replace(/^(?:without prejudice to|by way of derogation from|notwithstanding)\s[^,;]{1,120},\s*/iu, "")
    // Rules 15: so is a clause set off inside it ("Where, having carried out an evaluation under Article
    // 40(1), a Member State finds that …, it shall require …", RED Art 42(1)).
    .replace(rules >= 15 ? INSET_15 : /$^/u, "$1 ");
  // Rules 12: a party that opts or chooses ("Where a microenterprise or small enterprise opts to provide
  // the information … in a simplified manner, it shall use the form", CRA Art 33(5)).
  const m = (rules >= 12 ? OPTS_12.exec(clause) : null) ?? CONDITION_SUBJECT_8.exec(clause);
  const subject = m?.[1]?.trim();
  if (!subject || subject.split(/\s+/u).length > 12) return null;
  // The party must be the subject's head, not a complement's ("the notification to the supervisory
  // authority" is a notification): the head ends where the first complement begins.
  const head = headOf(subject);
  // Rules 12: an enterprise by its size, a re-user, an applicant and a recipient are parties too ("a
  // microenterprise or small enterprise", CRA Art 33(5); "Where a re-user intends to transfer …, it shall
  // inform the public sector body", DGA Art 5(9)).
  return endsInParty(head, PARTY_HEAD_8) ||
    (rules >= 12 && endsInParty(head, PARTY_HEAD_12)) ||
    (rules >= 13 && endsInParty(head, PARTY_HEAD_13))
    ? subject
    : null;
}

const OWN_CITATION_12 =
  /\s+(?:as\s+)?referred to in (?:paragraph|point|subparagraph)s?\s+(?:\d+|\([a-z0-9]+\))(?:,\s*(?:point|subparagraph)\s+(?:\([a-z0-9]+\)|\w+))?(?:\s+of (?:this )?Article(?:\s+\d+\w*)?)?,?(?=\s)/u;

/**
 * Rules 12: a demonstrative before a thing ("Such decision to refuse the status of authorised CBAM
 * declarant", CBAM Art 17(3); "Such information provided to the recipient of the service", DSA Art
 * 9(5)) points back to the thing the sentence before made, whose maker holds it; the party in its
 * complement is whom it concerns. Returns the head ("Such decision") when it names no party.
 */
export function demonstrativeThing(subject: string): string | null {
  // "that access … is free of charge" is a clause the conjunction opens, not a demonstrative's noun
  if (
    !/^(?:such|that|this|those|these)\s+(?:an?\s+)?\p{L}/iu.test(subject) ||
    /\b(?:is|are)\b/u.test(subject)
  )
    return null;
  const head = headOf(
    subject.replace(/\s+(?:provided|made|adopted|issued|drawn up|taken|submitted|sent)\b.*$/u, ""),
  );
  return endsInParty(head, PARTY_HEAD_8) || /\bpersons?$/iu.test(head) ? null : head;
}

/** Whether the first party noun a head holds ends it: "the notification to the authority" is no party. */
function endsInParty(head: string, nouns: RegExp): boolean {
  const party = nouns.exec(head);
  return party !== null && party.index + party[0].length === head.length;
}

/** A subject's head: where its first complement begins ("the notification to the supervisory authority"). */
const headOf = (subject: string) =>
  subject.split(
    /\s+(?:of|to|in|for|on|with|under|referred|concerned|which|that|who|from|by)\s+/u,
  )[0] as string;

/** "… shall be reasonable", "… shall be in line with …": a predicate of a thing, no act (rules 8). */
const THING_PREDICATE_8 =
  /^\s*(?:also\s+)?be\s+(?!\w+(?:ed|en)\b)(?:\w+ly\s+)?(?:reasonable|proportionate|appropriate|adequate|fair|cost-based|in line with|commensurate|limited to|consistent with|clear|transparent|objective|non-discriminatory)\b/iu;
const CONDITION_SUBJECT_8 =
  /^(?:where|if|when|whenever|in the event that)\s+((?:(?:the|a|an|any|each|such)\s+)?[^,;()]{2,100}?)\s+(?:(?:has|have|is|are|was|were|does|do|did|cannot|can|could|will|would|may|does not|do not|also|already|no longer|subsequently|then)\s+)*(?:is|are|has|have|fails?|failed|considers?|intends?|subcontracts?|withdraws?|decides?|finds?|becomes?|receives?|wishes|wish|makes?|provides?|uses?|offers?|holds?|knows?|ascertains?|concludes?|refuses?|suspends?|terminates?|halts?|applies|apply|requests?|requires?|submits?|notifies|notify|learns?|establishes?|engages?|acts?|relies|rely|imposes?|impose|obtains?|carries|carry|places?|puts?|becomes?|identifies|identify|believes?|determines?|takes?|grants?|accepts?|outsources?|delegates?|detects?|deems?|contains?|exceeds?|meets?|reaches?|processes|process|supplies|supply|sells?|agrees?|temporarily|not)\b/iu;
/** Rules 15: a clause set off by commas right after "Where" ("Where, having carried out …, a Member State"). */
const INSET_15 =
  /^(where|if|when),\s+(?:having|after|following|upon|on the basis of|in accordance with|in particular)\b[^,;]{1,160},\s*/iu;
const PARTY_HEAD_12 = /\b(?:(?:micro)?enterprises?|re-users?|applicants?|recipients?)$/u;
/**
 * Rules 13: a coordinator is a party too ("Where a Digital Services Coordinator has reason to suspect …,
 * it may send … a request to the Commission", DSA Art 65(2)).
 */
const PARTY_HEAD_13 = /\b[Cc]oordinators?$/u;
const OPTS_12 =
  /^(?:where|if|when|whenever|in the event that)\s+((?:(?:the|a|an|any|each|such)\s+)?[^,;()]{2,100}?)\s+(?:opts?|chooses?|elects?|decides? to make use)\b/iu;
const PARTY_HEAD_8 = new RegExp(
  String.raw`\b(?:${FIRM_NOUN}|${PUBLIC_NOUN})(?=\s+(?:of|in|to|for|under|referred|concerned|which|that|who)\b|$)`,
  "u",
);

/** A duty passed on to the party informed: its modal, holder, action, and where the sentence quotes it from. */
export interface PassedOn {
  modal: string;
  actor: string;
  action: string;
  from: number;
}

/**
 * Rules 8: a duty passed on to the party the sentence's duty is owed to ("the competent authority
 * shall inform the manufacturer, or where applicable the authorised representative, which shall then
 * take the necessary corrective actions", MDR Art 90, IVDR Art 85) is that party's own duty. Only a
 * relative clause whose modal is followed by "then", "immediately", "subsequently" or "in turn" is
 * read so: "which shall include …" still describes its antecedent.
 */
export function passedOnDuty(text: string): PassedOn | null {
  const m = NEXT_DUTY_8.exec(text);
  if (!m) return null;
  const object = m[1] as string;
  const parties = [...object.matchAll(RECIPIENT_8)];
  // The party the relative pronoun follows, and those it is an alternative to ("the manufacturer, or
  // where applicable the authorised representative, which shall then …").
  let i = parties.length - 1;
  while (i > 0) {
    const prev = parties[i - 1] as RegExpMatchArray;
    const gap = object.slice((prev.index ?? 0) + prev[0].length, parties[i]?.index);
    if (!/^,?\s+or\s+(?:where (?:applicable|appropriate),?\s+)?$/u.test(gap)) break;
    i--;
  }
  const first = parties[i];
  if (!first) return null;
  // Without the commas that set off the alternative, so the actor map reads its first party.
  const actor = object
    .slice(first.index)
    .replace(/,(\s+or\b)/gu, "$1")
    .replace(/(\bwhere (?:applicable|appropriate)),/gu, "$1")
    .trim();
  return {
    modal: m[2] as string,
    actor,
    action: (m[3] as string).trim().replace(/[;.]$/u, ""),
    from: (m.index ?? 0) + m[0].indexOf(object) + (first.index ?? 0),
  };
}

const NEXT_DUTY_8 =
  /\b(?:inform|notify|submit|transmit|send|report|forward|refer)\b[^;]*?\b(?:to\s+)?((?:the|a|an)\s+[^;]{2,160}?),\s+(?:which|who)\s+(shall not|shall|must)\s+(?:then|immediately|subsequently|in turn)\s+([^;]+)$/iu;
const RECIPIENT_8 = new RegExp(
  String.raw`(?:the|a|an)\s+(?:[\w-]+\s+){0,5}?(?:${FIRM_NOUN}|${PUBLIC_NOUN})\b`,
  "giu",
);
