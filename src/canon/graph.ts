/**
 * The citation graph of a corpus: containment, cross-references inside an act resolved to eIds,
 * references to other acts of the corpus resolved to work IRIs (and to eIds where the reference names
 * an article), definition uses, and amendment and repeal statements.
 */
import type { Act, Corpus, Unit } from "./model.ts";

export type EdgeKind = "contains" | "refers_to" | "refers_to_act" | "uses_definition" | "amends" | "repeals";

export interface Edge {
  from: string;
  kind: EdgeKind;
  /** A node of the corpus, or a work IRI for a reference to a whole act. */
  to: string;
  /** The words of the text the edge was read from (not for containment). */
  text?: string;
}

export interface UnresolvedRef {
  from: string;
  text: string;
  reason: string;
}

export interface Graph {
  edges: Edge[];
  unresolved: UnresolvedRef[];
  counts: Record<string, number>;
  /** Internal and corpus-act references that did not resolve, over all such references. */
  unresolved_share: number;
}

const ACT_REF =
  /\b(Regulation|Directive|Decision)\s+(?:\((EU|EC|EEC|Euratom)\)\s+)?(?:No\s+)?(\d{1,4}\/\d{1,4}(?:\/(?:EU|EC|EEC))?)/gu;
/** What follows an article reference when it names another act: "…, point (a), of Regulation (EU) 2022/2554". */
const OTHER_ACT_AFTER =
  /^(?:,?\s*(?:(?:first|second|third|fourth|fifth) subparagraph|points?\s*\(\w{1,4}\)(?:(?:,|\s+and|\s+or|\s+to)\s*\(\w{1,4}\))*))*,?\s*(?:of|in|under) (?:Regulation|Directive|Decision|that Regulation|that Directive|the Treaty|the Charter|TFEU|TEU)|^\s*(?:TFEU|TEU)\b/u;
/^(?:,?\s*(?:first|second|third|fourth) subparagraph,?)?\s*(?:of|in|under) (?:Regulation|Directive|Decision|that Regulation|that Directive|the Treaty|the Charter|TFEU|TEU)|^\s*(?:TFEU|TEU)\b/u;
const ARTICLE_REF =
  /\bArticles?\s+(\d{1,3}[a-z]?)((?:\(\w{1,4}\))*)((?:\s*(?:,|and|or|to)\s*(?:\d{1,3}[a-z]?)(?:\(\w{1,4}\))*)*)/gu;
const POINT_OF_ARTICLE = /\bpoint\s+\((\w{1,4})\)\s+of\s+Article\s+(\d{1,3}[a-z]?)((?:\(\w{1,4}\))*)/gu;
const PARAGRAPH_REF = /\bparagraphs?\s+(\d{1,2}[a-z]?)((?:\s*(?:,|and|or|to)\s*\d{1,2}[a-z]?)*)(?!\s+of\b)/gu;
const ANNEX_REF = /\bAnnex\s+([IVXL]+)\b(?!\s+(?:to|of)\s+(?:Regulation|Directive))/gu;

export function buildGraph(corpus: Corpus): Graph {
  const edges: Edge[] = [];
  const byAct = new Map<string, Map<string, Unit>>();
  for (const u of corpus.units) {
    const m = byAct.get(u.act) ?? new Map<string, Unit>();
    byAct.set(u.act, m);
    m.set(u.eid, u);
    if (u.parent) edges.push({ from: u.parent, kind: "contains", to: u.node });
  }
  const actsByNumber = new Map<string, Act>();
  for (const a of corpus.acts) actsByNumber.set(normaliseNumber(a.number), a);
  const g: GraphBuild = {
    byAct,
    actsByNumber,
    definitions: definitionsByAct(corpus.units),
    names: actNames(corpus.acts),
    amending: amendingArticles(corpus.units),
    edges,
    unresolved: [],
    attempted: 0,
  };
  for (const u of corpus.units) {
    if (u.own_text === "") continue;
    readUnit(g, u);
  }
  const counts: Record<string, number> = {};
  for (const e of edges) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  const sortedCounts = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    edges,
    unresolved: g.unresolved,
    counts: sortedCounts,
    unresolved_share: g.attempted === 0 ? 0 : Math.round((g.unresolved.length / g.attempted) * 10000) / 10000,
  };
}

/** The corpus the graph is read from, and the edges and misses read so far. */
interface GraphBuild {
  /** Each act's units by eId. */
  byAct: Map<string, Map<string, Unit>>;
  actsByNumber: Map<string, Act>;
  definitions: Map<string, { term: string; node: string }[]>;
  names: ReturnType<typeof actNames>;
  amending: Set<string>;
  edges: Edge[];
  unresolved: UnresolvedRef[];
  /** Internal and corpus-act references tried: the denominator of the unresolved share. */
  attempted: number;
}

/** One unit's text being read: its act's units, and how an edge or a miss is recorded from it. */
interface Reading {
  g: GraphBuild;
  u: Unit;
  text: string;
  units: Map<string, Unit>;
  /** An edge from the unit, once per kind and target, never to itself. */
  add: (kind: EdgeKind, to: string, words: string) => void;
  miss: (words: string, reason: string) => void;
}

