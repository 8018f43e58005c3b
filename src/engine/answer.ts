/**
 * POST /v1/answer and the MCP tool search_regulation: the retrieval closure of a question.
 *
 * Matched units (cited provisions first, then BM25 over the chunk index), and around each: the article
 * and chapter it sits in, the definitions in force for terms its text uses, whatever amends, repeals or
 * disapplies it, and the obligation atoms written into it. With an entity profile, applicability is
 * decided over the profile's whole disposition; content is never removed. The body is a function of
 * the release and the request alone.
 */
import type { Unit } from "../canon/model.ts";
import type { AnswerRequest } from "../contract/schemas.ts";
import type { Decision } from "../obligations/applicability.ts";
import { ancestors } from "../obligations/taxonomy.ts";
import { ANSWER_BUDGET, type Detail, withinBudget } from "./budget.ts";
import { type Engine, inForce, subtree } from "./context.ts";
import { ServiceError } from "./errors.ts";
import { register } from "./obligations.ts";
import { type Mode, match } from "./query/match.ts";
import { atomCitation, type BlockCitation, resolve, unitCitation } from "./request.ts";
import type { ScopeReader } from "./scope.ts";

export const DEFAULT_MATCHES = 10;
/** A compact answer's default: five matched units, the retrieval's top five. */
export const COMPACT_MATCHES = 5;

type Role = "match" | "ancestor" | "definition" | "obligation" | "amendment" | "amended" | "derogation";
const ROLES: Role[] = ["match", "ancestor", "definition", "obligation", "amendment", "amended", "derogation"];

interface Block {
  id: string;
  role: Role;
  text: string;
  citation: BlockCitation;
  attached_to: string | null;
  detail?: Record<string, unknown>;
}

export function answer(e: Engine, scope: ScopeReader, req: AnswerRequest, defaultAsOf: string) {
  const r = resolve(e, req, defaultAsOf);
  const profileId = req.entity_profile ?? req.filters?.entity_profile ?? null;
  const profile = entityProfile(e, req, profileId);
  const mode = (req.mode ?? "auto") as Mode;
  const detail: Detail = req.detail ?? "compact";
  const requested = req.matches ?? (detail === "full" ? DEFAULT_MATCHES : COMPACT_MATCHES);
  const filters = requestFilters(profileId, req.filters ?? {});
  const named = scope.read(req.query);
  const wholeOutside = named.foreign.length > 0 && named.acts.length === 0;
  const admit = admission(e, filters, named.acts);

  const matching = wholeOutside
    ? { units: [], considered: 0, admitted: 0, notes: [] }
    : match(e, named, req.query, mode, requested, admit);
  const matched = matching.units;
  const { considered, admitted } = matching;

  const closed = closure(e, matched, r.as_of);
  const notes: string[] = [...matching.notes];
  noteForeign(e, named.foreign, wholeOutside, notes);
  noteNotInForce(matched, r.as_of, notes);
  // Applicability is decided over every atom of the matched units, whether or not its block fits.
  const retrieved = new Set(closed.filter((b) => b.role === "obligation").map((b) => b.id));
  const head = {
    as_of: r.as_of,
    release: r.release,
    query: req.query,
    status: wholeOutside ? "out-of-scope" : matched.length === 0 ? "no-match" : "answered",
    in_force: matched.every((u) => inForce(u, r.as_of)),
    notes,
    out_of_scope: wholeOutside ? [req.query] : named.foreign,
    retrieval: { mode, matches: matched.length, requested, considered, admitted },
    request: {
      query: req.query,
      as_of: r.as_of,
      release: r.release,
      matches: requested,
      mode,
      as_of_defaulted: r.as_of_defaulted,
      release_defaulted: r.release_defaulted,
      filters,
    },
    applicability: applicability(e, profile ?? null, r.as_of, retrieved),
    corpus: corpusStamp(e),
    disclaimer: e.stamps.disclaimer,
    verification: e.stamps.verification,
  };
  let blocks: Block[] = closed;
  let omitted: Record<string, number> | null = null;
  if (detail === "compact") ({ blocks, omitted } = withinAnswerBudget(closed, head, notes));
  const sections = Object.fromEntries(
    ROLES.map((role) => [role, blocks.filter((b) => b.role === role).map((b) => b.id)]),
  ) as Record<Role, string[]>;
  const { retrieval, request, applicability: decided, corpus, disclaimer, verification, ...top } = head;
  return {
    ...top,
    notes,
    blocks,
    sections,
    ...(omitted ? { omitted } : {}),
    retrieval,
    request: { ...request, detail },
    applicability: decided,
    corpus,
    disclaimer,
    verification,
  };
}

