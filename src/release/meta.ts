/**
 * `release-meta.yaml`: the release's manifest. It declares every artifact's SHA-256 and size, every
 * source's SHA-256, the canon commit and the predecessor link; its own SHA-256 names the release.
 * Key order is fixed here, so the bytes are a function of the values.
 */
import { parse, stringify } from "yaml";

export const META_FILE = "release-meta.yaml";
export const SCHEMA_VERSION = "1";

export interface ArtifactEntry {
  name: string;
  sha256: string;
  size: number;
}

export interface ReleaseMeta {
  schema_version: string;
  regime: string;
  tag: string;
  commit: string;
  built_at: string;
  as_of: string;
  previous: { tag: string | null; release_meta_sha256: string | null };
  licence: { engine: string; corpus: string; attribution: string };
  artifacts: ArtifactEntry[];
  sources: { file: string; sha256: string }[];
  counts: Record<string, number>;
}

export function serialiseMeta(m: ReleaseMeta): string {
  const ordered = {
    schema_version: m.schema_version,
    regime: m.regime,
    tag: m.tag,
    commit: m.commit,
    built_at: m.built_at,
    as_of: m.as_of,
    previous: { tag: m.previous.tag, release_meta_sha256: m.previous.release_meta_sha256 },
    licence: { engine: m.licence.engine, corpus: m.licence.corpus, attribution: m.licence.attribution },
    artifacts: m.artifacts.map((a) => ({ name: a.name, sha256: a.sha256, size: a.size })),
    sources: m.sources.map((s) => ({ file: s.file, sha256: s.sha256 })),
    counts: m.counts,
  };
  return `# acquis release manifest. Its SHA-256 names every byte of this release.\n${stringify(ordered, { lineWidth: 0 })}`;
}

export class MetaError extends Error {}

/**
 * Names that become path segments (regimes/<regime>/releases/<tag>/<artifact>): strict patterns, so a
 * hostile manifest cannot name `../x` or an absolute path.
 */
export const REGIME_NAME = /^[a-z][a-z0-9_-]{0,31}$/u;
export const TAG_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_-]|\.(?!\.)){0,63}$/u;
export const ARTIFACT_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_-]|\.(?!\.)){0,127}$/u;

export function parseMeta(text: string): ReleaseMeta {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new MetaError(`${META_FILE} is not valid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  const m = doc as Partial<ReleaseMeta> | null;
  for (const key of ["schema_version", "regime", "tag", "commit", "built_at", "as_of"] as const) {
    if (typeof m?.[key] !== "string") throw new MetaError(`${META_FILE}: missing or non-string "${key}"`);
  }
  if (!REGIME_NAME.test(m?.regime as string))
    throw new MetaError(
      `${META_FILE}: regime ${JSON.stringify(m?.regime)} is not a regime name (${REGIME_NAME.source})`,
    );
  if (!TAG_NAME.test(m?.tag as string))
    throw new MetaError(
      `${META_FILE}: tag ${JSON.stringify(m?.tag)} is not a release tag (${TAG_NAME.source})`,
    );
  const prevTag = (m as { previous?: { tag?: unknown } }).previous?.tag;
  if (prevTag !== null && prevTag !== undefined && !TAG_NAME.test(String(prevTag)))
    throw new MetaError(`${META_FILE}: previous tag ${JSON.stringify(prevTag)} is not a release tag`);
  if (!Array.isArray(m?.artifacts) || !Array.isArray(m?.sources))
    throw new MetaError(`${META_FILE}: missing artifacts or sources`);
  for (const a of m.artifacts) {
    if (
      typeof a?.name !== "string" ||
      !/^[0-9a-f]{64}$/u.test(String(a.sha256)) ||
      !Number.isSafeInteger(a.size) ||
      a.size < 0
    ) {
      throw new MetaError(`${META_FILE}: malformed artifact entry ${JSON.stringify(a)}`);
    }
    if (!ARTIFACT_NAME.test(a.name) || a.name === META_FILE) {
      throw new MetaError(`${META_FILE}: artifact name ${JSON.stringify(a.name)} must be a plain file name`);
    }
  }
  return m as ReleaseMeta;
}
