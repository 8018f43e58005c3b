/**
 * The fictional fixture regime (test/fixtures/regime) compiled in this process, for unit tests: no git,
 * no `acquis build`, no release on disk. The corpus, its atoms (named by a ledger synced here), its
 * citation graph and chunk index make a LoadedRelease as the loader would, and an Engine over it.
 *
 * `twoActs` adds a second made-up act, "gadgets" (GSR, 2099/2), compiled from the same source text, for
 * what needs more than one act: references without an act, questions naming two acts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "../../src/canon/compile.ts";
import { buildGraph } from "../../src/canon/graph.ts";
import type { ActCanon, Corpus, RegimeCanon } from "../../src/canon/model.ts";
import { inWorkingTree, type Reader } from "../../src/canon/reader.ts";
import { parseRegime } from "../../src/canon/regime.ts";
import { createEngine, type Engine } from "../../src/engine/context.ts";
import { ScopeReader } from "../../src/engine/scope.ts";
import { EXTRACTION_RULES, extractAtoms } from "../../src/obligations/atoms.ts";
import { type ObligationsCanon, readObligationsCanon } from "../../src/obligations/canon.ts";
import { emptyLedger, sync } from "../../src/obligations/ledger.ts";
import { releaseAtoms } from "../../src/obligations/release-atoms.ts";
import type { LoadedRelease } from "../../src/release/load.ts";
import type { ReleaseMeta } from "../../src/release/meta.ts";
import type { RouterFile } from "../../src/search/act-router.ts";
import { buildIndex, ChunkIndex } from "../../src/search/chunk-index.ts";

export const FIXTURE = join(import.meta.dirname, "..", "fixtures", "regime");
export const FIXTURE_SOURCES = join(FIXTURE, "sources");

/** The fixture canon, revision 1 or 2 (or "planted", revision 2 with one defect of each kind). */
export function fixtureCanon(rev: 1 | 2 | "planted" = 2): RegimeCanon {
  const file = rev === "planted" ? "planted.yaml" : `rev${rev}.yaml`;
  return parseRegime(readFileSync(join(FIXTURE, "canon", file), "utf8"), file);
}

/** A second act beside the widgets act: the same text, another id, name and number. */
function gadgets(widgets: ActCanon): ActCanon {
  return {
    ...widgets,
    id: "gadgets",
    short_name: "GSR",
    aliases: ["Gadget Safety Regulation"],
    title: "Regulation (XX) 2099/2 of 2 December 2099 on the safety of gadgets (Gadget Safety Regulation)",
    number: "2099/2",
    celex: "32099R0002",
    eli: "http://data.europa.eu/eli/reg/2099/2/oj",
  };
}

export function fixtureCorpus(opts: { rev?: 1 | 2; twoActs?: boolean } = {}): Corpus {
  const canon = fixtureCanon(opts.rev ?? 2);
  if (opts.twoActs) canon.acts.push(gadgets(canon.acts[0] as ActCanon));
  return compile(canon, FIXTURE_SOURCES).corpus;
}

/**
 * The fixture's obligations canon as `regimes/fixture/` holds it (taxonomy, actors, profiles,
 * derogations), with `extra` files given as text (`facts.yaml`, `scope.yaml`, …) or hidden (null).
 */
export function obligationsReader(extra: Record<string, string | null> = {}): Reader {
  const tree = inWorkingTree(join(FIXTURE, "canon", "obligations"));
  const rel = (p: string) => (p.startsWith("regimes/fixture/") ? p.slice("regimes/fixture/".length) : null);
  return {
    read: (p) => {
      const r = rel(p);
      if (r === null) return null;
      if (r in extra) return extra[r] ?? null;
      return tree.read(r);
    },
    list: (d) => {
      const r = rel(`${d}/`);
      return r === null ? [] : tree.list(r.replace(/\/$/u, ""));
    },
  };
}

/** The obligations canon with a ledger synced to the corpus's atoms (what `acquis atoms sync` commits). */
export function fixtureObligations(
  corpus: Corpus,
  extra: Record<string, string | null> = {},
  rules = EXTRACTION_RULES,
): ObligationsCanon {
  const canon = readObligationsCanon(obligationsReader(extra), "fixture");
  const atoms = extractAtoms(corpus.units, rules);
  canon.ledger = sync(emptyLedger("fixture"), atoms, rules).ledger;
  return canon;
}

export interface FixtureReleaseOptions {
  twoActs?: boolean;
  rev?: 1 | 2;
  tag?: string;
  router?: RouterFile | null;
  extra?: Record<string, string | null>;
  /** Where the release lives on disk (only what reads a file needs it: diff_releases). */
  dir?: string;
  artifacts?: ReleaseMeta["artifacts"];
  /** The extraction rules the ledger is matched under (default: the current ones). */
  rules?: number;
}

/** The release as `loadRelease` would return it, made in memory. */
export function fixtureRelease(opts: FixtureReleaseOptions = {}): LoadedRelease {
  const corpus = fixtureCorpus(opts);
  const obligations = fixtureObligations(corpus, opts.extra, opts.rules);
  const { atoms } = releaseAtoms(corpus.units, obligations, "fixture", false);
  const graph = buildGraph(corpus);
  const tag = opts.tag ?? "2100.1";
  const meta: ReleaseMeta = {
    schema_version: "1",
    regime: "fixture",
    tag,
    commit: "0".repeat(40),
    built_at: "2026-01-01T12:00:00Z",
    as_of: "2100-06-01",
    previous: { tag: null, release_meta_sha256: null },
    licence: { engine: "Apache-2.0", corpus: "CC-BY-4.0", attribution: "test" },
    artifacts: opts.artifacts ?? [],
    sources: [],
    counts: {},
  };
  return {
    dir: opts.dir ?? "/nonexistent",
    meta,
    metaSha256: "f".repeat(64),
    acts: corpus.acts,
    units: corpus.units,
    byNode: new Map(corpus.units.map((u) => [u.node, u])),
    index: new ChunkIndex(buildIndex(corpus.units, opts.router ?? null)),
    atoms,
    edges: graph.edges.filter((e) => e.kind !== "contains"),
    taxonomy: obligations.taxonomy,
    profiles: obligations.profiles,
    derogations: obligations.derogations,
    facts: obligations.facts,
    scope: obligations.scope,
  };
}

export const STAMPS = {
  verification: { status: "skipped" },
  disclaimer: { release: "fixture@2100.1", text: "Fictional text; not law." },
};

export function fixtureEngine(opts: FixtureReleaseOptions = {}): Engine {
  return createEngine(fixtureRelease(opts), STAMPS);
}

/** The scope reader the servers make for a release, with instruments the release does not hold. */
export function fixtureScope(e: Engine): ScopeReader {
  return new ScopeReader(e.release.acts, [
    { name: "UK GDPR", aliases: ["United Kingdom GDPR"], source: "test" },
    { name: "CRR", number: "575/2013", source: "test" },
  ]);
}
