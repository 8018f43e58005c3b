/**
 * The subject as written (docs/obligations.md#extraction-rules): the words before a duty's modal, less
 * the leading clause, the interjections and the connectives around them. Each reading is gated by the
 * rules number that introduced it, so an older release re-extracts as it was.
 */
import { conditionSubject } from "./antecedents.ts";
import { FIRM_NOUN, PUBLIC_NOUN } from "./parties.ts";

/** A clause a sentence opens with before its subject ("Where …,", "In accordance with …,"). */
export const LEADING_CLAUSE =
  /^(?:where|if|when|whenever|in|for|without|by way of|notwithstanding|subject to|on|upon|after|before|prior to|until|once|to|with|as|unless|pursuant|by|following|within|at|save|except|during|having)\b/iu;

const LEADING_PARTICIPLE_11 = /^(?:taking (?:into )?account|bearing in mind|having regard to|in view of)\b/iu;

/** A subject cut inside a citation ("… set out in Chapter III, Section 2, of that Regulation"). */
const CUT_IN_CITATION = /^(?:of\b|\d|\(|points?\b|paragraphs?\b|and\s+\d)/iu;

/** What follows a subject's comma when the subject is one noun phrase ("Member States, in accordance with …,"). */
const ADVERBIAL =
  /^(?:in|where|as|if|for|with|pursuant|acting|after|on|by|including|within|without|at|when|whenever|which|who|whose|taking|having|subject|notwithstanding|upon|under)\b/iu;

/** Rules 8: what sets itself off by commas between a subject and its modal. */
const INTERJECTION_8 =
  /^(?:in accordance with|in consultation with|in cooperation with|in close cooperation with|through|as (?:applicable|appropriate|the case may be)|if (?:invited|requested|necessary|appropriate)|where (?:applicable|appropriate|relevant|necessary|possible)|acting|while|assisted by|together with|jointly|after (?:consulting|having)|following|having regard to|taking into account|without prejudice to|on (?:its|their) own initiative|upon request|other than|within (?:their|its) (?:respective )?(?:competences?|powers))\b/iu;
/** Rules 8: a piece that names a party (a determiner or none, then a party's noun, no preposition first). */
const NAMES_PARTY_8 = new RegExp(
  String.raw`^(?:(?:the|a|an|each|every|any|all|such|those|these)\s+)?(?!(?:point|points|paragraph|including|such as|in|on|of|for|with|by|as|if|where|when|while|after|before|under|within|without|respectively|both|parts?)\b)(?:[\w’'-]+\s+){0,8}(?:${FIRM_NOUN}|${PUBLIC_NOUN})$`,
  "u",
);

/** The subject as written: what precedes the modal, after any leading conditional clause. */
export function actorOf(before: string, rules = 1): string {
  let s = before.trim();
  // Rules 6: a connective opening the sentence ("However, …") is no part of its subject.
  if (rules >= 6)
    s = s.replace(
      /^(?:however|moreover|furthermore|nevertheless|accordingly|consequently|therefore|additionally|alternatively|likewise|similarly|finally|thereafter),\s*(?:and\s+)?/iu,
      "",
    );
  if (rules >= 8) {
    // Rules 8: an interjection inside a coordinated subject is no part of it ("Economic operators and,
    // where applicable, providers of online marketplaces that collect … shall").
    s = s.replace(
      /\b(and|or),\s*(?:where (?:applicable|appropriate|relevant)|as (?:appropriate|applicable)),\s*/iu,
      "$1 ",
    );
  }
  // Rules 2: a sentence that opens with its subject is not cut at the commas inside the subject
  // ("Processing of personal data revealing racial or ethnic origin, political opinions, …").
  // Rules 11: a participle opening the sentence leads in as a clause does ("Taking into account the
  // nature, scope, context and purposes of processing …, the controller shall implement", GDPR Art 24(1)).
  const leading = LEADING_CLAUSE.test(s) || (rules >= 11 && LEADING_PARTICIPLE_11.test(s));
  if (rules >= 2 && !leading && s.includes(",")) {
    const [head, ...rest] = s.split(",");
    const adverbial = rest.map((x) => x.trim()).filter((x) => x !== "");
    s = adverbial.length > 0 && ADVERBIAL.test(adverbial[0] as string) ? (head as string) : s;
    return s.replace(/\s+(?:also|therefore|only|nevertheless|further|in particular)$/iu, "").trim();
  }
  if (leading || s.includes(",")) {
    let i = s.lastIndexOf(",");
    // Rules 2: a comma inside a citation does not end the leading clause; step back over it.
    while (rules >= 2 && i > 0 && CUT_IN_CITATION.test(s.slice(i + 1).trim())) {
      const j = s.lastIndexOf(",", i - 1);
      if (j < 0) break;
      i = j;
    }
    // Rules 8: a comma closing an interjection just before the modal ("economic operators and
    // providers of online marketplaces, in accordance with their respective responsibilities, shall";
    // "financial entities, other than microenterprises, shall") left an empty subject and lost the
    // duty; the subject is the piece before the interjections, when it names a party.
    if (rules >= 8 && s.slice(i + 1).trim() === "") {
      let t = s.slice(0, i).trimEnd();
      let k = t.lastIndexOf(",");
      while (k > 0 && INTERJECTION_8.test(t.slice(k + 1).trim())) {
        t = t.slice(0, k).trimEnd();
        k = t.lastIndexOf(",");
      }
      if (NAMES_PARTY_8.test(t.slice(k + 1).trim())) {
        s = t;
        i = k;
      }
    }
    // Rules 8: nor does a comma before a relative clause or an exception describing the subject
    // ("data holders that are legal persons, other than public sector bodies, which hold those data").
    while (rules >= 8 && i > 0 && /^(?:which|who|whose|other than)\b/iu.test(s.slice(i + 1).trim())) {
      const j = s.lastIndexOf(",", i - 1);
      if (j < 0) break;
      i = j;
    }
    if (i >= 0) s = s.slice(i + 1).trim();
  }
  s = s.replace(/^(?:and|or|but|however|moreover|furthermore|in addition|also)\b,?\s*/iu, "");
  // "For relying parties other than public sector bodies the notifying Member State": a leading
  // phrase with no comma ends where the subject's determiner begins.
  // Rules 10: a leading phrase that ends in a citation ends there, not at the subject's last
  // determiner ("In the case referred to in point (a) of paragraph 1 the competent authority of the
  // Member State which has requested cooperation may ask", AIFMD Art 54(2)).
  const cited =
    rules >= 10 && LEADING_CLAUSE.test(s) ? /(?:\d|\))\s(?:the|each|every|all|any|a|an)\s/u.exec(s) : null;
  if (cited) s = s.slice(cited.index + cited[0].indexOf(" ") + 1);
  else if (LEADING_CLAUSE.test(s)) {
    const i = s.search(/\s(?:the|each|every|all|any|a|an)\s(?!.*\s(?:the|each|every|all|any|a|an)\s)/u);
    if (i > 0) s = s.slice(i + 1);
  }
  return s.replace(/\s+(?:also|therefore|only|nevertheless|further|in particular)$/iu, "").trim();
}

/** The holder a sentence names before its modal, or the agent of its passive; long subjects shortened. */
export function holderOf(before: string, agent: string | null, rules: number, after = ""): string {
  let actor = agent ?? actorOf(before, rules);
  // Rules 2: a long subject listing many things is named by its head, not dropped.
  if (rules >= 2 && actor.length > 200) actor = (actor.split(",")[0] as string).trim();
  // Rules 8: still too long, a party described by a relative clause is named by what stands before it
  // ("Financial entities that provide information on non-major recurring ICT-related incidents that …,
  // shall provide"), not dropped; a thing so described still is.
  if (rules >= 8 && actor.length > 200) {
    const head = /^(.{3,60}?)\s(?:that|who)\s/u.exec(actor)?.[1];
    if (head && !/\bwhich\b/iu.test(head)) actor = head.trim();
  }
  return rules >= 8 ? (conditionSubject(before, actor, after, rules) ?? actor) : actor;
}