/** The edges from one unit, in the order its references are read. */
function readUnit(g: GraphBuild, u: Unit): void {
  const seen = new Set<string>();
  const r: Reading = {
    g,
    u,
    text: u.own_text,
    units: g.byAct.get(u.act) as Map<string, Unit>,
    add: (kind, to, words) => {
      const key = `${kind} ${to}`;
      if (seen.has(key) || to === u.node) return;
      seen.add(key);
      g.edges.push({ from: u.node, kind, to, text: words });
    },
    miss: (words, reason) => g.unresolved.push({ from: u.node, text: words, reason }),
  };
  actReferences(r);
  // Inside an article that amends another act, "Article 19a" and "paragraph 1" name provisions of
  // the amended act; the act itself is reached through refers_to_act and amends above.
  if (g.amending.has(articleOf(u))) return;
  articleReferences(r);
  provisionReferences(r);
  definitionUses(r);
}

/** References to other acts, and statements amending or repealing them. */
function actReferences({ g, u, text, add }: Reading): void {
  for (const m of text.matchAll(ACT_REF)) {
    const target = g.actsByNumber.get(normaliseNumber(m[3] as string));
    if (!target || target.id === u.act) continue;
    g.attempted++;
    add("refers_to_act", target.work_iri, m[0]);
    const after = text.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 60);
    if (/^\s*is (?:hereby )?amended\b|^\s*shall be amended\b/u.test(after))
      add("amends", target.work_iri, m[0]);
    if (/^\s*(?:is|are) (?:hereby )?repealed\b|^\s*shall be repealed\b/u.test(after))
      add("repeals", target.work_iri, m[0]);
  }
  // "the GDPR", "the Digital Operational Resilience Act": acts named rather than numbered.
  if (g.names) {
    for (const m of text.matchAll(g.names.pattern)) {
      const target = g.names.byName.get((m[1] as string).toLowerCase());
      if (!target || target.id === u.act) continue;
      g.attempted++;
      add("refers_to_act", target.work_iri, m[1] as string);
    }
  }
}

/** "Article 6(1)(f)", "Articles 12 to 22", "Article 33 of Regulation (EU) 2016/679". */
function articleReferences({ g, u, text, units, add, miss }: Reading): void {
  for (const m of text.matchAll(ARTICLE_REF)) {
    const end = (m.index ?? 0) + m[0].length;
    const after = text.slice(end, end + 80);
    const external = OTHER_ACT_AFTER.exec(after);
    let targetUnits = units;
    let targetAct = u.act;
    if (external) {
      const actRef =
        /^[^.;]*?\b(?:Regulation|Directive|Decision)\s+(?:\((?:EU|EC|EEC)\)\s+)?(?:No\s+)?(\d{1,4}\/\d{1,4}(?:\/(?:EU|EC|EEC))?)/u.exec(
          after,
        );
      const target = actRef ? g.actsByNumber.get(normaliseNumber(actRef[1] as string)) : undefined;
      if (!target) continue; // an act outside the corpus, or a treaty
      targetUnits = g.byAct.get(target.id) as Map<string, Unit>;
      targetAct = target.id;
    }
    for (const eid of articleRefEids(m[1] as string, m[2] as string, m[3] as string)) {
      g.attempted++;
      const hit = deepest(targetUnits, eid);
      if (hit) add("refers_to", hit.node, m[0].trim());
      else miss(m[0].trim(), `${targetAct}: no ${eid}`);
    }
  }
}

/** "point (a) of Article 6", "paragraph 1" and "Annex II" in the unit's own act. */
function provisionReferences({ g, u, text, units, add, miss }: Reading): void {
  for (const m of text.matchAll(POINT_OF_ARTICLE)) {
    if (OTHER_ACT_AFTER.test(text.slice((m.index ?? 0) + m[0].length))) continue;
    g.attempted++;
    const eid = `art_${m[2]}${subSegments(m[3] as string)}__point_${m[1]}`;
    const hit = deepest(units, eid);
    if (hit) add("refers_to", hit.node, m[0]);
    else miss(m[0], `${u.act}: no ${eid}`);
  }
  // "paragraph 1" inside an article refers to that article's paragraph.
  const article = u.eid.startsWith("art_") ? (u.eid.split("__")[0] as string) : null;
  if (article) {
    for (const m of text.matchAll(PARAGRAPH_REF)) {
      for (const num of expandList(m[1] as string, m[2] as string)) {
        g.attempted++;
        const hit = units.get(`${article}__para_${num}`);
        if (hit) add("refers_to", hit.node, m[0].trim());
        else miss(m[0].trim(), `${u.act}: no ${article}__para_${num}`);
      }
    }
  }
  for (const m of text.matchAll(ANNEX_REF)) {
    if (OTHER_ACT_AFTER.test(text.slice((m.index ?? 0) + m[0].length))) continue;
    g.attempted++;
    const hit = units.get(`anx_${m[1]}`);
    if (hit) add("refers_to", hit.node, m[0]);
    else miss(m[0], `${u.act}: no anx_${m[1]}`);
  }
}