/**
 * The entity profile an answer decides applicability for (null: none named). It may be named at the top
 * of the request or among its filters, but not as two different profiles.
 */
function entityProfile(e: Engine, req: AnswerRequest, profileId: string | null) {
  if (
    req.entity_profile !== undefined &&
    req.filters?.entity_profile !== undefined &&
    req.entity_profile !== req.filters.entity_profile
  ) {
    throw new ServiceError(
      "invalid_request",
      `entity_profile "${req.entity_profile}" and filters.entity_profile "${req.filters.entity_profile}" disagree`,
    );
  }
  const profile = profileId === null ? null : e.release.profiles.find((p) => p.id === profileId);
  if (profileId !== null && !profile)
    throw new ServiceError("unknown_profile", `no entity profile "${profileId}" in ${e.regime}@${e.tag}`);
  return profile;
}

/** The request's filters, every one stated: null where it does not filter, [] where it excludes nothing. */
function requestFilters(profileId: string | null, f: NonNullable<AnswerRequest["filters"]>) {
  return {
    entity_profile: profileId,
    regimes: f.regimes ?? null,
    jurisdictions: f.jurisdictions ?? null,
    languages: f.languages ?? null,
    eids: f.eids ?? null,
    entity_types: f.entity_types ?? null,
    exclude_regimes: f.exclude_regimes ?? [],
    exclude_jurisdictions: f.exclude_jurisdictions ?? [],
  };
}

/** Instruments the question names that the release does not hold: all of them, or some. */
function noteForeign(e: Engine, foreign: string[], wholeOutside: boolean, notes: string[]): void {
  if (wholeOutside)
    notes.push(
      `The release ${e.regime}@${e.tag} holds none of the instruments the question names: ${foreign.join(", ")}.`,
    );
  else if (foreign.length > 0) notes.push(`Not in this release, so not answered: ${foreign.join(", ")}.`);
}

/** Matched units that do not apply on the answer's date: not yet, or no longer. */
function noteNotInForce(matched: Unit[], asOf: string, notes: string[]): void {
  for (const u of matched) {
    if (u.valid_from > asOf)
      notes.push(`${u.citation} does not apply on ${asOf}: it applies from ${u.valid_from}.`);
    else if (u.valid_to !== null && asOf >= u.valid_to)
      notes.push(`${u.citation} no longer applies on ${asOf}: it ceased to apply on ${u.valid_to}.`);
  }
}

/**
 * A compact answer: the closure cut to the answer budget, and notes on what was cut. The budget is
 * measured without the applicability section: naming a profile never removes content (the contract),
 * so the blocks are the same with or without one.
 */
function withinAnswerBudget(
  closed: Block[],
  head: { applicability: unknown },
  notes: string[],
): { blocks: Block[]; omitted: Record<string, number> } {
  const { applicability: _decided, ...content } = head;
  const cut = withinBudget(closed, content) as { blocks: Block[]; omitted: Record<string, number> };
  const left = Object.values(cut.omitted).reduce((n, x) => n + x, 0);
  if (cut.blocks.some((b) => b.detail?.excerpt !== undefined))
    notes.push(
      "Texts marked detail.excerpt are cut: read the whole with get_unit (POST /v1/unit) and the block's citation.node, or get_atom with citation.atom.",
    );
  if (left > 0)
    notes.push(
      `${left} block(s) of the closure are left out to keep this answer within ${ANSWER_BUDGET / 1024} KB (omitted counts them by role); ask with detail: "full" for all of them.`,
    );
  return cut;
}

export function corpusStamp(e: Engine) {
  return {
    release: `${e.regime}@${e.tag}`,
    regime: e.regime,
    tag: e.tag,
    commit: e.release.meta.commit,
    release_as_of: e.release.meta.as_of,
    schema_version: e.release.meta.schema_version,
    first_in_force: e.firstInForce,
    last_in_force: e.lastInForce,
    units: e.release.units.length,
    release_meta_sha256: e.release.metaSha256,
  };
}

type Filters = {
  regimes: string[] | null;
  jurisdictions: string[] | null;
  languages: string[] | null;
  eids: string[] | null;
  entity_types: string[] | null;
  exclude_regimes: string[];
  exclude_jurisdictions: string[];
};

/**
 * Which units a request admits: per act (regime, jurisdiction, language, the acts the question names),
 * a flag per act in release order; and, only when the request filters by eId or entity type, a test
 * per unit.
 */
