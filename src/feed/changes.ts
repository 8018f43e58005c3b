/**
 * Feed changes: the atom changes of a release's diff manifest, copied verbatim (the feed re-decides
 * nothing), with the two facets subscriptions filter on, read once from the release: the entity types
 * the atom applies to, and the jurisdiction of the act its unit belongs to.
 */
import type { Act } from "../canon/model.ts";
import type { ReleasedAtom } from "../obligations/release-atoms.ts";
import type { Taxonomy } from "../obligations/taxonomy.ts";
import type { AtomChange, DiffManifest } from "../release/diff.ts";
import { type LoadedRelease, verifyArtifacts } from "../release/load.ts";
import type { ReleaseMeta } from "../release/meta.ts";

export interface Facets {
  entity_types: string[];
  jurisdiction: string[];
  regime: string;
  topics: string[];
}

export interface Change {
  id: string;
  atom: string;
  change: AtomChange["change"];
  classification: AtomChange["classification"];
  classification_basis: string;
  citation: AtomChange["citation"];
  detail: AtomChange["detail"];
  facets: Facets;
}

export interface ReleaseRef {
  regime: string;
  tag: string;
  commit: string;
  as_of: string;
  built_at: string;
  diff_manifest: string;
}

/** The link to a release's diff manifest on this service (what feed items and baselines point to). */
export const manifestUrl = (base: string, r: Pick<ReleaseRef, "regime" | "tag">) =>
  `${base}/releases/${r.regime}/${r.tag}/diff.json`;

export function releaseRef(release: Pick<LoadedRelease, "meta">): ReleaseRef {
  const m = release.meta;
  return {
    regime: m.regime,
    tag: m.tag,
    commit: m.commit,
    as_of: m.as_of,
    built_at: m.built_at,
    diff_manifest: `${m.tag}.diff.json`,
  };
}

/**
 * What publishing reads of a release, and only that: its meta, its acts, its taxonomy and its diff
 * manifest, with every artifact's size and digest checked against release-meta.yaml first (so a
 * manifest edited after the build is refused). The units, index and graph are not parsed.
 */
export function readPublishable(
  dir: string,
  manifestName: string,
): { meta: ReleaseMeta; acts: Act[]; taxonomy: Taxonomy; manifest: Buffer } {
  const { meta, files } = verifyArtifacts(dir);
  const manifest = files.get(manifestName);
  const corpus = files.get("corpus.json");
  if (!manifest || !corpus)
    throw new Error(`release-meta.yaml does not declare ${manifest ? "corpus.json" : manifestName}`);
  const obligations = files.get("obligations.json");
  const obl = obligations
    ? (JSON.parse(obligations.toString("utf8")) as {
        taxonomy: Taxonomy["types"];
        actors: Taxonomy["actors"];
      })
    : { taxonomy: [], actors: [] };
  return {
    meta,
    acts: (JSON.parse(corpus.toString("utf8")) as { acts: Act[] }).acts,
    taxonomy: { types: obl.taxonomy, actors: obl.actors },
    manifest,
  };
}

export function feedChanges(release: Pick<LoadedRelease, "acts">, manifest: DiffManifest): Change[] {
  const jurisdiction = new Map(release.acts.map((a) => [a.id, a.jurisdiction]));
  const out: Change[] = [];
  for (const c of manifest.changes) {
    if (c.kind !== "atom") continue;
    const atom = (c.detail.after ?? c.detail.before) as Pick<ReleasedAtom, "applies_to" | "act"> | null;
    out.push({
      id: `service:${manifest.regime}@${manifest.tag}:${c.atom}`,
      atom: c.atom,
      change: c.change,
      classification: c.classification,
      classification_basis: c.classification_basis,
      citation: c.citation,
      detail: c.detail,
      facets: {
        entity_types: [...(atom?.applies_to ?? [])].sort(),
        jurisdiction: atom ? [jurisdiction.get(atom.act) ?? ""].filter(Boolean) : [],
        regime: manifest.regime,
        topics: [],
      },
    });
  }
  // Feed order within a release (by atom): a payload's "the rest" link continues from its last change.
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
