/**
 * Obligation atoms: one duty each, read from the units of a corpus (docs/obligations.md).
 *
 * - A sentence's modal decides its modality: "shall not", "may not", "must not", "is prohibited" ->
 *   prohibition; "shall", "must" -> obligation; "may" -> permission. Sentences about the act itself
 *   ("This Regulation shall apply", "shall enter into force", "shall mean") state no duty.
 * - "X shall do A and shall do B" is two atoms.
 * - A lead-in that ends with a colon ("The notification shall at least:") is completed by the points
 *   under it: each such point without a modal of its own is an atom with the lead-in's actor and
 *   modality, anchored at the point (so NIS2 Art 23(4)(a) carries its own "24 hours").
 * - The actor is the subject as written, the words before the modal (after a leading "Where …," clause).
 */

import { createHash } from "node:crypto";
import type { Unit } from "../canon/model.ts";
import { isBareLeadIn, namesDocument, saysContents, statesContents } from "./documents.ts";
import type { Modality } from "./modality.ts";
import { completesNoDuty } from "./no-duty.ts";
import { type Constant, constantsIn } from "./quantities.ts";
import { type Duty, dutiesIn, isImpersonal, PRONOUN } from "./sentence-duties.ts";
import { listedItems, type Sentence, sentences } from "./sentences.ts";

export type { Modality } from "./modality.ts";
export type { Constant } from "./quantities.ts";
export { isImpersonal };

export interface Atom {
  /** `<node>#<n>`: where the atom sits in this release (not its permanent id). */
  key: string;
  node: string;
  act: string;
  unit_eid: string;
  modality: Modality;
  actor: string;
  action: string;
  quoted_text: string;
  char_start: number;
  char_end: number;
  /** The lead-in this atom completes, when it is a point under one. */
  lead_in: string | null;
  effective: string;
  expires: string | null;
  executable_name: string | null;
  executable_unit: string | null;
  executable_value: number | string | null;
  constants: Constant[];
  /** SHA-256 of the quoted text with whitespace collapsed: what the ledger matches on. */
  fingerprint: string;
}

