/**
 * Feed changes: the atom changes of a release's diff manifest, copied verbatim (the feed re-decides
 * nothing), with the two facets subscriptions filter on, read once from the release: the entity types
 * the atom applies to, and the jurisdiction of the act its unit belongs to.
 */
import type { ReleasedAtom } from "../obligations/release-atoms.ts";
import type { AtomChange, DiffManifest } from "../release/diff.ts";
import type { LoadedRelease } from "../release/load.ts";

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

export function releaseRef(release: LoadedRelease): ReleaseRef {
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

export function feedChanges(release: LoadedRelease, manifest: DiffManifest): Change[] {
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
  return out;
}
