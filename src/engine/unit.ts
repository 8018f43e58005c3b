/**
 * POST /v1/unit and the MCP tool get_unit: the version of a provision in force on a date, every
 * version the release holds, and the atoms anchored to it. An eId that names units of several acts is
 * refused rather than resolved by choice.
 */
import type { Unit } from "../canon/model.ts";
import type { UnitRequest } from "../contract/schemas.ts";
import { atomStatus } from "../obligations/applicability.ts";
import { type Engine, inForce } from "./context.ts";
import { ServiceError } from "./errors.ts";
import { atomCitation, resolve, unitCitation } from "./request.ts";

/**
 * An answer's blocks name units by node ("gdpr/art_33__para_1"): as an eId, a node stands for its eId
 * in the act it names, so every id an answer hands out can be read here.
 */
function byNode(e: Engine, req: UnitRequest): UnitRequest {
  const slash = req.eid.indexOf("/");
  if (slash < 0) return req;
  const act = e.actsById.get(req.eid.slice(0, slash));
  if (!act)
    throw new ServiceError("not_found", `no act "${req.eid.slice(0, slash)}" in ${e.regime}@${e.tag}`);
  if (req.work_iri !== undefined && req.work_iri !== act.work_iri)
    throw new ServiceError("invalid_request", `node ${req.eid} is in ${act.work_iri}, not ${req.work_iri}`);
  return { ...req, eid: req.eid.slice(slash + 1), work_iri: act.work_iri };
}

export function unitView(e: Engine, u: Unit, asOf: string) {
  const act = e.actsById.get(u.act);
  return {
    node: u.node,
    eid: u.eid,
    provision: u.citation,
    text: u.text,
    own_text: u.own_text,
    shown: u.text,
    citation: unitCitation(e, u, asOf),
    celex: act?.celex ?? null,
    expression_iri: act?.expression_iri ?? "",
    jurisdiction: act?.jurisdiction ?? "",
    language: act?.language ?? "",
    work_iri: act?.work_iri ?? "",
    nested: u.parent !== null,
    valid_from: u.valid_from,
    valid_to: u.valid_to,
    // Acts outside the corpus that moved this unit's date or changed its text (docs/formats.md).
    ...(u.amended_by ? { amended_by: u.amended_by } : {}),
    ...(u.binding ? { binding: u.binding, transposition_deadline: u.transposition_deadline } : {}),
    // The source lost this unit's text or heading; the unit is kept so that citations of it resolve.
    ...(u.lost_in_source ? { lost_in_source: u.lost_in_source } : {}),
  };
}

export function getUnit(e: Engine, given: UnitRequest, defaultAsOf: string) {
  const req = byNode(e, given);
  const r = resolve(e, req, defaultAsOf);
  const inAct = (us: Unit[]) =>
    req.work_iri === undefined ? us : us.filter((u) => e.actsById.get(u.act)?.work_iri === req.work_iri);
  let candidates = inAct(e.unitsByEid.get(req.eid) ?? []);
  // An eId a parsing repair retired still finds its unit, unless a unit bears that eId now.
  const renamed = candidates.length === 0 ? inAct(e.unitsByAlias.get(req.eid) ?? []) : [];
  if (renamed.length > 0) candidates = renamed;
  if (candidates.length === 0) {
    const where = req.work_iri ? ` in ${req.work_iri}` : "";
    throw new ServiceError("not_found", `no unit with eId "${req.eid}"${where} in ${e.regime}@${e.tag}`);
  }
  const acts = [...new Set(candidates.map((u) => u.act))];
  if (acts.length > 1) {
    const iris = acts.map((a) => e.actsById.get(a)?.work_iri).join(", ");
    throw new ServiceError(
      "invalid_request",
      `eId "${req.eid}" names units of ${acts.length} acts; pass work_iri, one of: ${iris}`,
    );
  }
  const current = candidates.find((u) => inForce(u, r.as_of)) ?? null;
  const shown = current ?? (candidates[0] as Unit);
  const notes: string[] = [];
  if (renamed.length > 0)
    notes.push(
      `${req.eid} is the eId ${shown.citation} had before a parsing repair renamed it; it is ${shown.eid} now.`,
    );
  if (shown.lost_in_source)
    notes.push(
      `The source lost the text of ${shown.citation} (${shown.lost_in_source}); the release has no text for it. Read it in the Official Journal.`,
    );
  if (!current) {
    notes.push(
      shown.valid_from > r.as_of
        ? `${shown.citation} does not apply on ${r.as_of}: it applies from ${shown.valid_from}.`
        : `${shown.citation} no longer applies on ${r.as_of}: it ceased to apply on ${shown.valid_to}.`,
    );
  }
  for (const m of shown.amended_by ?? [])
    if (m.what === "text")
      notes.push(
        `The text of ${shown.citation} here is the text as adopted; ${m.title} (${m.provision}) amended it in substance, so the law in force reads differently.`,
      );
  const atoms = (e.atomsByNode.get(shown.node) ?? []).map((a) => ({
    id: a.id,
    modality: a.modality,
    actor: a.actor,
    action: a.action,
    status: atomStatus(a, r.as_of),
    quoted_text: a.quoted_text,
    citation: atomCitation(e, a, r.as_of),
  }));
  return {
    as_of: r.as_of,
    release: r.release,
    in_force: current !== null,
    unit: unitView(e, shown, r.as_of),
    versions: candidates.map((u) => ({
      node: u.node,
      valid_from: u.valid_from,
      valid_to: u.valid_to,
      in_force: inForce(u, r.as_of),
    })),
    atoms,
    notes,
    disclaimer: e.stamps.disclaimer,
    verification: e.stamps.verification,
  };
}
