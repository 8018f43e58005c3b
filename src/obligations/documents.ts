/**
 * Documents: a subject that names a document, a part of one or an instrument is a thing with contents,
 * and what it contains is no one's duty; the duty is drawing it up, stated where its author is named
 * (docs/obligations.md#extraction-rules). Each set is read from the rules that introduced it on.
 */
import { singular } from "./taxonomy.ts";

/**
 * Rules 6: the head noun of a subject that names a document, a part of one or an instrument: a thing
 * with contents, which holds no duty ("The report shall contain …").
 */
const DOCUMENT_6 =
  /^(?:report|plan|programme|program|strategy|summary|paper|documentation|document|declaration|certificate|notification|notice|label|record|register|list|statement|application|request|opinion|decision|instructions|instruction|brochure|template|form|communication|publication|description|section|agreement|contract|offer|policy|policie|code|guideline|act|standard|scheme|website|initiative|specification|prospectus|protocol|note|warning|card|permit|information|annex|annexe|leaflet|minute|overview|roadmap|questionnaire)$/u;

/**
 * Rules 8: two more heads of a subject with contents: rules as an instrument ("The binding corporate
 * rules … shall specify at least:", "Crypto-asset service providers' rules on conflicts of interest shall
 * have …") and a disclosure ("The disclosure to the public … shall include the following statements:").
 */
const DOCUMENT_8 = /^(?:rule|disclosure)$/u;

/** Rules 6: the verbs that say what a document contains (after the modal, past adverbs). */
const CONTAINS_6 =
  /^\s*(?:,\s*)?(?:(?:at least|at a minimum|as a minimum|in particular|also|where appropriate|where applicable|where relevant|where necessary|if applicable|inter alia|as appropriate|, in particular|, at least|, at a minimum|,)\s*,?\s*)*(?:contain|include|comprise|cover|set out|specify|describe|list|state|indicate|mention|identify|explain|outline|reflect|give (?:information|details|an? (?:overview|description|explanation|summary))|have|take (?:into )?account|provide (?:for|information|details|an? (?:overview|description|assessment|analysis|summary|explanation)))\b/iu;
/** Rules 6: a lead-in that stops after its modal ("The notification … shall at least:"), its points saying what. */
const BARE_LEAD_IN_6 =
  /^\s*(?:(?:at least|at a minimum|as a minimum|in particular|also|where appropriate|where applicable|,)\s*)*:?\s*$/iu;

/** The head noun of a subject: its first noun phrase's last word, participles and plurals set aside. */
function headNoun(actor: string): string {
  const np = actor
    .toLowerCase()
    .replace(/[‘’'"“”]/gu, "")
    .replace(
      /^(?:the|a|an|this|that|these|those|such|each|any|every|its|their|all|any such|all the|the following)\s+/u,
      "",
    )
    .split(
      /\s*(?:,|\(|\b(?:of|referred|to|in|for|on|under|as|which|that|with|by|from|pursuant|between|where|when|at|about|relating|concerning)\b)/u,
    )[0] as string;
  const words = np
    .trim()
    .split(/\s+/u)
    .filter((w) => w !== "");
  while (words.length > 1 && /(?:ed|en)$/u.test(words[words.length - 1] as string)) words.pop();
  const last = words[words.length - 1] ?? "";
  return singular(last);
}

/** Rules 6: whether a subject names a document ("The report", "the notification referred to in …"). */
export const namesDocument = (actor: string) => DOCUMENT_6.test(headNoun(actor));

/** Rules 6: whether words after a modal say what a document contains ("shall include at least …"). */
export const saysContents = (action: string) => CONTAINS_6.test(action);

/** Rules 6: a lead-in that stops after its modal ("The notification … shall at least:"). */
export const isBareLeadIn = (action: string) => BARE_LEAD_IN_6.test(action);

/** Rules 6: a duty whose subject is a document and whose verb says what it contains. */
export const statesContents = (actor: string, action: string, rules: number) => {
  const head = headNoun(actor);
  return (DOCUMENT_6.test(head) || (rules >= 8 && DOCUMENT_8.test(head))) && CONTAINS_6.test(action);
};

/** Rules 9: the head noun of a subject that names a document, or null. */
export function documentHead(actor: string): string | null {
  const head = headNoun(actor);
  return DOCUMENT_6.test(head) || DOCUMENT_8.test(head) ? head : null;
}

/** Rules 9: the document a duty's verb makes: "ESMA shall notify …" makes the notification. */
const NOMINAL_9: Readonly<Record<string, string>> = {
  notify: "notification",
  report: "report",
  apply: "application",
  request: "request",
  decide: "decision",
  declare: "declaration",
  inform: "information",
  publish: "publication",
  communicate: "communication",
  record: "record",
  state: "statement",
};

/**
 * Rules 14: registering makes a registration ("the provider … shall register themselves and their
 * system in the EU database … the registration referred to in paragraphs 1, 2 and 3 of this Article
 * shall … contain only the following information:", AI Act Art 49(1), (4)).
 */
const NOMINAL_14: Readonly<Record<string, string>> = { register: "registration" };

/**
 * Rules 9: the documents a duty makes its holder the author of: what its verb makes ("shall notify")
 * and the documents its words name ("shall draw up a report", "establish … a testing programme"). Whose
 * a later "The notification shall specify: (a) …" is (AIFMD Art 47(8): ESMA's, not the AIFM's it names).
 */
export function documentsAuthored(action: string, rules = 9): string[] {
  const text = (rules >= 13 ? action.replace(WHEN_AND_HOW_13, "") : action).toLowerCase();
  const words = text.match(/\p{L}+/gu) ?? [];
  const verb = words.find((w) => !/ly$/u.test(w) && !["not", "also", "further", "then", "be"].includes(w));
  const made = [...text.matchAll(MAKES_9)].map((m) => singular(m[1] as string));
  const named = made.filter((w) => DOCUMENT_6.test(w) || DOCUMENT_8.test(w));
  const nominal = verb ? (NOMINAL_9[verb] ?? (rules >= 14 ? NOMINAL_14[verb] : undefined)) : undefined;
  return [...new Set([...(nominal ? [nominal] : []), ...named])];
}

/**
 * Rules 13: the verb past the words that say when and how ("the controller shall without undue delay
 * and, where feasible, not later than 72 hours after having become aware of it, notify the personal data
 * breach", GDPR Art 33(1)): whose "The notification referred to in paragraph 1 shall at least: …" is.
 */
const WHEN_AND_HOW_13 =
  /^(?:\s*(?:,|and\b|or\b|without (?:undue )?delay\b|immediately\b|promptly\b|forthwith\b|where (?:feasible|possible|appropriate|applicable|relevant|necessary)\b|(?:not later than|no later than|within|at the latest)\b[^,;.]{0,120},))+/iu;

/** Rules 9: a verb that makes a document, and the noun it makes ("draw up a report", "establish … a programme"). */
const MAKES_9 =
  /\b(?:draw(?:s|n)? up|prepare|establish|adopt|produce|issue|publish|maintain|keep|submit|send|draft|compile|set up|develop|make|review|update)\b[^.;:]{0,80}?\b(\p{L}+)(?=\s*(?:$|[,;:.(]|\b(?:of|for|on|in|to|that|which|with|by|as|and|or|referred|pursuant|containing|setting|describing)\b))/gu;