/**
 * The extraction rules (docs/obligations.md#extraction-rules). A ledger names the rules its ids were
 * matched under, so a tag rebuilds with its own; `acquis atoms sync` moves a ledger to these.
 *   1: the first rules.
 *   2: a point completing a lead-in is one duty however many modals the lead-in has; a sentence
 *      repeated word for word in one unit is one duty; liability, voluntariness, presumption,
 *      recognition, classification ("shall be considered") and jurisdiction rules are not duties;
 *      "shall be responsible for" is a duty; a
 *      comma inside a citation does not end a leading clause.
 *   3: what a sentence's effect, not a party's conduct, is stated ("shall also be deemed", "shall lapse",
 *      "shall take effect", "shall have an equivalent effect", "shall be subject to administrative fines") is not a duty; "shall be entitled to" and
 *      "shall have the power to" grant (permissions); "shall be prohibited", a subject opening with "No"
 *      and "may/shall … only if/with/where/on …" forbid (prohibitions); a point opening with "not"
 *      under a lead-in duty is a prohibition. (Tried and dropped: reading the points of "The report
 *      shall contain the following:" as contents rather than duties lost DORA Art 30 and the incident
 *      report RTS from the dev register: the document is the firm's, and so is the duty.)
 *   4: a classification however worded ("shall always be considered", "shall be regarded as"), a
 *      submission to a regime ("shall be subject to the laws and supervision of …") and a bar on what
 *      may be imposed on a party ("No general obligation … shall be imposed on those providers") are not
 *      duties; a procedural guarantee ("shall be consulted", "shall be heard", "shall be given the
 *      opportunity to …", "shall … have the possibility to present their views") is a right of its
 *      holder, a permission.
 *   5: the calendar dates a duty states are constants.
 *   6: what a document states is not a duty: a sentence whose subject is a document, a part of one or
 *      an instrument ("The report", "The national cybersecurity strategy", "Application notes") and
 *      whose verb says what it contains ("shall contain", "shall include", "may give information",
 *      "shall take into account"), nor a point completing such a lead-in ("The summary shall contain a
 *      warning that:"); the duty is drawing the document up, stated where its author is named. In an
 *      act whose duties all fall on one party (scope.yaml `holder`: the standards on a financial
 *      entity's incident reports) its documents' contents stay that party's duties. An exemption
 *      ("shall not be required to", "shall not be obliged to") and "shall qualify as" state no duty. A
 *      modal in a relative clause ("a report which shall be based on …", "the conditions under which
 *      the rights may be modified") is not the sentence's verb. "It" before a passive with a "that" or
 *      "to" clause ("it shall be verified that", "it shall be prohibited to") is impersonal, not a
 *      pronoun for the previous actor. "by" after a participle that follows a noun ("the languages
 *      required by the Member State") is that participle's agent, not the duty's. A connective opening
 *      a sentence ("However, …") is no part of its subject. A point completing a party's lead-in whose
 *      own duty is passive without an agent ("the dataset content … shall be described") is that
 *      party's; a point opening with "for" and a party under a document's passive lead-in ("The
 *      information … shall be disclosed: (k) for AIFMs of ELTIFs, in the prospectus …") names its holder.
 *   7: a subject whose party stands in its "of" complement and that "shall be taken into account"
 *      ("the specific interests and needs of the SME providers") names whose interests are weighed, not
 *      the holder, who is found as for a thing (release-atoms).
 *   8: a passive's agent may be named without an article when it is a party ("shall be granted full
 *      access by providers", "shall be carried out by Member States"), unless inside a relative clause
 *      or after an "of" complement (the agent of a noun); of two "by" phrases, the first is the agent.
 *      Not duties: a classification with an adverb ("shall only be considered"), a legal effect, a
 *      voting rule, a purpose, the allocation of a competence, and a lead-in listing objectives,
 *      criteria or ways (no-duty.ts). A party a passive without agent acts upon is not its holder
 *      (release-atoms). A pronoun after a conditional clause whose subject is a party stands for that
 *      party ("Where the payee … fails to accept …, it shall refund"); a duty passed on to the party
 *      informed ("shall inform the manufacturer, …, which shall then take the necessary corrective
 *      actions") is that party's own. From the third dev sample (sixth session): more legal effects,
 *      interpretations and what law may provide (no-duty.ts); the points of an exception or of a
 *      derogation's conditions are no duties; "shall be empowered to" grants a power; "shall only
 *      <verb> … if" forbids the rest; an entity acts through its management body, and a party named
 *      after a preposition or only told something is not the one a Member State's duty is about
 *      (addressee.ts); a pronoun after a conditional clause stands for a public body it names too
 *      (antecedents.ts); a subject of parties joined by and/or names each (taxonomy.ts).
 *   9: what a document contains is a duty again, in every act: "The technical documentation shall
 *      contain: (a) …" binds whoever draws the document up, found as for any thing-subject duty
 *      (release-atoms). Rules 6 had read it as no one's, after the first dev half's reader; the labelling
 *      brief and the readers of the later samples read it as the author's requirement, point by point.
 *  10: a point that completes a lead-in and ends with a colon is completed by its own points in turn
 *      (addSubPoints); a duty stands beside a coordinated clause that states none (sentence-duties);
 *      powers conferred or delegated are grants, "shall only … for" and "<verb> only" forbid the rest
 *      (modality); four more legal effects (no-duty); a comma-less leading phrase ends at its citation
 *      (subject). In release atoms: a thing-subject is read back from every paragraph it refers to, a
 *      document no party's words type is its author's, powers are held by whom they are given to
 *      (thing-trail.ts), and a State duty's parties are read longest name first (taxonomy).
 *  11: in release atoms, a document the actor map gives several usual keepers is kept by the one its
 *      article names (thing-trail keeperNamed); of public holders named together, the first named
 *      holds the duty (addressee firstNamed); a point under a State's lead-in binds the parties the
 *      lead-in prescribes conduct to, and a directive's "X shall be required to" is the State's duty
 *      binding X through national law (prescribed.ts); what a thing is followed or
 *      preceded by, and a "by" inside a relative clause, name no agent (passive); a leading clause
 *      does not end at a citation's comma, and "may" in an indirect question ("how … may") grants
 *      nothing (sentence-duties); which act prevails, articles and obligations disapplied and a
 *      classification are legal effects (no-duty); "only with the agreement of" bars the rest (modality);
 *      a participle opening a sentence ("Taking into account …, the controller shall") leads in as a
 *      clause does (subject).
 *  12: a lead-in's conditions complete it (only its exceptions state no duty); "only" past a
 *      citation, a State's "provide for … only where" and "Neither … nor … shall" bar the rest, powers
 *      past an interjection are grants (modality); definitions for the act's purposes, what a rule
 *      does not affect or also/only applies to, periods not counted and elements of proof are no
 *      duties (no-duty); a condition's subject drops its own-article citation and may be a party that
 *      opts (antecedents). In release atoms: a demonstrative before a thing is the previous holder's,
 *      an agreement binds each party it is between, a power is whom it is conferred on
 *      (named-in-context.ts).
 *  13: legal effects ("tacitly extended", "replaced by", when time runs, a right's reach, a benefit
 *      withheld) are no duties, a competence conferred and access a party shall have are grants, a
 *      party deemed another and made subject to its obligations takes them on, and a "may" in what a
 *      way of doing is such that grants nothing (no-duty, modality, sentence-duties); a subject is law by
 *      its head, an adjective is no participle, a document is made past the words that say when and
 *      how (addressee, passive, documents). In release atoms: a thing-subject's act is held by the party
 *      it is done by (passive agentInSubject).
 *  14: a point completing a lead-in that ends at its modal ("ESMA may:") is a verb phrase, its inner
 *      modals its clauses' (atoms), as a subject's own relative clause's modal is (sentence-duties);
 *      time running afresh, how the act's references read, a capacity conferred, a programme's aims, a
 *      device's class and a definition are no duties, and the aspects of a safe product are (no-duty);
 *      powers and discretion a party shall have are grants, "only if" far past the verb bars the rest,
 *      and a body that shall be consulted is a duty to consult it (modality); registering makes a
 *      registration (documents). In release atoms: a thing given to a party is not given by it (passive
 *      recipientOf).
 *  15: punctuation is no part of a word, a list set off by commas names each party, and a phrase headed
 *      by a party's noun is no thing (taxonomy); what the act does not prevent a party from doing is its
 *      permission (sentence-duties); a right lost, a competence withheld, how a body votes, is made up
 *      and represented, and what measures may include are no duties (no-duty); a clause set off after
 *      "Where" is no part of its subject (antecedents). In release atoms: a leading "For <party>," holds
 *      its thing's duty (named-in-context partyFor).
 */
