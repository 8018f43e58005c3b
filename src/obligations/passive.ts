/**
 * The agent of a passive duty, who holds it: "The report shall be submitted by the Commission" is the
 * Commission's (docs/obligations.md#extraction-rules; each rule is gated by the rules number that
 * introduced it).
 */

/** A passive duty's holder is its agent: "The report shall be submitted by the Commission". */
export function agentOf(after: string, rules = 1): string | null {
  // Rules 8: what "shall be defined in an agreement between the manufacturer, the incoming notified
  // body and …" is defined by the parties to that agreement (MDR Art 58, IVDR Art 53); the first named
  // is the one changing its arrangements, and the actor map reads one party.
  const parties = rules >= 8 ? AGREEMENT_BETWEEN_8.exec(after) : null;
  if (parties) return ((parties[1] as string).split(/,|\s+and\s+/u)[0] as string).trim();
  // Rules 13: an adjective is no participle ("shall be competent to act as lead supervisory authority for
  // the cross-border processing carried out by that controller", GDPR Art 56(1)): no passive, no agent.
  if (rules >= 13 && ADJECTIVE_13.test(after)) return null;
  const m = passiveAgent(after, rules);
  if (!m) return null;
  // Rules 13: a vote's majority is the body's ("adopted … by a two-thirds majority of the members of the
  // Board", GDPR Art 65(2)): the Board, not its members.
  const agent = rules >= 13 ? (m[1] as string).trim().replace(MAJORITY_OF_13, "") : (m[1] as string).trim();
  // Rules 6: "by" right after a participle that follows a noun is that participle's agent ("be
  // translated into the languages required by the Member State"), not the duty's.
  if (rules >= 6) {
    const pre = m[0]
      .slice(0, m[0].lastIndexOf(`by ${m[1] as string}`))
      .trim()
      .split(/\s+/u);
    const last = pre[pre.length - 1] ?? "";
    const prev = pre[pre.length - 2] ?? "";
    if (
      pre.length > 2 &&
      /^(?:[a-z]+(?:ed|en)|drawn|shown|known)$/u.test(last) &&
      !/^(?:be|been|and|or|also|duly|jointly|directly|,)$|ly$/u.test(prev) &&
      !/,$/u.test(prev)
    )
      return null;
  }
  // Rules 8: what a thing is accompanied or supported by is another thing ("the information to be
  // disclosed … shall be accompanied by the following statement:", Taxonomy Art 7), never who acts.
  if (
    rules >= 8 &&
    /^\s*be (?:\w+ly\s+)?(?:accompanied|supported|complemented|backed up|backed)\s+by\b/iu.test(after)
  )
    return null;
  // Rules 11: nor what it is followed or preceded by ("the CE marking shall be followed by the
  // identification number of the notified body", IVDR Art 18(5)); and a "by" inside a relative clause
  // is that clause's agent ("shall be written in a way that is readily understood by a lay person",
  // MDR Art 18(1): the reader, not the writer).
  if (
    rules >= 11 &&
    (FOLLOWED_11.test(after) || RELATIVE_11.test(m[0].slice(0, m[0].lastIndexOf(`by ${m[1]}`))))
  )
    return null;
  // "by the date", "by means of", "by way of" name no one.
  return /^(?:the|a|an) (?:date|end|time|deadline|means|way|use|application|reference)\b|^\w+ (?:means|way)\b/iu.test(
    agent,
  )
    ? null
    : agent;
}

const MAJORITY_OF_13 =
  /^(?:a|an|the)\s+(?:[\w-]+\s+)?majority\s+of\s+(?:the\s+)?(?:votes\s+of\s+(?:the\s+)?)?(?:component\s+)?members\s+of\s+(?=(?:the|its)\s)/iu;
const ADJECTIVE_13 = /^\s*be (?:\w+ly\s+)?(?!(?:sent|spent|lent|meant|went)\b)\w+(?:ent|ant)\b/iu;
const FOLLOWED_11 = /^\s*be (?:\w+ly\s+)?(?:followed|preceded)\s+by\b/iu;
const RELATIVE_11 = /\b(?:which|that|who|whom|whose)\b/iu;

/**
 * The passive's "by" phrase. Rules 8 also read an agent named without an article when it is a party
 * the acts name ("the market surveillance authorities shall be granted full access by providers",
 * "shall be carried out by Member States"), outside a relative clause ("… in a language which can be
 * understood by users" names the reader, not the holder) and not after an "of" complement ("attention
 * shall be given to … the storage … of the UDI by economic operators": whose storage, not who gives
 * attention); of two "by" phrases the first is the agent.
 */
function passiveAgent(after: string, rules: number): RegExpExecArray | null {
  const det = (rules >= 2 ? PASSIVE_2 : PASSIVE_1).exec(after);
  if (rules < 8) return det;
  const bare = BARE_AGENT_8.exec(after);
  if (!bare) return det;
  if (!det) return bare;
  return bare[0].length - (bare[1] as string).length < det[0].length - (det[1] as string).length ? bare : det;
}

