/**
 * A release ready for queries: the loaded release plus the indexes every operation needs, built once
 * at load. Everything here is read-only after construction.
 */
import type { Act, Unit } from "../canon/model.ts";
import type { ReleasedAtom } from "../obligations/release-atoms.ts";
import type { LoadedRelease } from "../release/load.ts";
import { Level } from "../search/chunk-index.ts";
import { ActRouter } from "./query/act-router.ts";
import { Definitions } from "./query/definitions.ts";

export interface Stamps {
  verification: Record<string, unknown>;
  disclaimer: { release: string; text: string };
}

export interface Engine {
  release: LoadedRelease;
  tag: string;
  regime: string;
  stamps: Stamps;
  actsById: Map<string, Act>;
  /** A basic act -> the delegated and implementing acts of the release that supplement or apply it. */
  subordinateActs: Map<string, string[]>;
  /** Per act (release order), the act whose lane it shares when named acts alternate: its basic act, or itself. */
  actLane: Int32Array;
  children: Map<string, Unit[]>;
  unitsByEid: Map<string, Unit[]>;
  /** A former eId (before a parsing repair renamed the unit) -> the units that had it. */
  unitsByAlias: Map<string, Unit[]>;
  atomsById: Map<string, ReleasedAtom>;
  atomsByNode: Map<string, ReleasedAtom[]>;
  /** The graph's amendment and repeal edges (few; scanned per match). */
  amendments: LoadedRelease["edges"];
  /** unit node -> the definition units its own text uses (the graph's uses_definition edges). */
  usesDefinition: Map<string, string[]>;
  firstInForce: string;
  lastInForce: string | null;
  /** Act ids in release order, and for each indexed doc the position of its act there. */
  actOrder: string[];
  docAct: Int32Array;
  /** For each indexed doc, the provision it rolls up to (its article, recital or annex) as an index
   * into `groups`; ranking is decided per provision and diversified across them. */
  docGroup: Int32Array;
  groups: string[];
  groupOf: Map<string, number>;
  /** Indexed node -> its doc number in the chunk index. */
  docOf: Map<string, number>;
  /** 1 where the doc is a recital (explains the law, does not state it). */
  docRecital: Uint8Array;
  definitions: Definitions;
  /** BM25 levels above the unit: each provision as one text, each act as one text. */
  provisionLevel: Level;
  actLevel: Level;
  /** Which act an unnamed question is about, when the release has a router (older releases do not). */
  router: ActRouter | null;
}

/**
 * Delegated and implementing acts, by the basic act their title says they supplement or apply
 * ("… supplementing Regulation (EU) 2022/2554 …", "… for the application of Regulation (EU) 2022/2554 …").
 */
function subordinates(acts: Act[]): Map<string, string[]> {
  const byNumber = new Map(acts.map((a) => [a.number, a.id]));
  const out = new Map<string, string[]>();
  for (const a of acts) {
    if (a.type !== "reg_del" && a.type !== "reg_impl") continue;
    for (const m of a.title.matchAll(
      /\b(?:Regulation|Directive) \((?:EU|EC)\) (?:No )?(\d{2,4}\/\d{1,4})/gu,
    )) {
      const parent = byNumber.get(m[1] as string);
      if (!parent || parent === a.id) continue;
      out.set(parent, [...(out.get(parent) ?? []), a.id]);
      break;
    }
  }
  return out;
}

/** The units a match rolls up to: what a lawyer cites as one provision (a unit outside one is its own). */
const GROUP_KINDS = new Set(["article", "recital", "annex"]);

export function rollUp(byNode: Map<string, Unit>, node: string): string {
  for (let u = byNode.get(node); u; u = u.parent ? byNode.get(u.parent) : undefined)
    if (GROUP_KINDS.has(u.kind)) return u.node;
  return node;
}

export function createEngine(release: LoadedRelease, stamps: Stamps): Engine {
  const { children, unitsByEid, unitsByAlias, first, last } = unitIndexes(release.units);
  const usesDefinition = new Map<string, string[]>();
  for (const edge of release.edges) {
    if (edge.kind === "uses_definition")
      usesDefinition.set(edge.from, [...(usesDefinition.get(edge.from) ?? []), edge.to]);
  }
  const actOrder = release.acts.map((a) => a.id);
  const actPos = new Map(actOrder.map((id, i) => [id, i]));
  const subordinateActs = subordinates(release.acts);
  const actLane = actLanes(actOrder, actPos, subordinateActs);
  const docs = release.index.file.docs;
  const { docAct, groups, groupOf, docGroup, docRecital } = docIndexes(release, actPos);
  const { groupLengths, actLengths } = levelLengths(
    release.index.file.lengths,
    docAct,
    docGroup,
    groups.length,
    actOrder.length,
  );
  const atomsByNode = new Map<string, ReleasedAtom[]>();
  for (const a of release.atoms) atomsByNode.set(a.node, [...(atomsByNode.get(a.node) ?? []), a]);
  return {
    release,
    tag: release.meta.tag,
    regime: release.meta.regime,
    stamps,
    actsById: new Map(release.acts.map((a) => [a.id, a])),
    subordinateActs,
    actLane,
    children,
    unitsByEid,
    unitsByAlias,
    atomsById: new Map(release.atoms.map((a) => [a.id, a])),
    atomsByNode,
    amendments: release.edges.filter((x) => x.kind === "amends" || x.kind === "repeals"),
    usesDefinition,
    firstInForce: first,
    lastInForce: last,
    actOrder,
    docAct,
    docGroup,
    groups,
    groupOf,
    docOf: new Map(docs.map((d, i) => [d, i])),
    docRecital,
    definitions: new Definitions(release.units),
    provisionLevel: new Level(docGroup, groupLengths),
    actLevel: new Level(docAct, actLengths),
    router: release.index.file.router
      ? new ActRouter(release.index.file.router, release.index, actOrder, docAct)
      : null,
  };
}