export const EXTRACTION_RULES = 15;

/**
 * Rules 8: a lead-in whose points are the exceptions to or the conditions of its duty; not "may … only
 * where all of the following conditions are met:", a prohibition stated condition by condition (rules 3).
 */
const CONDITIONS_LEAD_IN_8 =
  /(?:\b(?:except|unless)(?: (?:if|where|when|in the following cases))?|(?<!\bonly )\b(?:provided that|where|if|when|on condition that)\b[^.;:]{0,240}\b(?:following|these) conditions (?:are|have been) (?:met|fulfilled|satisfied))\s*:\s*$/iu;

/**
 * Rules 12: only a lead-in's exceptions are no duties. Its conditions complete it, each with the lead-in's
 * modality and holder ("personal data … may be processed … when all of the following conditions are met:
 * (i) a complete and detailed description … is kept", AI Act Art 59(1); "Investment firms shall make
 * public firm quotes … when the following conditions are fulfilled: (b) they agree to provide a quote",
 * MiFIR Art 18(1)): what the holder must see to before it may act, or when its duty bites.
 */
const EXCEPTIONS_LEAD_IN_12 = /\b(?:except|unless)(?: (?:if|where|when|in the following cases))?\s*:\s*$/iu;

/** Whether a lead-in lists its duty's exceptions (rules 12) or its exceptions and conditions (rules 8). */
const listsNoDuties = (leadIn: string, rules: number): boolean =>
  rules >= 12 ? EXCEPTIONS_LEAD_IN_12.test(leadIn) : rules >= 8 && CONDITIONS_LEAD_IN_8.test(leadIn);

/**
 * Rules 8: "The business processes shall include but are not limited to: (a) settlement; …" (ITS
 * 2025/302 Annex II): a list of examples of what a thing covers, neither the lead-in nor an item a duty.
 */
const EXAMPLES_LEAD_IN_8 = /^(?:include|comprise|consist of),? but (?:are|is|be) not limited to\s*:\s*$/iu;

export function fingerprint(text: string): string {
  return createHash("sha256").update(text.replace(/\s+/gu, " ").trim()).digest("hex");
}

const DUTY_KINDS = new Set(["article", "paragraph", "subparagraph", "point", "indent", "annex"]);

const isPoint = (u: Unit) => u.kind === "point" || u.kind === "indent";
const articleOf = (u: Unit) => `${u.act}/${u.eid.split("__")[0]}`;

