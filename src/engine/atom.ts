/**
 * POST /v1/atom and the MCP tool get_atom: the duty an atom id names as it stood on a date, with the
 * unit it is written into. An id the release does not hold, or that states no duty on that date, is
 * not found: an atom that is pending or has lapsed is not a duty on that day.
 */

import type { AtomRequest } from "../contract/schemas.ts";
import { atomStatus } from "../obligations/applicability.ts";
import type { Engine } from "./context.ts";
import { ServiceError } from "./errors.ts";
import { resolve } from "./request.ts";
import { unitView } from "./unit.ts";

export function getAtom(e: Engine, req: AtomRequest, defaultAsOf: string) {
  const r = resolve(e, req, defaultAsOf);
  const a = e.atomsById.get(req.atom_id);
  if (!a) throw new ServiceError("not_found", `no atom "${req.atom_id}" in ${e.regime}@${e.tag}`);
  const status = atomStatus(a, r.as_of);
  if (status !== "in_force") {
    const when =
      status === "pending" ? `it applies from ${a.effective}` : `it ceased to apply on ${a.expires}`;
    throw new ServiceError(
      "not_found",
      `atom "${req.atom_id}" states no duty in force on ${r.as_of}: ${when}`,
    );
  }
  const unit = e.release.byNode.get(a.node);
  const executable = a.executable_name
    ? `${a.executable_name} = ${JSON.stringify(a.executable_value)} ${a.executable_unit}`
    : null;
  return {
    as_of: r.as_of,
    release: r.release,
    atom: {
      id: a.id,
      unit_eid: a.unit_eid,
      modality: a.modality,
      actor: a.actor,
      action: a.action,
      status,
      applies_to: a.applies_to,
      effective: a.effective,
      expires: a.expires,
      quoted_text: a.quoted_text,
      source: unit?.citation ?? a.node,
      executable_name: a.executable_name,
      executable_unit: a.executable_unit,
      executable_value: a.executable_value,
      citation: {
        release: r.release,
        as_of: r.as_of,
        unit_eid: a.unit_eid,
        quoted_text: a.quoted_text,
        char_start: a.char_start,
        char_end: a.char_end,
        executable,
        source: unit?.citation ?? a.node,
      },
    },
    unit: unit ? unitView(e, unit, r.as_of) : null,
    notes: a.lead_in
      ? [`This duty completes the lead-in of ${e.release.byNode.get(a.lead_in)?.citation ?? a.lead_in}.`]
      : [],
    disclaimer: e.stamps.disclaimer,
    verification: e.stamps.verification,
  };
}
