/**
 * The diff manifest (`<tag>.diff.json`): what changed against the previous release. Unit changes are
 * listed here; atom changes join them when the obligations engine lands (issue [2/7]).
 */
import type { Unit } from "../canon/model.ts";

export interface UnitChange {
  kind: "unit";
  change: "added" | "changed" | "removed";
  node: string;
  act: string;
  eid: string;
  citation: string;
  /** The fields that differ, for a changed unit. */
  fields?: string[];
  before?: UnitSnapshot | null;
  after?: UnitSnapshot | null;
}

export interface UnitSnapshot {
  heading: string | null;
  own_text: string;
  valid_from: string;
  valid_to: string | null;
}

export interface DiffManifest {
  schema_version: 1;
  regime: string;
  tag: string;
  /** The tag this manifest is measured from; null for a first release. */
  from: string | null;
  counts: { added: number; changed: number; removed: number };
  changes: UnitChange[];
}

const COMPARED = ["heading", "own_text", "valid_from", "valid_to"] as const;

function snapshot(u: Unit): UnitSnapshot {
  return { heading: u.heading, own_text: u.own_text, valid_from: u.valid_from, valid_to: u.valid_to };
}

export function diffUnits(
  regime: string,
  tag: string,
  from: string | null,
  before: Unit[],
  after: Unit[],
): DiffManifest {
  const old = new Map(before.map((u) => [u.node, u]));
  const now = new Map(after.map((u) => [u.node, u]));
  const changes: UnitChange[] = [];
  for (const u of after) {
    const prev = old.get(u.node);
    if (!prev) {
      changes.push({
        kind: "unit",
        change: "added",
        node: u.node,
        act: u.act,
        eid: u.eid,
        citation: u.citation,
        before: null,
        after: snapshot(u),
      });
      continue;
    }
    const fields = COMPARED.filter((f) => prev[f] !== u[f]);
    if (fields.length > 0) {
      changes.push({
        kind: "unit",
        change: "changed",
        node: u.node,
        act: u.act,
        eid: u.eid,
        citation: u.citation,
        fields: [...fields],
        before: snapshot(prev),
        after: snapshot(u),
      });
    }
  }
  for (const u of before) {
    if (!now.has(u.node)) {
      changes.push({
        kind: "unit",
        change: "removed",
        node: u.node,
        act: u.act,
        eid: u.eid,
        citation: u.citation,
        before: snapshot(u),
        after: null,
      });
    }
  }
  changes.sort((x, y) => (x.node < y.node ? -1 : x.node > y.node ? 1 : 0));
  const counts = { added: 0, changed: 0, removed: 0 };
  for (const c of changes) counts[c.change]++;
  return { schema_version: 1, regime, tag, from, counts, changes };
}