/** What extracting reads, and what it keeps as it goes: the atoms so far and what they stated. */
interface Extraction {
  rules: number;
  ownDocuments: ReadonlySet<string>;
  /** Each unit's children, in corpus order. */
  children: Map<string, Unit[]>;
  byNode: Map<string, Unit>;
  atoms: Atom[];
  /** Per unit, how many atoms it has: the `#n` of its keys. */
  counters: Map<string, number>;
  /** Per article, the last actor named: what "They shall …" stands for. */
  lastActor: Map<string, string>;
  /** Rules 2: every duty stated, by unit and fingerprint. */
  stated: Set<string>;
  /** Rules 14: per lead-in unit, whether its last sentence ends at its modal (read once for all its points). */
  bareModal: Map<string, boolean>;
}

/** The lead-in a point completes: its unit, and its sentence ending with the colon. */
interface LeadIn {
  unit: Unit;
  sentence: string;
}

/**
 * `ownDocuments`: acts whose duties all fall on one kind of party (scope.yaml `holder`), such as the
 * technical standards that lay down what a financial entity's incident reports contain. Under rules 6
 * the contents of a document stated in such an act stay duties: the act exists to say what that
 * party's document contains.
 */
export function extractAtoms(
  units: Unit[],
  rules = 1,
  ownDocuments: ReadonlySet<string> = new Set(),
): Atom[] {
  const x: Extraction = {
    rules,
    ownDocuments,
    children: childrenOf(units),
    byNode: new Map(units.map((u) => [u.node, u])),
    atoms: [],
    counters: new Map(),
    lastActor: new Map(),
    stated: new Set(),
    bareModal: new Map(),
  };
  for (const u of units) {
    if (!DUTY_KINDS.has(u.kind) || u.own_text === "" || completesBareModal(x, u)) continue;
    const list = sentences(u.own_text, rules);
    for (const [k, s] of list.entries()) {
      const duties = dutiesIn(s, rules);
      for (const [i, d] of duties.entries()) {
        if (rules >= 6) {
          // Rules 6: what a document states is not a duty (its subject still is what "it" stands for).
          if (
            statesContents(resolveActor(x, u, d.actor, d.action), d.action, rules) &&
            !contentsAreDuties(x, u)
          )
            continue;
          d.actor = leadInHolder(x, u, d) ?? d.actor;
        }
        const colon = /:\s*$/u.test(s.text);
        const points: Completion[] = colon
          ? (x.children.get(u.node) ?? [])
              .filter(isPoint)
              .map((c) => ({ unit: c, start: 0, end: c.own_text.length }))
          : [];
        // Rules 8: an annex's items under a lead-in, where the corpus has no point units for them.
        if (colon && points.length === 0 && rules >= 8)
          for (const item of listedItems(list, k))
            points.push({ unit: u, start: item.start, end: item.start + item.text.length });
        if (rules >= 8 && points.length > 0 && EXAMPLES_LEAD_IN_8.test(d.action)) continue;
        // Rules 8: points listing the exceptions to, or (until rules 12) the conditions of, the lead-in's duty ("clinical
        // investigations shall be performed, except if:", "may be obtained …, provided that all of the
        // following conditions are fulfilled:") are no duties: the lead-in states the one duty.
        if (points.length === 0 || listsNoDuties(s.text, rules)) {
          addAtom(x, u, d, d.start, d.end, null);
          continue;
        }
        // The lead-in's duty is stated point by point; under rules 2, once for the whole lead-in
        // ("… shall be considered a provider and shall be subject to …, in any of the following:").
        if (rules >= 2 && i > 0) continue;
        addPoints(x, u, s, d, points);
      }
    }
  }
  return x.atoms;
}

function childrenOf(units: Unit[]): Map<string, Unit[]> {
  const children = new Map<string, Unit[]>();
  for (const u of units) {
    if (!u.parent) continue;
    const list = children.get(u.parent) ?? [];
    list.push(u);
    children.set(u.parent, list);
  }
  return children;
}

/** "They shall …", "It shall …": the pronoun stands for the previous duty's actor in the same article. */
function resolveActor(x: Extraction, u: Unit, actor: string, action: string): string {
  // Rules 6: "it shall be verified that …", "it shall be prohibited to …": no pronoun, no one's.
  if (x.rules >= 6 && isImpersonal(actor, action)) return actor;
  const previous = x.lastActor.get(articleOf(u));
  const resolved = PRONOUN.test(actor) && previous ? previous : actor;
  if (!PRONOUN.test(resolved)) x.lastActor.set(articleOf(u), resolved);
  return resolved;
}

