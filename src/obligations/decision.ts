/**
 * What the applicability engine decides and from what (docs/obligations.md#applicability): the atom as
 * the engine reads it, a decision with its reasons, the register's shape, and the canon it decides with.
 * How it decides is applicability.ts.
 */
import type { Atom } from "./atoms.ts";
import type { FactSchema } from "./facts.ts";
import type { Derogation } from "./profiles.ts";
import type { Scope } from "./scope.ts";
import type { Addressee, Taxonomy } from "./taxonomy.ts";

/** What the engine needs of an atom (the release's atoms.json carries it). */
export interface BindingAtom
  extends Pick<
    Atom,
    | "node"
    | "act"
    | "unit_eid"
    | "modality"
    | "actor"
    | "action"
    | "quoted_text"
    | "char_start"
    | "char_end"
    | "effective"
    | "expires"
  > {
  id: string;
  applies_to: string[];
  status_basis?: "deleted" | null;
  /** Absent in releases built before addressees were recorded: read as a regulated party's duty. */
  addressee?: Addressee;
  through_national_law?: string[] | null;
  owed_by?: string[] | null;
}

export type AtomStatus = "in_force" | "pending" | "lapsed" | "deprecated";

export function atomStatus(
  a: Pick<BindingAtom, "effective" | "expires" | "status_basis">,
  date: string,
): AtomStatus {
  if (a.expires !== null && date >= a.expires) return a.status_basis === "deleted" ? "deprecated" : "lapsed";
  return date < a.effective ? "pending" : "in_force";
}

export interface DerogationRef {
  id: string;
  kind: "derogation" | "lex_specialis";
  derogating_node: string;
  derogating_eid: string;
  disapplied_node: string;
  disapplied_eid: string;
  exempted_types: string[];
}

export interface Modification {
  id: string;
  provision: string;
  change: string;
}

export type RegisterStatus = "applicable" | "excluded" | "undetermined";

/** Why an item has its status: what a compliance officer checks before signing. */
export interface Reasons {
  scope: { provision: string; reason: string }[];
  entity_types: string[];
  facts: string[];
  /** The item is the duty owed under a right the text grants another ("the right to obtain from the controller"). */
  correlative: boolean;
  through_national_law: {
    directive: string;
    national_law_from: string | null;
    provision: string | null;
    /** The date by which Member States had to transpose the directive, and the article saying so. */
    transposition_deadline?: string;
    transposition_provision?: string;
  } | null;
  modified_by: Modification[];
  excluded_by: { provision: string; kind: string; rule: string } | null;
  undetermined_by: { provision: string; facts: string[] } | null;
}

export interface Decision {
  atom: BindingAtom;
  status: RegisterStatus;
  applicable: boolean;
  basis: string;
  note: string;
  derogation: DerogationRef | null;
  reasons: Reasons;
}

export interface OutOfScope {
  act: string;
  nodes: string[];
  rule: string;
  provision: string;
  reason: string;
}

export interface Applicability {
  entity_profile: string;
  entity_type: string;
  binds: string[];
  as_of: string;
  derived: string[];
  applicable: Decision[];
  excluded: Decision[];
  undetermined: Decision[];
  out_of_scope: OutOfScope[];
  counts: {
    applicable: number;
    excluded: number;
    undetermined: number;
    by_act: Record<string, { applicable: number; excluded: number; undetermined: number }>;
  };
}

/** The canon the engine decides with. */
export interface Rules {
  taxonomy: Taxonomy;
  derogations: Derogation[];
  scope: Scope;
  /** For a directive: the date its national measures apply from, and the provision that says so. */
  transposition?: (
    act: string,
  ) => { date: string; provision: string; deadline: string | null; deadline_provision: string | null } | null;
  /** A unit's ancestors, nearest first, ending with its act's id. */
  ancestry?: (node: string) => string[];
  /** The regime's fact schema: the facts the law ties to a type (`implied_by_types`). */
  facts?: FactSchema | null;
}
