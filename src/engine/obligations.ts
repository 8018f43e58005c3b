/**
 * POST /v1/obligations and the MCP tool list_obligations: every duty binding an entity profile on a
 * date, and every duty a derogation in force lifts. The same engine decides `acquis coverage`.
 */
import { type Decision, decide } from "../obligations/applicability.ts";
import type { ObligationsRequest } from "../serve/schemas.ts";
import type { Engine } from "./context.ts";
import { ServiceError } from "./errors.ts";
import { atomCitation, resolve } from "./request.ts";

export function obligations(e: Engine, req: ObligationsRequest, defaultAsOf: string) {
  const r = resolve(e, req, defaultAsOf);
  const profile = e.release.profiles.find((p) => p.id === req.entity_profile);
  if (!profile) {
    const known = e.release.profiles.map((p) => p.id).join(", ");
    throw new ServiceError(
      "unknown_profile",
      `no entity profile "${req.entity_profile}" in ${e.regime}@${e.tag} (profiles: ${known})`,
    );
  }
  const result = decide(profile, r.as_of, e.release.atoms, e.release.taxonomy, e.release.derogations);
  const item = (d: Decision) => ({
    atom: d.atom.id,
    act: d.atom.act,
    unit_eid: d.atom.unit_eid,
    citation: atomCitation(e, d.atom as never, r.as_of),
    provision: e.release.byNode.get(d.atom.node)?.citation ?? d.atom.node,
    modality: d.atom.modality,
    actor: d.atom.actor,
    action: d.atom.action,
    quoted_text: d.atom.quoted_text,
    basis: d.basis,
    note: d.note,
    derogation: d.derogation,
  });
  return {
    as_of: r.as_of,
    release: r.release,
    entity_profile: profile.id,
    entity_type: result.entity_type,
    binds: result.binds,
    counts: result.counts,
    applicable: result.applicable.map(item),
    excluded: result.excluded.map(item),
    disclaimer: e.stamps.disclaimer,
    verification: e.stamps.verification,
  };
}
