/**
 * How a compiled release becomes files: its artifacts in canonical JSON, provenance.json over their
 * digests, release-meta.yaml, all written into a temporary directory renamed into place when complete.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import canonicalize from "canonicalize";
import type { runChecks } from "../canon/checks.ts";
import { type Compiled, sha256 } from "../canon/compile.ts";
import type { Graph } from "../canon/graph.ts";
import type { RegimeCanon, Unit } from "../canon/model.ts";
import type { ObligationsCanon } from "../obligations/canon.ts";
import type { ReleasedAtom, releaseAtoms } from "../obligations/release-atoms.ts";
import type { IndexFile } from "../search/chunk-index.ts";
import { diffRelease } from "./diff.ts";
import type { StoredCorpus } from "./load.ts";
import { type ArtifactEntry, META_FILE, type ReleaseMeta, SCHEMA_VERSION, serialiseMeta } from "./meta.ts";
import { provenanceStatement } from "./provenance.ts";
import type { ReleaseRecord } from "./releases.ts";

const ENGINE_VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
    version: string;
  }
).version;

/** The release a build diffs against and chains to: its units, atoms and the digest of its release-meta.yaml. */
export interface PreviousRelease {
  tag: string;
  commit: string;
  metaSha: string;
  units: Unit[];
  atoms: ReleasedAtom[];
}

/** What a release is written from: the canon compiled at the tag's commit and what is derived from it. */
export interface CompiledRelease {
  regime: string;
  record: ReleaseRecord;
  prev: PreviousRelease | null;
  canon: RegimeCanon;
  compiled: Compiled;
  /** Findings per defect check; null for canon without a quality baseline. */
  checks: ReturnType<typeof runChecks> | null;
  obligations: ObligationsCanon;
  released: ReturnType<typeof releaseAtoms>;
  graph: Graph;
  index: IndexFile;
  builtAt: string;
}

/**
 * The release's artifacts in the order they are written. Each is produced, written and hashed in turn,
 * so only one serialised body is held at a time.
 */
function artifacts(r: CompiledRelease): [string, () => string][] {
  const { regime, record, compiled, graph, released, obligations, prev } = r;
  const { corpus } = compiled;
  const storedCorpus: StoredCorpus = {
    schema_version: SCHEMA_VERSION,
    regime,
    tag: record.tag,
    acts: corpus.acts,
    units: corpus.units.map(({ text: _text, ...rest }) => rest),
  };
  const quality = {
    schema_version: SCHEMA_VERSION,
    regime,
    tag: record.tag,
    acts: compiled.quality,
    // Recorded only by canon that has a baseline, so older tags rebuild byte for byte.
    ...(r.checks ? { checks: r.checks } : {}),
    graph: { counts: graph.counts, unresolved_share: graph.unresolved_share, unresolved: graph.unresolved },
  };
  const diffName = `${record.tag}.diff.json`;
  const diff = diffRelease({
    regime,
    tag: record.tag,
    from: prev ? { tag: prev.tag, commit: prev.commit, units: prev.units, atoms: prev.atoms } : null,
    commit: record.commit,
    units: corpus.units,
    atoms: released.atoms,
  });
  return [
    ["corpus.json", () => canonicalJson(storedCorpus)],
    [
      "graph.json",
      () =>
        canonicalJson({
          schema_version: SCHEMA_VERSION,
          regime,
          tag: record.tag,
          edges: graph.edges,
          counts: graph.counts,
        }),
    ],
    ["index.json", () => canonicalJson(r.index)],
    [
      "atoms.json",
      () =>
        canonicalJson({
          schema_version: SCHEMA_VERSION,
          regime,
          tag: record.tag,
          atoms: released.atoms,
          stats: released.stats,
        }),
    ],
    [
      "obligations.json",
      () =>
        canonicalJson({
          schema_version: SCHEMA_VERSION,
          regime,
          tag: record.tag,
          taxonomy: obligations.taxonomy.types,
          actors: obligations.taxonomy.actors,
          profiles: obligations.profiles,
          derogations: obligations.derogations,
          // Recorded only by canon that has them, so older tags rebuild byte for byte.
          ...(obligations.facts ? { facts: obligations.facts } : {}),
          ...(obligations.hasScope ? { scope: obligations.scope } : {}),
        }),
    ],
    ["quality.json", () => canonicalJson(quality)],
    [diffName, () => canonicalJson(diff)],
  ];
}

