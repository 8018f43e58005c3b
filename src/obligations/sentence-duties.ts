/**
 * The duties one sentence states (docs/obligations.md): its main modal, the subject before it and the
 * action after it; two duties where a second modal stands on its own; none where the sentence states
 * none (an exemption, a relative "may", an act's own rules). atoms.ts turns them into atoms.
 */
import { passedOnDuty } from "./antecedents.ts";
import { MODAL, type Modality, modalityIn, modalityOf } from "./modality.ts";
import { clauseOf, maskRelativeModals, statesNoDuty } from "./no-duty.ts";
import { agentOf } from "./passive.ts";
import type { Sentence } from "./sentences.ts";
import { holderOf, LEADING_CLAUSE } from "./subject.ts";

/** Rules 6: "X shall not be required to …": an exemption releases a duty and states none. */
const EXEMPTION_6 = /^\s*be (?:required|obliged|obligated)\b/iu;
/** Rules 6: "may" in a relative clause opened by a preposition grants nothing ("conditions under which … may"). */
const RELATIVE_MAY_6 =
  /\b(?:under|in|by|on|to|for|with|from|through|during|within|at|of)\s+which\s+(?:(?!(?:is|are|was|were|has|have|had|does|do|did|will|can)\b)[\w’'-]+\s+){0,6}may$/iu;
/** Rules 6: "it" before a passive with a "that"/"to"/"whether" clause is impersonal, no pronoun. */
const IMPERSONAL_6 =
  /^\s*(?:also\s+|not\s+)?be\s+(?:\w+ly\s+)?(?:\w+(?:ed|en)\s+(?:that|whether)|(?:prohibited|forbidden|permitted|allowed|possible|impossible|necessary|sufficient|mandatory|required)\s+(?:to|for))\b/iu;

/** Rules 6: "it shall be prohibited to …", "it shall be verified that …": a duty with no subject at all. */
export const isImpersonal = (actor: string, action: string) =>
  /^it$/iu.test(actor) && IMPERSONAL_6.test(action);

/**
 * Rules 11: nor in an indirect question ("the standards guiding how a benchmark may be proven to be
 * new", MiFIR Art 37(4)(c)): what ESMA's standards specify, not what anyone may do.
 */
const INDIRECT_MAY_11 = /\b(?:how|whether|why|whereby)\s+(?:[\w’'-]+\s+){0,4}may$/iu;

/** "may" after these is not a permission granted to an actor ("systems that may be used"). */
const RELATIVE_MAY =
  /\b(?:which|that|who|it|they|as|where|there|this|these|what|whichever|whom)\s+(?:\w+\s+){0,1}may\b/iu;
/**
 * Rules 13: "it" or "they" before "may" and an active verb is a party's pronoun after a leading clause
 * ("Where a Digital Services Coordinator has reason to suspect …, it may send … a request to the
 * Commission", DSA Art 65(2)), not "it may be necessary" nor what things may do ("they may affect").
 */
const PRONOUN_ACTS_13 = /,\s*(?:it|they)\s+(?:\w+ly\s+)?may$/iu;
const ACTIVE_13 =
  /^,?\s*(?:also\s+|,[^,]{1,120},\s*)?(?:request|send|submit|decide|adopt|require|impose|refer|inform|notify|take|carry out|conduct|suspend|withdraw|revoke|refuse|reject|ask|invite|apply|designate|appoint|exercise|initiate|launch|publish|issue|grant|authorise|authorize|allow|establish|set up|provide|make|use|transfer|share|disclose|delegate|entrust|consult|contact|order|prohibit|restrict|demand|lodge|bring|file|appeal|object|choose|opt|rely|waive|extend|terminate|close|open|accept)\b/iu;
export const PRONOUN = /^(?:they|it|he|she|he or she|these|those|this|that|which)$/iu;

export interface Duty {
  modality: Modality;
  actor: string;
  action: string;
  start: number;
  end: number;
  /** A passive naming no agent ("… shall be described"): its holder is not its subject. */
  agentless?: boolean;
}

/**
 * The main modal of a sentence: the first one, unless the sentence opens with a conditional clause
 * ("Where the importer may …, the importer shall …"), whose modal is not the main verb.
 */
function mainModal(text: string, rules = 1): RegExpExecArray | null {
  const first = MODAL.exec(text);
  let main = first;
  if (first && LEADING_CLAUSE.test(text)) {
    const comma = clauseComma(text, rules);
    if (comma >= 0 && comma >= (first.index ?? 0)) {
      const re = new RegExp(MODAL.source, "gu");
      re.lastIndex = comma;
      main = re.exec(text) ?? first;
    }
  }
  if (rules < 6 || !main) return main;
  // Rules 6: a modal inside a relative clause ("a detailed report which shall be based on …") is not
  // the sentence's verb; a sentence with no other states no duty of its own.
  const re = new RegExp(MODAL.source, "gu");
  re.lastIndex = main.index ?? 0;
  let relative = false;
  // A clause "under which the provider shall: (a) …" completed by points is the duty itself: only a
  // modal another follows is read as a relative clause's.
  const laterModal = (x: RegExpExecArray) =>
    new RegExp(MODAL.source, "u").test(text.slice(x.index + x[0].length));
  for (let x = re.exec(text); x; x = re.exec(text)) {
    const before = text.slice(0, x.index);
    // "… which shall include but shall not be limited to": the coordinated modal is in the clause too.
    relative =
      RELATIVE_MODAL_6.test(before) ||
      (rules >= 8 &&
        (AGREED_THAT_8.test(before) ||
          RELATIVE_THAT_8.test(before) ||
          (PREPOSITION_WHICH_8.test(before) && laterModal(x)))) ||
      (rules >= 12 && /^may\b/u.test(x[0]) && CONTENT_THAT_12.test(before)) ||
      (rules >= 13 && /^may\b/u.test(x[0]) && SUCH_A_WAY_13.test(before)) ||
      (rules >= 14 && RELATIVE_OBJECT_14.test(before) && laterModal(x)) ||
      (relative && /\b(?:and|or|but)\s+(?:\w+\s+)?$/iu.test(before));
    if (!relative) return x;
  }
  return null;
}

/**
 * Where a leading clause ends: its first comma; rules 11 pass the commas of a citation ("as set out in
 * Articles 84, 85 and 86 … may represent an unfair burden …, national regulatory authorities shall
 * calculate", EECC Art 89(1)).
 */
function clauseComma(text: string, rules: number): number {
  if (rules < 11) return text.indexOf(", ");
  const comma = /(?<![\d)]), |(?<=\d), (?!\d)|(?<=\)), (?![\d(])/u.exec(text);
  return comma ? comma.index : -1;
}

/**
 * Rules 14: a subject's relative clause with a subject of its own ("The objectives that the Member State
 * may set out with a view to designing the specific selection procedure shall … be limited to one or
 * more of the following:", EECC Art 55(2)): its modal is the clause's when another follows.
 */
const RELATIVE_OBJECT_14 =
  /^\s*(?:The|Any|All|Each|Such)\s+(?:[\w-]+\s+){1,6}?(?<!\b(?:with|in|to|by|for|on|from|under|of|at|through)\s)(?:that|which)\s+(?:the|a|an|its|their|each)\s+(?:[\w-]+\s+){0,5}$/u;
/** Rules 6: a modal right after a relative pronoun ("which shall", "who may") is in a relative clause. */
/**
 * Rules 13: so is one in what a way of doing is such that ("modifies a device … in such a way that
 * compliance with the applicable requirements may be affected", MDR and IVDR Art 16(1)(c)): the point
 * completes its lead-in instead.
 */
const SUCH_A_WAY_13 = /\bin such a (?:way|manner)\s+that\s+(?:[\w’'()-]+\s+){0,12}$/iu;
/**
 * Rules 13: a party deemed another "and" made subject to that other's obligations takes them on ("An
 * importer, distributor or user shall be considered a manufacturer … and shall be subject to the
 * obligations laid down in Article 30 where they:", EHDS Art 34; "… shall be considered to be the
 * manufacturer of the reprocessed device and shall assume the obligations incumbent on manufacturers", MDR
 * Art 17(2)), though no comma sets the duty off from the deeming.
 */
const TAKES_ON_13 = /^\s*(?:also\s+)?(?:be subject to|assume) the (?:same )?(?:obligations|duties)\b/iu;
const RELATIVE_MODAL_6 = /\b(?:which|who|whom)\s+(?:\w+\s+)?$/iu;
/**
 * Rules 8: a modal right after a noun's "that" is a relative clause's too ("qualitative requirements that
 * must be met by AIFMs", AIFMD Art 17(b), what the Commission's delegated act lays down), unless "that"
 * opens what is ensured, required or provided.
 */
const RELATIVE_THAT_8 =
  /(?<!\b(?:ensure|ensures|ensured|require|requires|required|provide|provides|provided|stipulate|stipulates|means|so|such|order|given|fact|case|extent|condition|way|decide|decides|agree|agrees|state|states|verify|verifies|check|checks|demonstrate|demonstrates|show|shows)\s)\b[a-z]+\s+that\s+$/iu;
/**
 * Rules 12: so is one in what a risk, a possibility or an indication is of ("explaining, where
 * applicable, if there is a risk that deadlines may not be respected", RTS 2024/1774 Art 27(2)(h);
 * "indications that malicious activity may have been carried out", Art 23(5)(a)): it states what may
 * happen, not what anyone may do. Only "may", and only within the clause (no comma): "risks that result
 * from the investment … shall be borne by the issuer" (MiCA Art 38(4)) keeps its duty.
 */
const CONTENT_THAT_12 =
  /\b(?:risks?|possibilit(?:y|ies)|likelihood|probability|indications?|evidence|assumptions?|expectations?)\s+that\s+(?:[\w’'()-]+\s+){0,12}$/iu;
/**
 * Rules 8: so is one a few words after a preposition and "which" ("undertakings to which the radio
 * spectrum shall be assigned have been selected …, Member States shall grant", EECC Art 36).
 */
const PREPOSITION_WHICH_8 =
  /\b(?:under|in|by|on|to|for|with|from|through|during|within|at|of)\s+which\s+(?:(?!(?:is|are|was|were|has|have|had|does|do|did|will|can)\b)[\w’'-]+\s+){1,6}$/iu;
/**
 * Rules 8: a modal in what parties agree or decide ("If the payment service user … and the payment
 * service provider agree that execution of the payment order shall start on a specific day, the time of
 * receipt … is deemed to be the agreed day") is their arrangement's content, not the sentence's duty.
 */
const AGREED_THAT_8 = /\b(?:agree|agrees|agreed|decide|decides|decided)\s+that\s+[^,;:]*$/iu;

/**
 * A "may" that grants no one anything: after a relative or a pronoun ("systems that may be used", "it may
 * be necessary"), in a clause on which (rules 6) or in an indirect question (rules 11). Rules 13 keep "it"
 * or "they" after a leading clause before an active verb (PRONOUN_ACTS_13).
 */
function grantsNothing(text: string, at: number, rules: number): boolean {
  const upTo = text.slice(0, at + 3);
  const pronounActs = rules >= 13 && PRONOUN_ACTS_13.test(upTo) && ACTIVE_13.test(text.slice(at + 3));
  return (
    (RELATIVE_MAY.test(upTo) && !pronounActs) ||
    (rules >= 6 && RELATIVE_MAY_6.test(upTo)) ||
    (rules >= 11 && INDIRECT_MAY_11.test(upTo))
  );
}

/** The duties of one sentence: usually one, two when it says "…shall A and shall B". */
/**
 * Rules 15: what the act does not prevent a party from doing is left to it, a permission ("Nothing in this
 * Article shall prevent Member States from adopting or maintaining measures …", IVDR Art 4(4); "Neither
 * this Article nor Article 76 or 88 shall prevent a competent authority from transmitting …", MiFID II
 * Art 81(5)), where a reader had said the act states no duty.
 */
const LEAVES_TO_15 =
  /^\s*(?:Nothing in|Neither)\s[^,;:]{0,160}?\bshall\s+(?:prevent|preclude)\s+((?:the|a|an|any|each)\s+[^,;:]{2,80}?|[A-Z][^,;:]{2,80}?)\s+from\s+(\w+ing\b.*?)[;.]?\s*$/su;

/** A passive head ("… shall be described"): with no agent named, its holder is not its subject. */
const PASSIVE_HEAD =
  /^\s*(?:not\s+)?be\s+(?:\w+ly\s+)?(?:\w+(?:ed|en|wn)|made|kept|held|done|set|put|laid|shown|paid|sent|taken|borne|brought|sold|built|found|met|read|run)\b/u;

/** Rules 15: the permission of the party a saving clause does not prevent from acting, if it is one. */
function leftTo(s: Sentence): Duty | null {
  const left = LEAVES_TO_15.exec(s.text);
  if (!left) return null;
  const [, actor, action] = left as unknown as [string, string, string];
  return { modality: "permission", actor, action, start: s.start, end: s.start + s.text.length };
}

export function dutiesIn(s: Sentence, rules = 1): Duty[] {
  const left = rules >= 15 ? leftTo(s) : null;
  if (left) return [left];
  const m = mainModal(s.text, rules);
  if (!m) return [];
  // Rules 8: a legal effect stated in a relative clause ("plans which, in the case of …, shall be
  // subject to independent internal audit reviews") is the clause's, not the sentence's.
  const noDuty = statesNoDuty(rules >= 8 ? maskRelativeModals(s.text, (m.index ?? 0) + 1) : s.text, rules);
  if (noDuty && rules < 8) return [];
  const modal = m[1] as string;
  const before = s.text.slice(0, m.index);
  if (modal === "may" && grantsNothing(s.text, m.index ?? 0, rules)) return [];
  const after = s.text.slice((m.index ?? 0) + modal.length);
  const agent = agentOf(after, rules);
  const actor = holderOf(before, agent, rules, after);
  if (actor === "" || actor.length > 200) return [];
  // A second modal joined by "and"/"or" is a second duty of the same actor.
  const split = /,?\s+(?:and|or)\s+(shall not|shall|must not|must|may not|may)\b/u.exec(after);
  const head = split ? after.slice(0, split.index) : after;
  const duties: Duty[] = [
    {
      modality: modalityIn(modal, head, before, rules),
      actor,
      action: head.trim().replace(/[;.]$/u, ""),
      agentless: agent === null && PASSIVE_HEAD.test(head),
      start: s.start,
      end: split ? s.start + (m.index ?? 0) + modal.length + (split.index ?? 0) : s.start + s.text.length,
    },
  ];
  if (split) {
    const second = after.slice((split.index ?? 0) + split[0].length);
    const offset =
      s.start +
      (m.index ?? 0) +
      modal.length +
      (split.index ?? 0) +
      split[0].length -
      (split[1] as string).length;
    duties.push({
      modality: modalityOf(split[1] as string),
      actor,
      action: second.trim().replace(/[;.]$/u, ""),
      start: offset,
      end: s.start + s.text.length,
    });
  }
  // Rules 10: "The manufacturer shall operate an approved quality system … and shall be subject to
  // surveillance …" (RED Annex IV): the first clause's duty stands though the second states none.
  if (
    noDuty &&
    rules >= 10 &&
    split &&
    !statesNoDuty(s.text.slice(0, (m.index ?? 0) + modal.length + split.index), rules)
  )
    return [duties[0] as Duty, ...standsAlone(s, duties[1], true, head, rules)];
  if (noDuty && rules >= 13 && split && TAKES_ON_13.test(after.slice((split.index ?? 0) + split[0].length)))
    return [duties[1] as Duty];
  if (noDuty) return standsAlone(s, duties[1], split?.[0].startsWith(",") === true, head, rules);
  // Rules 6: "… shall not be required to …" releases a duty; the sentence's other duty stands.
  const modals = [modal, split?.[1] ?? ""];
  const kept =
    rules >= 6
      ? duties.filter((d, i) => !(/not/u.test(modals[i] as string) && EXEMPTION_6.test(d.action)))
      : duties;
  const next = rules >= 8 ? passedOnDuty(s.text) : null;
  if (!next) return kept;
  // Quoted from the party on: the sentence's own duty is quoted whole already.
  return [
    ...kept,
    {
      modality: modalityOf(next.modal),
      actor: next.actor,
      action: next.action,
      start: s.start + next.from,
      end: s.start + s.text.length,
    },
  ];
}

/**
 * Rules 8: in a sentence whose first duty states none, the second of two duties coordinated after a
 * comma stands on its own ("That person shall be subject to the rules of notification …, and shall
 * without delay report …"), unless the first clause's head is a relative clause ("provisions … that
 * harm, or may harm, …").
 */
function standsAlone(
  s: Sentence,
  second: Duty | undefined,
  afterComma: boolean,
  head: string,
  rules: number,
): Duty[] {
  const alone =
    second !== undefined &&
    afterComma &&
    !/\b(?:that|which|who|whom)\b/iu.test(head) &&
    !statesNoDuty(clauseOf(s.text, second.start - s.start), rules);
  return alone ? [second] : [];
}