/**
 * Rules 6: a point's passive duty naming no agent, under a party's lead-in, is that party's
 * ("Participants … shall comply with the following: (a) the dataset content … shall be described").
 */
function leadInHolder(x: Extraction, u: Unit, d: Duty): string | null {
  const lead = isPoint(u) && d.agentless ? leadInDuty(x, u) : null;
  return lead && !lead.agentless && !namesDocument(lead.actor) && !PRONOUN.test(lead.actor)
    ? lead.actor
    : null;
}

/**
 * Rules 14: a lead-in that ends at its modal ("In particular, ESMA may:", AIFMD Art 37(21); "An ECIC
 * shall:", Chips Act Art 7(2)) is completed by verb phrases, so a modal inside a point is its clause's
 * ("(b) determine the scope of the information that the competent authority … must provide"; "(e)
 * ensure that … other Member States … may join the ECIC"), not a duty of the point's own: the point holds
 * the lead-in's. Not a point opening with a subject or a condition, which may state its own.
 */
const BARE_MODAL_LEAD_IN_14 =
  /\b(?:shall|may|must)(?:,?\s*(?:also|in particular|at least|inter alia|as a minimum),?)*\s*:\s*$/iu;
const VERB_POINT_14 =
  /^\s*(?!(?:the|a|an|each|every|any|all|such|those|these|that|this|it|they|no|where|if|when|in|for|by|on|at|with|without|without prejudice|unless|subject)\b)[a-z]/u;

/** Rules 14: whether a point completes a lead-in that ends at its modal, as a verb phrase. */
function completesBareModal(x: Extraction, u: Unit): boolean {
  if (x.rules < 14 || !isPoint(u) || !VERB_POINT_14.test(u.own_text)) return false;
  const p = u.parent ? x.byNode.get(u.parent) : undefined;
  if (!p) return false;
  let bare = x.bareModal.get(p.node);
  if (bare === undefined) {
    const last = sentences(p.own_text, x.rules).at(-1);
    bare = last !== undefined && BARE_MODAL_LEAD_IN_14.test(last.text);
    x.bareModal.set(p.node, bare);
  }
  return bare;
}

/** Rules 6: the duty of the lead-in a point completes, when the point's parent ends with one. */
function leadInDuty(x: Extraction, c: Unit): Duty | null {
  const p = c.parent ? x.byNode.get(c.parent) : undefined;
  if (!p || !DUTY_KINDS.has(p.kind)) return null;
  const last = sentences(p.own_text, x.rules).at(-1);
  if (!last || !/:\s*$/u.test(last.text)) return null;
  return dutiesIn(last, x.rules)[0] ?? null;
}

/**
 * Whether what a document in this unit contains is a duty: always under rules 9, which read "The
 * technical documentation shall contain: (a) …" as a duty of whoever draws it up, as readers of the
 * text do; under rules 6 to 8 only in an act or part whose documents are one party's (scope.yaml
 * `holder`).
 */
const contentsAreDuties = (x: Extraction, u: Unit) => x.rules >= 9 || ownsDocuments(x.ownDocuments, u);

/**
 * Whether a unit sits in an act or a part whose documents are one party's (scope.yaml `holder`): the
 * act's id or the node of the unit or of one of its ancestors, read from its eId.
 */
function ownsDocuments(own: ReadonlySet<string>, u: Unit): boolean {
  if (own.has(u.act)) return true;
  for (let n = u.node; ; n = n.slice(0, n.lastIndexOf("__"))) {
    if (own.has(n)) return true;
    if (!n.includes("__")) return false;
  }
}

/**
 * A lead-in's duty, completed by the points under it: each point without a duty of its own is an
 * atom with the lead-in's actor and modality, anchored at the point.
 */
