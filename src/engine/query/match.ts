/**
 * Matching: which units answer a question, in order. Cited provisions first, in the order written; then,
 * for a definition question, the points defining the term asked about; then the ranked units of the
 * chunk index for the question's remaining words (act names and references blanked out, since they
 * were read already). Mode `exact` stops after the cited provisions; `lexical` ranks the words as
 * written (no phrases, synonyms, roll-up or diversity), for a user who wants plain BM25.
 */
import type { Unit } from "../../canon/model.ts";
import { tokenize } from "../../search/analyser.ts";
import type { Scored } from "../../search/chunk-index.ts";
import { lowerBound } from "../../search/sorted.ts";
import { type Engine, rollUp } from "../context.ts";
import type { QuestionScope } from "../scope.ts";
import { actGates } from "./act-gates.ts";
import { readReferences } from "./citations.ts";
import { askedTerm } from "./definitions.ts";
import { rank } from "./rank.ts";
import { type Cited, resolveReferences } from "./resolve.ts";
import { unknownReason } from "./unknown-words.ts";

export type Mode = "auto" | "lexical" | "exact";

/** Unless the question asks about recitals, a recital's score counts at this share of an article's. */
const RECITAL_WEIGHT = 0.6;

export interface Admission {
  act: Uint8Array;
  unit: ((node: string) => boolean) | null;
}

export interface Matching {
  units: Unit[];
  considered: number;
  admitted: number;
  notes: string[];
}

/** One matching under way: the question, what the request admits, and the units taken so far. */
interface Matcher {
  e: Engine;
  scope: QuestionScope;
  query: string;
  mode: Mode;
  admit: Admission;
  requested: number;
  units: Unit[];
  taken: Set<string>;
  notes: string[];
}

export function match(
  e: Engine,
  scope: QuestionScope,
  query: string,
  mode: Mode,
  requested: number,
  admit: Admission,
): Matching {
  const actAdmitted = (act: string) => admit.act[e.actOrder.indexOf(act)] === 1;
  const unitAdmitted = (u: Unit) => actAdmitted(u.act) && (!admit.unit || admit.unit(u.node));
  const m: Matcher = {
    e,
    scope,
    query,
    mode,
    admit,
    requested,
    units: [],
    taken: new Set<string>(),
    notes: [],
  };
  const { units, notes } = m;

  const refs = mode === "lexical" ? [] : readReferences(query);
  let rest = unreadText(scope, refs);
  // A question that is an act's name and nothing more ("DORA register of information templates"): its
  // words still say what it is about, within the act it names.
  if (mode === "auto" && refs.length === 0 && scope.acts.length > 0 && tokenize(rest).length === 0)
    rest = query;
  // Scored only when something needs it: `exact` needs it only to order a provision cited without its act.
  let scoring: Scored | null = null;
  const scored = (): Scored => {
    scoring ??= e.release.index.score(
      e.release.index.analyser.terms(rest, { plain: mode === "lexical" }),
      mode === "lexical" ? [] : [e.provisionLevel, e.actLevel],
    );
    return scoring;
  };

  const cited = resolveReferences(e, refs, scope.mentions, query, actAdmitted);
  let considered = cited.length;
  // A provision cited without its act: every act that has it, those the rest of the question fits first.
  const fit = (u: Unit) => scoreOf(scored(), e.docOf.get(u.node) ?? -1);
  let admitted = takeCited(m, cited, fit, unitAdmitted);
  if (mode === "exact") return { units, considered, admitted, notes };

  if (mode === "auto") {
    const term = askedTerm(query);
    if (term) for (const u of e.definitions.defining(term, fit)) if (unitAdmitted(u)) take(m, u);
    // Nothing cited, named or defined, and most words foreign to the release: say no rather than rank.
    if (units.length === 0 && refs.length === 0 && scope.acts.length === 0) {
      const reason = unknownReason(e.release.index, rest, `${e.regime}@${e.tag}`);
      if (reason) return { units, considered, admitted, notes: [...notes, reason] };
    }
  }

  const all = scored();
  considered += all.docs.length;
  admitted += takeRanked(m, all, cited, rest);
  // Named acts and no word to rank them by ("GDPR?"): their provisions in order, subject matter first.
  if (units.length === 0 && refs.length === 0 && mode === "auto") takeArticlesOfNamedActs(m, unitAdmitted);
  return { units, considered, admitted, notes };
}

