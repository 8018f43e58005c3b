/**
 * The release loader every server uses: it checks the digest and size of every artifact that
 * `release-meta.yaml` declares before it exposes anything, and refuses naming the first artifact that
 * differs.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { composeText } from "../canon/act.ts";
import { sha256 } from "../canon/compile.ts";
import type { Edge } from "../canon/graph.ts";
import type { Act, Unit } from "../canon/model.ts";
import type { FactSchema } from "../obligations/facts.ts";
import type { Derogation, Profile } from "../obligations/profiles.ts";
import type { ReleasedAtom } from "../obligations/release-atoms.ts";
import { NO_SCOPE, type Scope } from "../obligations/scope.ts";
import type { ActorPhrase, EntityType, Taxonomy } from "../obligations/taxonomy.ts";
import { ChunkIndex, type IndexFile } from "../search/chunk-index.ts";
import { META_FILE, parseMeta, type ReleaseMeta } from "./meta.ts";

export class ReleaseIntegrityError extends Error {
  readonly artifact: string;
  constructor(artifact: string, message: string) {
    super(message);
    this.artifact = artifact;
  }
}

export interface StoredCorpus {
  schema_version: string;
  regime: string;
  tag: string;
  acts: Act[];
  units: Omit<Unit, "text">[];
}

export interface LoadedRelease {
  dir: string;
  meta: ReleaseMeta;
  /** SHA-256 over the bytes of `release-meta.yaml`. */
  metaSha256: string;
  acts: Act[];
  units: Unit[];
  byNode: Map<string, Unit>;
  index: ChunkIndex;
  atoms: ReleasedAtom[];
  /** Graph edges other than containment (containment is in the units' parent links). */
  edges: Edge[];
  taxonomy: Taxonomy;
  profiles: Profile[];
  derogations: Derogation[];
  facts: FactSchema | null;
  scope: Scope;
}

/**
 * Read every declared artifact and check its size and digest; returns the bytes by name. With
 * `check: false` (only for `--insecure-skip-verify`) the bytes are read but not compared.
 */
export function verifyArtifacts(
  dir: string,
  check = true,
): {
  meta: ReleaseMeta;
  metaSha256: string;
  files: Map<string, Buffer>;
} {
  let metaBytes: Buffer;
  try {
    metaBytes = readFileSync(join(dir, META_FILE));
  } catch {
    throw new ReleaseIntegrityError(META_FILE, `${dir}: no ${META_FILE}; not a release directory`);
  }
  const meta = parseMeta(metaBytes.toString("utf8"));
  const files = new Map<string, Buffer>();
  for (const a of meta.artifacts) {
    let bytes: Buffer;
    try {
      // The declared size is checked before reading, so a hostile release cannot make us read gigabytes.
      const size = statSync(join(dir, a.name)).size;
      if (check && size !== a.size)
        throw new ReleaseIntegrityError(
          a.name,
          `artifact ${a.name} does not match ${META_FILE}: expected ${a.size} bytes, found ${size}`,
        );
      bytes = readFileSync(join(dir, a.name));
    } catch (e) {
      if (e instanceof ReleaseIntegrityError) throw e;
      throw new ReleaseIntegrityError(a.name, `artifact ${a.name} is missing from ${dir}`);
    }
    const found = sha256(bytes);
    if (check && (bytes.length !== a.size || found !== a.sha256)) {
      throw new ReleaseIntegrityError(
        a.name,
        `artifact ${a.name} does not match ${META_FILE}: expected sha256 ${a.sha256} (${a.size} bytes), found ${found} (${bytes.length} bytes)`,
      );
    }
    files.set(a.name, bytes);
  }
  return { meta, metaSha256: sha256(metaBytes), files };
}

export function loadRelease(dir: string, opts: { checkDigests?: boolean } = {}): LoadedRelease {
  const { meta, metaSha256, files } = verifyArtifacts(dir, opts.checkDigests ?? true);
  const corpusBytes = files.get("corpus.json");
  const indexBytes = files.get("index.json");
  if (!corpusBytes || !indexBytes) {
    throw new ReleaseIntegrityError(
      corpusBytes ? "index.json" : "corpus.json",
      `${META_FILE} does not declare ${corpusBytes ? "index.json" : "corpus.json"}`,
    );
  }
  const stored = JSON.parse(corpusBytes.toString("utf8")) as StoredCorpus;
  // The parsed objects become the units (no copy of 30 000 objects): composeText gives each its text.
  const units = stored.units as Unit[];
  composeText(units);
  const atomsBytes = files.get("atoms.json");
  const graphBytes = files.get("graph.json");
  const oblBytes = files.get("obligations.json");
  const obl = oblBytes
    ? (JSON.parse(oblBytes.toString("utf8")) as {
        taxonomy: EntityType[];
        actors: ActorPhrase[];
        profiles: Profile[];
        derogations: Derogation[];
        facts?: FactSchema;
        scope?: Scope;
      })
    : { taxonomy: [], actors: [], profiles: [], derogations: [] };
  return {
    dir,
    meta,
    metaSha256,
    acts: stored.acts,
    units,
    byNode: new Map(units.map((u) => [u.node, u])),
    index: new ChunkIndex(JSON.parse(indexBytes.toString("utf8")) as IndexFile),
    atoms: atomsBytes ? (JSON.parse(atomsBytes.toString("utf8")) as { atoms: ReleasedAtom[] }).atoms : [],
    edges: graphBytes
      ? (JSON.parse(graphBytes.toString("utf8")) as { edges: Edge[] }).edges.filter(
          (e) => e.kind !== "contains",
        )
      : [],
    taxonomy: { types: obl.taxonomy, actors: obl.actors },
    profiles: obl.profiles,
    derogations: obl.derogations,
    facts: obl.facts ?? null,
    scope: obl.scope ?? NO_SCOPE,
  };
}
