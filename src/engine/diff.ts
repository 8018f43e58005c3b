/**
 * The MCP tool diff_releases (no REST route, by design): the changes the served release's own diff
 * manifest lists, from the tag that manifest names to the served tag. Any other pair of tags is
 * refused. A consumer acting on a change must first verify the release that contains it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../canon/compile.ts";
import type { DiffRequest } from "../contract/schemas.ts";
import type { DiffManifest } from "../release/diff.ts";
import type { Engine } from "./context.ts";
import { ServiceError } from "./errors.ts";

export const DEFAULT_DIFF_LIMIT = 200;
const manifests = new WeakMap<Engine, DiffManifest>();

/** The manifest, read once and checked against the digest release-meta.yaml declares. */
function manifestOf(e: Engine): DiffManifest {
  const cached = manifests.get(e);
  if (cached) return cached;
  const name = `${e.tag}.diff.json`;
  const declared = e.release.meta.artifacts.find((a) => a.name === name);
  if (!declared) throw new ServiceError("not_found", `release ${e.regime}@${e.tag} ships no diff manifest`);
  const bytes = readFileSync(join(e.release.dir, name));
  if (sha256(bytes) !== declared.sha256)
    throw new ServiceError("internal", `${name} no longer matches release-meta.yaml`);
  const m = JSON.parse(bytes.toString("utf8")) as DiffManifest;
  manifests.set(e, m);
  return m;
}

export function diffReleases(e: Engine, req: DiffRequest) {
  const m = manifestOf(e);
  const from = m.from;
  if (req.to !== undefined && req.to !== e.tag && req.to !== `${e.regime}@${e.tag}`) {
    throw new ServiceError(
      "release_mismatch",
      `this instance answers only the range its manifest covers: ${from ?? "(nothing)"} -> ${e.tag}; not to "${req.to}"`,
    );
  }
  if (req.from !== undefined && req.from !== from && req.from !== `${e.regime}@${from}`) {
    throw new ServiceError(
      "release_mismatch",
      `this instance answers only the range its manifest covers: ${from ?? "(nothing)"} -> ${e.tag}; not from "${req.from}"`,
    );
  }
  const all = req.kind ? m.changes.filter((c) => c.kind === req.kind) : m.changes;
  const offset = req.offset ?? 0;
  const limit = req.limit ?? DEFAULT_DIFF_LIMIT;
  return {
    release: e.tag,
    from,
    to: e.tag,
    counts: m.counts,
    total: all.length,
    offset,
    limit,
    changes: all.slice(offset, offset + limit),
    notes: [
      `These changes come from the diff manifest of ${e.regime}@${e.tag}. Before acting on a change, verify the release that contains it: \`acquis pull\` checks its signature chain, digests and provenance.`,
    ],
    corpus_release_meta_sha256: e.release.metaSha256,
    disclaimer: e.stamps.disclaimer,
    verification: e.stamps.verification,
  };
}