/** A unit uses a term its act defines. */
function definitionUses({ g, u, text, add }: Reading): void {
  const lower = text.toLowerCase();
  for (const def of g.definitions.get(u.act) ?? []) {
    if (def.node !== u.node && containsTerm(lower, def.term)) add("uses_definition", def.node, def.term);
  }
}

/** Articles headed "Amendment(s) to …" or "Amendments of …": their references point into another act. */
function amendingArticles(units: Unit[]): Set<string> {
  const out = new Set<string>();
  for (const u of units) {
    if (u.kind === "article" && /^Amendments? (?:to|of)\b/iu.test(u.heading ?? "")) out.add(u.node);
  }
  return out;
}

function articleOf(u: Unit): string {
  return `${u.act}/${u.eid.split("__")[0]}`;
}

/** Names an act goes by (short name and aliases), longest first so "NIS2 Directive" wins over "NIS2". */
function actNames(acts: Act[]): { pattern: RegExp; byName: Map<string, Act> } | null {
  const byName = new Map<string, Act>();
  for (const a of acts) {
    for (const n of [a.short_name, ...a.aliases]) {
      // Numbers are matched by ACT_REF; very short names ("AIA") would match ordinary words.
      if (n.length >= 4 && !/\d{4}\/\d/u.test(n)) byName.set(n.toLowerCase(), a);
    }
  }
  if (byName.size === 0) return null;
  const alternatives = [...byName.keys()]
    .sort((x, y) => y.length - x.length || (x < y ? -1 : 1))
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&"));
  return {
    pattern: new RegExp(`(?<![\\p{L}\\p{N}])(${alternatives.join("|")})(?![\\p{L}\\p{N}])`, "giu"),
    byName,
  };
}

function normaliseNumber(n: string): string {
  return n
    .replace(/\/(EU|EC|EEC)$/u, "")
    .replace(/^No\s+/u, "")
    .trim();
}

/** "6", "(1)(f)", ", 7 and 9" -> art_6__para_1__point_f, art_7, art_9; "12", "", " to 22" -> art_12 … art_22. */
function articleRefEids(first: string, subs: string, rest: string): string[] {
  const out = [`art_${first}${subSegments(subs)}`];
  const range = /^\s*to\s*(\d{1,3})/u.exec(rest);
  if (range && /^\d+$/u.test(first)) {
    const to = Number(range[1]);
    for (let n = Number(first) + 1; n <= to && n - Number(first) <= 60; n++) out.push(`art_${n}`);
    return out;
  }
  for (const m of rest.matchAll(/(?:,|and|or)\s*(\d{1,3}[a-z]?)((?:\(\w{1,4}\))*)/gu)) {
    out.push(`art_${m[1]}${subSegments(m[2] as string)}`);
  }
  return out;
}

/** "(1)(f)(ii)" -> "__para_1__point_f__point_ii". */
function subSegments(subs: string): string {
  const parts = [...subs.matchAll(/\((\w{1,4})\)/gu)].map((m) => m[1] as string);
  return parts.map((p, i) => (i === 0 && /^\d/u.test(p) ? `__para_${p}` : `__point_${p}`)).join("");
}

function expandList(first: string, rest: string): string[] {
  const out = [first];
  const range = /^\s*to\s*(\d{1,2})/u.exec(rest);
  if (range) {
    for (let n = Number.parseInt(first, 10) + 1; n <= Number(range[1]); n++) out.push(String(n));
    return out;
  }
  for (const m of rest.matchAll(/(\d{1,2}[a-z]?)/gu)) out.push(m[1] as string);
  return out;
}

/**
 * The unit an eId names, or failing that its deepest existing ancestor when the missing part is a
 * point of a paragraph written as a subparagraph in the source ("Article 4(7)" is art_4__point_7).
 */
function deepest(units: Map<string, Unit>, eid: string): Unit | undefined {
  const exact = units.get(eid);
  if (exact) return exact;
  const pointOfArticle = eid.replace(/^(art_\w+)__para_(\d+\w?)$/u, "$1__point_$2");
  return units.get(pointOfArticle);
}

function definitionsByAct(units: Unit[]): Map<string, { term: string; node: string }[]> {
  const out = new Map<string, { term: string; node: string }[]>();
  for (const u of units) {
    if (!u.defines) continue;
    const list = out.get(u.act) ?? [];
    list.push({ term: u.defines.toLowerCase(), node: u.node });
    out.set(u.act, list);
  }
  return out;
}

function containsTerm(lowerText: string, term: string): boolean {
  let i = lowerText.indexOf(term);
  while (i >= 0) {
    const before = lowerText[i - 1];
    const after = lowerText[i + term.length];
    if (
      (before === undefined || !/[\p{L}\p{N}]/u.test(before)) &&
      (after === undefined || !/[\p{L}\p{N}]/u.test(after))
    )
      return true;
    i = lowerText.indexOf(term, i + 1);
  }
  return false;
}