const AGREEMENT_BETWEEN_8 =
  /^\s*be (?:\w+ly\s+)?(?:defined|set out|laid down|specified|agreed|regulated|documented) in (?:a|an|the) (?:written )?(?:agreement|contract) between ((?:the|a|an) [^.;]+?)\s*(?:[.;]|$)/iu;

/** Rules 8: the parties an article-less agent may name (a plural of a role the acts give duties to). */
const BARE_PARTY =
  "(?:Member States|(?:[a-z][\\w-]*\\s+){0,3}(?:providers|deployers|manufacturers|importers|distributors|operators|controllers|processors|auditors|authorities|bodies|entities|institutions|undertakings|companies|persons|issuers|offerors|intermediaries|gatekeepers|traders|sponsors|holders|representatives|courts|AIFMs|UCITS))";
const BARE_AGENT_8 = new RegExp(
  `^\\s*be (?:\\w+(?:ed|en|t|wn)|made|paid|sent|kept|held|given|done|set|put|laid|brought|taken|borne|drawn|shown)\\b(?:(?!\\b(?:which|that|who|whom|whose|of)\\b)[^.;])*?\\bby (${BARE_PARTY})(?=[,;.]|\\s+(?:in|within|to|no later|not later|at|on|and|or|without|where|when|if|before|after|for|under|pursuant|as|from|with|who|which)\\b|$)`,
  "u",
);

/** Rules 1 read regular participles; rules 2 also irregular ones ("shall be made available … by the payment service provider"). */
const PASSIVE_1 =
  /^\s*be \w+(?:ed|en|t|wn)\b[^.;]*?\bby ((?:the|each|every|its|their|that|those|a|an)\s+[^,;.()]{2,80}?)(?=[,;.]|\s+(?:in|within|to|no later|not later|at|on|and|or|without|where|when|if|before|after|for|under|pursuant|as|from|with)\b|$)/u;
const PASSIVE_2 =
  /^\s*be (?:\w+(?:ed|en|t|wn)|made|paid|sent|kept|held|given|done|set|put|laid|brought|taken|borne|drawn|shown|told|sold|built|found|led|met|read|run|understood)\b[^.;]*?\bby ((?:the|each|every|its|their|that|those|a|an)\s+[^,;.()]{2,80}?)(?=[,;.]|\s+(?:in|within|to|no later|not later|at|on|and|or|without|where|when|if|before|after|for|under|pursuant|as|from|with|who|which)\b|$)/u;

/**
 * Rules 13: the party a subject names as the one doing what it is about ("The monitoring of notified
 * bodies by the authority responsible for notified bodies shall include observed audits", IVDR Art
 * 40(5)): the words after its "by", where they name a party; who is monitored holds nothing.
 */
export function agentInSubject(actor: string): string | null {
  const m = DOING_BY_13.exec(actor);
  return m ? (m[1] as string) : null;
}

/**
 * An act named by its noun ("monitoring", "evaluation", "request", "action"), what it is of, a participle
 * that it was done, then its "by": not a party a "by" qualifies ("The officials … authorised by the Lead
 * Overseer", "the coordinating Member State proposed by the sponsor"), who is the holder named first.
 */
const DOING_BY_13 =
  /^(?:(?:the|an?|any|each|such)\s+)?(?:[\w-]+\s+){0,2}?(?:[\w-]+(?:ing|tion|sion|ment)|request|review|audit|action|use|control|oversight)\s+(?:(?:of|to)\s+[^,;]{1,80}?\s+)?(?:(?:conducted|carried out|performed|made|taken|undertaken|exercised)\s+)?by\s+((?:the|an?|each|any|that|those|such|its|their|all)\s.+)$/iu;

/**
 * Rules 14: the party a passive gives its subject to ("Marketing communications shall be notified to
 * competent authorities upon request", MiCA Art 29(5): the competent authorities), cut before what says
 * when, how or about what; null when the words give it to no one, or to another instance of a kind
 * ("to the competent authorities of the host Member State", "to all Member States").
 */
const GIVEN_TO_14 =
  /^\s*(?:,[^,]{1,60},\s*)?(?:also\s+)?be\s+(?:\w+ly\s+)?(?:notified|supplied|submitted|sent|transmitted|communicated|provided|forwarded|made available|reported|addressed|disclosed|delivered)\b(?:(?!\bto\b)[^.;]){0,60}\bto\s+((?:(?:the|all|any|each|every|its|their|relevant|national|competent)\b|[A-Z])[^.;,]{0,120}?)(?=\s+(?:with regard to|regarding|about|concerning|on|in|upon|within|without|by|through|via|before|after|where|when|if|at|for|and made)\b|[.;,]|$)/u;

export function recipientOf(action: string, rules: number): string | null {
  const to = rules >= 14 ? GIVEN_TO_14.exec(action)?.[1] : undefined;
  return to && !/\b(?:home|host|other|another|all|each|every|requesting|requested)\b/iu.test(to) ? to : null;
}