/**
 * Units by parent, by eId and by former eId; and the first day any unit is in force and the last (null
 * when some unit has no end).
 */
function unitIndexes(units: Unit[]) {
  const children = new Map<string, Unit[]>();
  const unitsByEid = new Map<string, Unit[]>();
  const unitsByAlias = new Map<string, Unit[]>();
  let first = "9999-12-31";
  let last: string | null = "0000-01-01";
  // Appended in place: copying each list on every append made start-up quadratic in a parent's children.
  const add = (m: Map<string, Unit[]>, k: string, u: Unit) => {
    const list = m.get(k);
    if (list) list.push(u);
    else m.set(k, [u]);
  };
  for (const u of units) {
    if (u.parent) add(children, u.parent, u);
    add(unitsByEid, u.eid, u);
    for (const a of u.aliases ?? []) add(unitsByAlias, a, u);
    if (u.valid_from < first) first = u.valid_from;
    if (last !== null) last = u.valid_to === null ? null : u.valid_to > last ? u.valid_to : last;
  }
  return { children, unitsByEid, unitsByAlias, first, last };
}

/** Per act (release order), its lane when named acts alternate: a subordinate act shares its basic act's. */
function actLanes(
  actOrder: string[],
  actPos: Map<string, number>,
  subordinateActs: Map<string, string[]>,
): Int32Array {
  const actLane = Int32Array.from(actOrder, (_, i) => i);
  for (const [parent, children] of subordinateActs)
    for (const c of children) actLane[actPos.get(c) as number] = actPos.get(parent) as number;
  return actLane;
}

/**
 * Per indexed doc: the position of its act (-1: none), and the provision it rolls up to, numbered in
 * order of first appearance, and whether that provision is a recital.
 */
function docIndexes(release: LoadedRelease, actPos: Map<string, number>) {
  const docs = release.index.file.docs;
  const docAct = new Int32Array(docs.length);
  for (let i = 0; i < docs.length; i++)
    docAct[i] = actPos.get((docs[i] as string).slice(0, (docs[i] as string).indexOf("/"))) ?? -1;
  const groups: string[] = [];
  const groupOf = new Map<string, number>();
  const docGroup = new Int32Array(docs.length);
  const docRecital = new Uint8Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const top = rollUp(release.byNode, docs[i] as string);
    let g = groupOf.get(top);
    if (g === undefined) {
      g = groups.length;
      groups.push(top);
      groupOf.set(top, g);
    }
    docGroup[i] = g;
    docRecital[i] = release.byNode.get(top)?.kind === "recital" ? 1 : 0;
  }
  return { docAct, groups, groupOf, docGroup, docRecital };
}

/** The lengths of the BM25 levels above the unit: each provision's and each act's, its docs' summed. */
function levelLengths(
  lengths: number[],
  docAct: Int32Array,
  docGroup: Int32Array,
  groupCount: number,
  actCount: number,
) {
  const groupLengths = new Float64Array(groupCount);
  const actLengths = new Float64Array(actCount);
  for (let i = 0; i < docAct.length; i++) {
    const g = docGroup[i] as number;
    const a = docAct[i] as number;
    groupLengths[g] = (groupLengths[g] as number) + (lengths[i] as number);
    if (a >= 0) actLengths[a] = (actLengths[a] as number) + (lengths[i] as number);
  }
  return { groupLengths, actLengths };
}

export function inForce(u: Pick<Unit, "valid_from" | "valid_to">, date: string): boolean {
  return u.valid_from <= date && (u.valid_to === null || date < u.valid_to);
}

/** The unit and every unit below it. */
export function subtree(e: Engine, node: string): Unit[] {
  const out: Unit[] = [];
  const walk = (n: string) => {
    for (const c of e.children.get(n) ?? []) {
      out.push(c);
      walk(c.node);
    }
  };
  const self = e.release.byNode.get(node);
  if (self) out.push(self);
  walk(node);
  return out;
}