function admission(
  e: Engine,
  f: Filters,
  namedActs: string[],
): { act: Uint8Array; unit: ((node: string) => boolean) | null } {
  const act = new Uint8Array(e.actOrder.length);
  // A question about an act reaches its delegated and implementing acts, where most concrete duties are.
  const reached = [...namedActs, ...namedActs.flatMap((a) => e.subordinateActs.get(a) ?? [])];
  e.actOrder.forEach((id, i) => {
    const a = e.actsById.get(id);
    if (!a) return;
    const ok =
      (reached.length === 0 || reached.includes(id)) &&
      (!f.regimes || f.regimes.includes(e.regime)) &&
      !f.exclude_regimes.includes(e.regime) &&
      (!f.jurisdictions || f.jurisdictions.includes(a.jurisdiction)) &&
      !f.exclude_jurisdictions.includes(a.jurisdiction) &&
      (!f.languages || f.languages.includes(a.language));
    act[i] = ok ? 1 : 0;
  });
  if (!f.eids && !f.entity_types) return { act, unit: null };
  const types = f.entity_types ? new Set(f.entity_types) : null;
  const cache = new Map<string, boolean>();
  const reachesTypes = (node: string): boolean => {
    const hit = cache.get(node);
    if (hit !== undefined) return hit;
    const ok = subtree(e, node).some((u) =>
      (e.atomsByNode.get(u.node) ?? []).some((a) =>
        ancestors(e.release.taxonomy, a.applies_to).some((t) => types?.has(t)),
      ),
    );
    cache.set(node, ok);
    return ok;
  };
  const eids = f.eids;
  return {
    act,
    unit: (node) => {
      const eid = node.slice(node.indexOf("/") + 1);
      if (eids && !eids.some((x) => eid === x || eid.startsWith(`${x}__`))) return false;
      return !types || reachesTypes(node);
    },
  };
}

/** A closure being assembled: its blocks in order, each id once (the first role that reaches it keeps it). */
interface Closing {
  e: Engine;
  asOf: string;
  blocks: Block[];
  seen: Set<string>;
}

function addBlock(c: Closing, b: Block): void {
  if (c.seen.has(b.id)) return;
  c.seen.add(b.id);
  c.blocks.push(b);
}

/**
 * The closure of the matched units: the units themselves, then around each in turn its article and
 * chapter, the definitions it uses, what amends or repeals it and what it amends or repeals, the
 * derogations from it, and its obligation atoms.
 */
function closure(e: Engine, matched: Unit[], asOf: string): Block[] {
  const c: Closing = { e, asOf, blocks: [], seen: new Set<string>() };
  for (const u of matched)
    addBlock(c, {
      id: u.node,
      role: "match",
      text: u.text,
      citation: unitCitation(e, u, asOf),
      attached_to: null,
    });
  for (const u of matched) {
    addAncestors(c, u);
    addDefinitions(c, u);
    addAmendments(c, u);
    addDerogations(c, u);
    addAtoms(c, u);
  }
  return c.blocks;
}

/** The article and the chapter a matched unit sits in (a chapter as its citation and heading only). */
function addAncestors(c: Closing, u: Unit): void {
  const { e, asOf } = c;
  for (
    let p = u.parent ? e.release.byNode.get(u.parent) : undefined;
    p;
    p = p.parent ? e.release.byNode.get(p.parent) : undefined
  ) {
    if (p.kind === "article")
      addBlock(c, {
        id: p.node,
        role: "ancestor",
        text: p.text,
        citation: unitCitation(e, p, asOf),
        attached_to: u.node,
      });
    if (p.kind === "chapter") {
      addBlock(c, {
        id: p.node,
        role: "ancestor",
        text: [p.citation, p.heading].filter(Boolean).join(": "),
        citation: unitCitation(e, p, asOf),
        attached_to: u.node,
      });
    }
  }
}

/** Definitions the matched text uses: its own and its descendants' (the graph's uses_definition edges). */
function addDefinitions(c: Closing, u: Unit): void {
  const { e, asOf } = c;
  for (const x of subtree(e, u.node)) {
    for (const defNode of e.usesDefinition.get(x.node) ?? []) {
      const d = e.release.byNode.get(defNode);
      if (!d || d.node === u.node || !inForce(d, asOf)) continue;
      addBlock(c, {
        id: d.node,
        role: "definition",
        text: d.text,
        citation: unitCitation(e, d, asOf),
        attached_to: u.node,
        detail: { term: d.defines },
      });
    }
  }
}