/**
 * The artifacts, then provenance.json (their digests and the sources'), then release-meta.yaml, written
 * into a temporary directory that becomes the release only when all are written.
 */
export function writeRelease(dir: string, r: CompiledRelease): void {
  const lazy = artifacts(r);
  const out = new ReleaseWriter(dir);
  try {
    for (const [name, produce] of lazy) out.add(name, produce());
    const provenance = canonicalJson(
      provenanceStatement({
        regime: r.regime,
        tag: r.record.tag,
        commit: r.record.commit,
        builtAt: r.builtAt,
        engineVersion: ENGINE_VERSION,
        artifacts: out.entries.map((e) => ({ name: e.name, sha256: e.sha256 })),
        sources: r.compiled.sources,
      }),
    );
    out.add("provenance.json", provenance);
    out.add(META_FILE, serialiseMeta(releaseMeta(r, out.entries)));
    out.commit();
  } catch (e) {
    out.abort();
    throw e;
  }
}

/** release-meta.yaml: what the release is, what it chains to, its artifacts' digests and its counts. */
function releaseMeta(r: CompiledRelease, entries: ArtifactEntry[]): ReleaseMeta {
  const { compiled, released, obligations, canon, record, prev } = r;
  const { corpus } = compiled;
  const counts = {
    ...releaseCounts(corpus.units, r.graph, compiled.quality, corpus.acts.length),
    atoms: released.stats.atoms,
    obligations: released.stats.obligations,
    obligations_mapped: released.stats.obligationsMapped,
    profiles: obligations.profiles.length,
    derogations: obligations.derogations.length,
  };
  return {
    schema_version: SCHEMA_VERSION,
    regime: r.regime,
    tag: record.tag,
    commit: record.commit,
    built_at: r.builtAt,
    as_of: canon.as_of,
    previous: { tag: prev?.tag ?? null, release_meta_sha256: prev?.metaSha ?? null },
    licence: { engine: "Apache-2.0", corpus: canon.licence.corpus, attribution: canon.licence.attribution },
    artifacts: [...entries].sort((a, b) => (a.name < b.name ? -1 : 1)),
    sources: compiled.sources,
    counts,
  };
}

function canonicalJson(value: unknown): string {
  return `${canonicalize(value)}\n`;
}

function entry(name: string, body: string): ArtifactEntry {
  return { name, sha256: sha256(body), size: Buffer.byteLength(body) };
}

/**
 * Writes a release into a sibling temporary directory and renames it into place on commit: a release
 * appears whole or not at all, and a failed build leaves nothing behind.
 */
class ReleaseWriter {
  readonly entries: ArtifactEntry[] = [];
  private readonly dir: string;
  private readonly tmp: string;

  constructor(dir: string) {
    this.dir = dir;
    this.tmp = `${dir}.partial-${process.pid}`;
    mkdirSync(dirname(dir), { recursive: true });
    rmSync(this.tmp, { recursive: true, force: true });
    mkdirSync(this.tmp);
  }

  add(name: string, body: string): void {
    writeFileSync(join(this.tmp, name), body);
    if (name !== META_FILE) this.entries.push(entry(name, body));
  }

  commit(): void {
    rmSync(this.dir, { recursive: true, force: true });
    renameSync(this.tmp, this.dir);
  }

  abort(): void {
    rmSync(this.tmp, { recursive: true, force: true });
  }
}

function releaseCounts(
  units: Unit[],
  graph: Graph,
  quality: { repairs: unknown[]; defects: unknown[] }[],
  acts: number,
) {
  return {
    acts,
    units: units.length,
    definitions: units.filter((u) => u.defines).length,
    edges: graph.edges.length,
    repairs: quality.reduce((n, q) => n + q.repairs.length, 0),
    defects: quality.reduce((n, q) => n + q.defects.length, 0),
  };
}
