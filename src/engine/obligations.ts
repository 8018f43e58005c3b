/**
 * POST /v1/obligations and the MCP tool list_obligations: the register of duties binding an entity
 * profile on a date, the duties a derogation or a rule of precedence lifts, the duties that turn on a
 * fact the profile does not state, and the acts whose scope does not reach it. The same engine decides
 * `acquis coverage` and an answer's applicability section.
 */

import { OBLIGATIONS_PAGE_BYTES, type ObligationsRequest } from "../contract/schemas.ts";
import { type Applicability, type Decision, decide } from "../obligations/applicability.ts";
import type { Profile } from "../obligations/profiles.ts";
import type { Engine } from "./context.ts";
import { ServiceError } from "./errors.ts";
import { atomCitation, resolve } from "./request.ts";

/** The engine's decision for a profile on a date, with the release's scope, tree and directive dates. */
export function register(e: Engine, profile: Profile, asOf: string): Applicability {
  const r = e.release;
  const acts = new Map(r.acts.map((a) => [a.id, a]));
  return decide(profile, asOf, r.atoms, r.taxonomy, r.derogations, {
    scope: r.scope,
    facts: r.facts,
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
    citation: atomCitation(e, d.atom, r.as_of),
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
  const head = {
    as_of: r.as_of,
    release: r.release,
    entity_profile: profile.id,
    entity_type: result.entity_type,
    binds: result.binds,
    derived: result.derived,
    counts: result.counts,
    out_of_scope: result.out_of_scope,
  };
  const stamps = { disclaimer: e.stamps.disclaimer, verification: e.stamps.verification };
  const lists = {
    applicable: result.applicable.map(item),
    excluded: result.excluded.map(item),
    undetermined: result.undetermined.map(item),
  };
  if (req.offset === undefined && req.limit === undefined) return { ...head, ...lists, ...stamps };
  return {
    ...head,
    ...page(lists, req.offset ?? 0, req.limit ?? 1000, bytesOf({ ...head, ...stamps })),
    ...stamps,
  };
}

const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
/** Room the page's own fields and the JSON between items take, beside the items. */
const PAGE_OVERHEAD = 512;

/**
 * One page of the register: the items from `offset` in the order applicable, excluded, undetermined,
 * at most `limit` of them and never more than OBLIGATIONS_PAGE_BYTES with the rest of the payload (at
 * least one item, however large, so paging always advances). The page is a function of the release and
 * the request, so the same offset gives the same page on every instance.
 */
function page<T>(
  lists: { applicable: T[]; excluded: T[]; undetermined: T[] },
  offset: number,
  limit: number,
  headBytes: number,
) {
  const all = [
    ...lists.applicable.map((x) => ["applicable", x] as const),
    ...lists.excluded.map((x) => ["excluded", x] as const),
    ...lists.undetermined.map((x) => ["undetermined", x] as const),
  ];
  const out = { applicable: [] as T[], excluded: [] as T[], undetermined: [] as T[] };
  let used = headBytes + PAGE_OVERHEAD;
  let end = offset;
  while (end < all.length && end - offset < limit) {
    const [list, x] = all[end] as (typeof all)[number];
    const size = bytesOf(x) + 1;
    if (end > offset && used + size > OBLIGATIONS_PAGE_BYTES) break;
    used += size;
    out[list].push(x);
    end++;
  }
  return {
    ...out,
    page: {
      offset,
      limit,
      items: end - offset,
      total: all.length,
      next_offset: end < all.length ? end : null,
    },
  };
}