/**
 * Per amendment or repeal edge, in the graph's order: the provision that amends or repeals the matched
 * unit's act, and the act the matched unit (or a unit below it) amends or repeals.
 */
function addAmendments(c: Closing, u: Unit): void {
  const { e, asOf } = c;
  const act = e.actsById.get(u.act);
  for (const edge of e.amendments) {
    if ((edge.kind === "amends" || edge.kind === "repeals") && edge.to === act?.work_iri) {
      const from = e.release.byNode.get(edge.from);
      if (from)
        addBlock(c, {
          id: from.node,
          role: "amendment",
          text: from.text,
          citation: unitCitation(e, from, asOf),
          attached_to: u.node,
          detail: { kind: edge.kind },
        });
    }
    if (
      (edge.kind === "amends" || edge.kind === "repeals") &&
      (edge.from === u.node || edge.from.startsWith(`${u.node}__`))
    ) {
      const target = e.release.acts.find((a) => a.work_iri === edge.to);
      if (target) {
        addBlock(c, {
          id: target.work_iri,
          role: "amended",
          text: target.title,
          citation: {
            ...unitCitation(e, u, asOf),
            label: target.short_name,
            eid: null,
            node: null,
            work_iri: target.work_iri,
            expression_iri: target.expression_iri,
          },
          attached_to: u.node,
          detail: { kind: edge.kind, act: target.id },
        });
      }
    }
  }
}

/** The derogating provisions that disapply the matched unit, a unit above it or a unit below it. */
function addDerogations(c: Closing, u: Unit): void {
  const { e, asOf } = c;
  for (const d of e.release.derogations) {
    if (!d.disapplies.some((n) => u.node === n || u.node.startsWith(`${n}__`) || n.startsWith(`${u.node}__`)))
      continue;
    const from = e.release.byNode.get(d.derogating);
    if (from) {
      addBlock(c, {
        id: from.node,
        role: "derogation",
        text: from.text,
        citation: unitCitation(e, from, asOf),
        attached_to: u.node,
        detail: {
          derogation: d.id,
          disapplies: d.disapplies,
          exempts: d.exempts,
          from: d.from,
          until: d.until,
        },
      });
    }
  }
}

/** The obligation atoms written into the matched unit and the units below it. */
function addAtoms(c: Closing, u: Unit): void {
  const { e, asOf } = c;
  for (const x of subtree(e, u.node)) {
    for (const a of e.atomsByNode.get(x.node) ?? []) {
      addBlock(c, {
        id: a.id,
        role: "obligation",
        text: a.quoted_text,
        citation: atomCitation(e, a, asOf),
        attached_to: u.node,
        detail: {
          modality: a.modality,
          actor: a.actor,
          action: a.action,
          applies_to: a.applies_to,
          executable_name: a.executable_name,
          executable_unit: a.executable_unit,
          executable_value: a.executable_value,
          char_start: a.char_start,
          char_end: a.char_end,
        },
      });
    }
  }
}

function applicability(
  e: Engine,
  profile: ReturnType<Engine["release"]["profiles"]["find"]> | null,
  asOf: string,
  retrieved: Set<string>,
) {
  if (!profile) {
    return {
      entity_profile: null,
      entity_type: null,
      decided: false,
      binds: [],
      as_of: asOf,
      release: e.tag,
      atoms: [],
      disapplied: [],
    };
  }
  const result = register(e, profile, asOf);
  const item = (d: Decision) => ({
    atom: d.atom.id,
    unit_eid: d.atom.unit_eid,
    basis: d.basis,
    note: d.note,
    applicable: d.applicable,
    status: d.status,
    retrieved: retrieved.has(d.atom.id),
    citation: atomCitation(e, e.atomsById.get(d.atom.id) ?? d.atom, asOf),
    derogation: d.derogation
      ? {
          derogating_eid: d.derogation.derogating_eid,
          derogating_node: d.derogation.derogating_node,
          disapplied_eid: d.derogation.disapplied_eid,
          disapplied_node: d.derogation.disapplied_node,
          exempted_types: d.derogation.exempted_types,
        }
      : null,
  });
  return {
    entity_profile: profile.id,
    entity_type: result.entity_type,
    decided: true,
    binds: result.binds,
    as_of: asOf,
    release: e.tag,
    atoms: [...result.applicable, ...result.excluded, ...result.undetermined].map(item),
    disapplied: result.excluded.map((d) => d.atom.id),
  };
}
