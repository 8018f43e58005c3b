/** What every operation resolves the same way: the date, the release, and citations into them. */
import type { Unit } from "../canon/model.ts";
import type { ReleasedAtom } from "../obligations/release-atoms.ts";
import type { Engine } from "./context.ts";
import { ServiceError } from "./errors.ts";

export interface Resolved {
  as_of: string;
  as_of_defaulted: boolean;
  release: string;
  release_defaulted: boolean;
}

/** YYYY-MM-DD naming a day the calendar has (Date.parse rolls 2026-02-30 over into March). */
export function isCalendarDate(d: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(d);
  if (!m) return false;
  const [y, mo, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, day));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === day;
}

/** `release` names the served tag, or `<regime>@<tag>`; anything else is another release. */
export function resolve(e: Engine, req: { as_of?: string; release?: string }, defaultAsOf: string): Resolved {
  if (req.release !== undefined && req.release !== e.tag && req.release !== `${e.regime}@${e.tag}`) {
    throw new ServiceError(
      "release_mismatch",
      `this instance serves ${e.regime}@${e.tag}, not "${req.release}"`,
    );
  }
  if (req.as_of !== undefined && !isCalendarDate(req.as_of)) {
    throw new ServiceError("invalid_request", `as_of: "${req.as_of}" is not a calendar date`);
  }
  return {
    as_of: req.as_of ?? defaultAsOf,
    as_of_defaulted: req.as_of === undefined,
    release: e.tag,
    release_defaulted: req.release === undefined,
  };
}

/**
 * The citation a block carries, as the engine makes it (the contract's Citation with every member set):
 * enough to follow the block to its eId, atom, act and release.
 */
export interface BlockCitation {
  release: string;
  as_of: string;
  /** How a person cites it: "Article 33(1) GDPR". */
  label: string;
  atom: string | null;
  eid: string | null;
  node: string | null;
  work_iri: string | null;
  expression_iri: string | null;
  valid_from: string | null;
  valid_to: string | null;
  /** A directive's provision binds firms only as transposed into national law. */
  binding?: "through national law";
  transposition_deadline?: string;
}

export function unitCitation(e: Engine, u: Unit, asOf: string): BlockCitation {
  const act = e.actsById.get(u.act);
  return {
    release: e.tag,
    as_of: asOf,
    label: u.citation,
    atom: null,
    eid: u.eid,
    node: u.node,
    work_iri: act?.work_iri ?? null,
    expression_iri: act?.expression_iri ?? null,
    valid_from: u.valid_from,
    valid_to: u.valid_to,
    ...directive(u),
  };
}

/** What a citation of a directive's provision adds: it binds through national law, transposed by a date. */
function directive(u: Unit | undefined): Partial<Pick<BlockCitation, "binding" | "transposition_deadline">> {
  return u?.binding ? { binding: u.binding, transposition_deadline: u.transposition_deadline as string } : {};
}

/** What a citation of an atom reads: its id, where it is written, and its dates. */
export type CitedAtom = Pick<ReleasedAtom, "id" | "act" | "unit_eid" | "node" | "effective" | "expires">;

export function atomCitation(e: Engine, a: CitedAtom, asOf: string): BlockCitation {
  const act = e.actsById.get(a.act);
  return {
    release: e.tag,
    as_of: asOf,
    label: e.release.byNode.get(a.node)?.citation ?? a.node,
    atom: a.id,
    eid: a.unit_eid,
    node: a.node,
    work_iri: act?.work_iri ?? null,
    expression_iri: act?.expression_iri ?? null,
    valid_from: a.effective,
    valid_to: a.expires,
    ...directive(e.release.byNode.get(a.node)),
  };
}