function addPoints(x: Extraction, u: Unit, s: Sentence, d: Duty, points: Completion[]): void {
  const rules = x.rules;
  // Rules 6: "The notification shall at least: (a) describe …": points saying what a document states.
  const bareDocument =
    rules >= 6 &&
    !contentsAreDuties(x, u) &&
    isBareLeadIn(d.action) &&
    namesDocument(PRONOUN.test(d.actor) ? (x.lastActor.get(articleOf(u)) ?? "") : d.actor);
  for (const p of points) {
    const text = p.unit.own_text.slice(p.start, p.end);
    if (text === "") continue;
    const ownDuty =
      !completesBareModal(x, p.unit) && sentences(text, rules).some((cs) => dutiesIn(cs, rules).length > 0);
    if (ownDuty) continue; // the point states its own duty
    if (bareDocument && saysContents(text)) continue;
    const action = `${d.action} ${text}`.trim();
    if (completesNoDuty(action, rules)) continue;
    // Rules 3: "The provider shall: … (b) not use …" forbids.
    const modality =
      rules >= 3 && d.modality === "obligation" && /^\s*not\s/iu.test(text) ? "prohibition" : d.modality;
    const actor = pointHolder(text, d, rules) ?? d.actor;
    addAtom(x, p.unit, { modality, actor, action }, p.start, p.end, { unit: u, sentence: s.text });
    if (rules >= 10) addSubPoints(x, p, text, { ...d, modality, actor, action });
  }
}

/**
 * Rules 10: a point that completes a lead-in and is a lead-in itself ("A non-qualified trust service
 * provider … shall: (a) have appropriate policies … which shall … include at least measures relating
 * to: (i) registration and onboarding procedures …", eIDAS Art 19a(1)) is completed by its own points
 * in turn, with the same duty; not when it lists the duty's exceptions or conditions.
 */
function addSubPoints(x: Extraction, p: Completion, text: string, d: Duty): void {
  if (p.start !== 0 || !/:\s*$/u.test(text) || listsNoDuties(text, x.rules)) return;
  const subPoints = (x.children.get(p.unit.node) ?? [])
    .filter(isPoint)
    .map((c) => ({ unit: c, start: 0, end: c.own_text.length }));
  if (subPoints.length > 0) addPoints(x, p.unit, { text, start: 0 }, d, subPoints);
}

/** What completes a lead-in: a point unit, or an item of the lead-in's own unit (an annex's list). */
interface Completion {
  unit: Unit;
  start: number;
  end: number;
}

/**
 * Rules 6: "The information … shall be disclosed in the following manner: (k) for AIFMs of ELTIFs, in
 * the prospectus …": a point naming a party under a document's passive lead-in names its holder.
 */
function pointHolder(point: string, d: Duty, rules: number): string | null {
  if (!(rules >= 6 && d.agentless && namesDocument(d.actor))) return null;
  const named =
    /^\s*for\s+((?!(?:the )?(?:purposes?|example|instance|information|each|that|this|those|these|all|any|which|whom|the following)\b)[^,;:()]{3,120}?),/iu.exec(
      point,
    );
  return named ? (named[1] as string).trim() : null;
}

/** The atom a duty states at `start`..`end` of a unit's own text: numbered in its unit, actor resolved. */
function addAtom(
  x: Extraction,
  u: Unit,
  d: Omit<Duty, "start" | "end">,
  start: number,
  end: number,
  leadIn: LeadIn | null,
): void {
  const quoted = u.own_text.slice(start, end);
  // Rules 2: the same words in the same unit state one duty (tables of annexes repeat their rules).
  if (x.rules >= 2) {
    const said = `${u.node} ${fingerprint(quoted)}`;
    if (x.stated.has(said)) return;
    x.stated.add(said);
  }
  const n = (x.counters.get(u.node) ?? 0) + 1;
  x.counters.set(u.node, n);
  const actor = resolveActor(x, u, d.actor, d.action);
  const { first, all } = constantsOf(u, quoted, leadIn, x.rules);
  x.atoms.push({
    key: `${u.node}#${n}`,
    node: u.node,
    act: u.act,
    unit_eid: u.eid,
    modality: d.modality,
    actor,
    action: d.action,
    quoted_text: quoted,
    char_start: start,
    char_end: end,
    lead_in: leadIn ? leadIn.unit.node : null,
    effective: u.valid_from,
    expires: u.valid_to,
    executable_name: first?.name ?? null,
    executable_unit: first?.unit ?? null,
    executable_value: first?.value ?? null,
    constants: all,
    fingerprint: fingerprint(quoted),
  });
}

/** The constants a duty states; a point completing a lead-in inherits the quantities the lead-in states ("fines up to EUR …:"). */
function constantsOf(
  u: Unit,
  quoted: string,
  leadIn: LeadIn | null,
  rules: number,
): { first: Constant | null; all: Constant[] } {
  const own = constantsIn(u.act, u.eid, quoted, rules);
  if (own.first || !leadIn) return own;
  const inherited = constantsIn(leadIn.unit.act, leadIn.unit.eid, leadIn.sentence, rules);
  return { first: inherited.first, all: [...own.all, ...inherited.all] };
}