/** Takes a unit into the match, unless the match is full or has it already. */
function take(m: Matcher, u: Unit): void {
  if (m.units.length < m.requested && !m.taken.has(u.node)) {
    m.taken.add(u.node);
    m.units.push(u);
  }
}

/**
 * The cited provisions the request admits: those cited with their act in the order written, then those
 * cited without it in order of fit, each noted when the provision cited does not exist and the nearest
 * one stands in. Returns how many were admitted.
 */
function takeCited(
  m: Matcher,
  cited: Cited[],
  fit: (u: Unit) => number,
  unitAdmitted: (u: Unit) => boolean,
): number {
  const { e } = m;
  let admitted = 0;
  const named = cited.filter((c) => !c.ambiguous);
  const open = cited.filter((c) => c.ambiguous).sort((a, b) => fit(b.unit) - fit(a.unit));
  for (const c of [...named, ...open]) {
    if (!unitAdmitted(c.unit)) continue;
    admitted++;
    if (c.unresolved)
      m.notes.push(
        `${c.unresolved} is not a provision of ${e.actsById.get(c.unit.act)?.short_name ?? c.unit.act} in ${e.regime}@${e.tag}; the nearest that exists is ${c.unit.citation}.`,
      );
    take(m, c.unit);
  }
  return admitted;
}

/**
 * The ranked units of the chunk index for the question's remaining words, after the units already taken.
 * Returns how many scored units the request admitted.
 */
function takeRanked(m: Matcher, all: Scored, cited: Cited[], rest: string): number {
  const { e, scope, query, mode, admit, units } = m;
  const docs = e.release.index.file.docs;
  const passes = (doc: number) =>
    admit.act[e.docAct[doc] as number] === 1 && (!admit.unit || admit.unit(docs[doc] as string));
  const groupsOf = (us: Unit[]) =>
    new Set(us.map((u) => e.groupOf.get(rollUp(e.release.byNode, u.node)) ?? -1).filter((g) => g >= 0));
  const citedGroups = groupsOf(cited.map((c) => c.unit));
  const ranked = rank(e, all, {
    requested: m.requested - units.length,
    admit: passes,
    taken: m.taken,
    takenGroups: groupsOf(units),
    recitalWeight: /\brecitals?\b/iu.test(query) ? 1 : RECITAL_WEIGHT,
    spread: scope.acts.length > 1,
    focus: citedGroups.size === 1 ? ([...citedGroups][0] as number) : null,
    rollUp: mode !== "lexical",
    groupScore: all.levels[0] ?? null,
    actScore: all.levels[1] ?? null,
    actGate: mode === "lexical" || scope.acts.length > 0 ? null : actWeights(e, query, rest),
  });
  for (const doc of ranked.docs) take(m, e.release.byNode.get(docs[doc] as string) as Unit);
  return ranked.admitted;
}

/** The articles of the acts the question names, in corpus order (an act's subject matter first). */
function takeArticlesOfNamedActs(m: Matcher, unitAdmitted: (u: Unit) => boolean): void {
  for (const top of m.e.groups) {
    const u = m.e.release.byNode.get(top) as Unit;
    if (m.scope.acts.includes(u.act) && u.kind === "article" && unitAdmitted(u)) take(m, u);
  }
}

/** The question's words left once the instruments it names and the provisions it cites are read. */
export function unreadText(scope: QuestionScope, refs: readonly { start: number; end: number }[]): string {
  let rest = scope.rest;
  for (const r of refs) rest = rest.slice(0, r.start) + " ".repeat(r.end - r.start) + rest.slice(r.end);
  return rest;
}

/** Per act, the share its provisions count at for an unnamed question: the domain gates times the router. */
function actWeights(e: Engine, query: string, rest: string): Float64Array | null {
  const gates = actGates(e, query);
  const routed =
    e.router?.weights(e.release.index.analyser.terms(rest, { plain: true }).map(([t]) => t)) ?? null;
  if (!routed) return gates;
  if (gates) for (let a = 0; a < routed.length; a++) routed[a] = (routed[a] as number) * (gates[a] as number);
  return routed;
}

/** A doc's score in a scoring (its docs are in ascending order), 0 when the query did not touch it. */
function scoreOf(scored: Scored, doc: number): number {
  const at = lowerBound(scored.docs, doc);
  return scored.docs[at] === doc ? (scored.scores[at] as number) : 0;
}
