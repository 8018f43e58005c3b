/**
 * POST /v1/obligations and the MCP tool list_obligations: the register of duties binding an entity
 * profile on a date, the duties a derogation or a rule of precedence lifts, the duties that turn on a
 * fact the profile does not state, and the acts whose scope does not reach it. The same engine decides
 * `acquis coverage` and an answer's applicability section.
 */
import { type Applicability, type Decision, decide, type Profile } from "../obligations/applicability.ts";
import type { ObligationsRequest } from "../serve/schemas.ts";
import type { Engine } from "./context.ts";
import { ServiceError } from "./errors.ts";
import { atomCitation, resolve } from "./request.ts";

/** The engine's decision for a profile on a date, with the release's scope, tree and directive dates. */
export function register(e: Engine, profile: Profile, asOf: string): Applicability {
  const r = e.release;
  const acts = new Map(r.acts.map((a) => [a.id, a]));
  return decide(profile, asOf, r.atoms, r.taxonomy, r.derogations, {
    scope: r.scope,
    transposition: (act) => {
      const a = acts.get(act);
      return a?.type === "dir" && a.application
        ? {
            date: a.application.date,
            provision: `${act}/${a.application.provision}`,
            deadline: a.transposition?.date ?? null,
            deadline_provision: a.transposition?.provision ? `${act}/${a.transposition.provision}` : null,
          }
        : null;
    },
    ancestry: (node) => {
      const out: string[] = [];
      for (let u = r.byNode.get(node); u?.parent; u = r.byNode.get(u.parent)) out.push(u.parent);
      out.push(node.slice(0, node.indexOf("/")));
      return out;
    },
  });
}

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
  const result = register(e, profile, r.as_of);
  const item = (d: Decision) => ({
    atom: d.atom.id,
    act: d.atom.act,
    unit_eid: d.atom.unit_eid,
    citation: atomCitation(e, d.atom as never, r.as_of),
    provision: e.release.byNode.get(d.atom.node)?.citation ?? d.atom.node,
    status: d.status,
    modality: d.atom.modality,
    actor: d.atom.actor,
    // The holder of what the register lists: for a right's correlative duty, the party it is held against.
    addressee: d.reasons.correlative ? "regulated_party" : (d.atom.addressee ?? "regulated_party"),
    action: d.atom.action,
    quoted_text: d.atom.quoted_text,
    basis: d.basis,
    note: d.note,
    reasons: d.reasons,
    modified_by: d.reasons.modified_by,
    derogation: d.derogation,
  });
  return {
    as_of: r.as_of,
    release: r.release,
    entity_profile: profile.id,
    entity_type: result.entity_type,
    binds: result.binds,
    derived: result.derived,
    counts: result.counts,
    out_of_scope: result.out_of_scope,
    applicable: result.applicable.map(item),
    excluded: result.excluded.map(item),
    undetermined: result.undetermined.map(item),
    disclaimer: e.stamps.disclaimer,
    verification: e.stamps.verification,
  };
}
