/**
 * The data-quality report: every repair the canon step made to a source and every defect it left.
 * Nothing the parser changes or drops goes unrecorded; `quality.json` in a release is this report.
 */

export interface QualityEntry {
  kind: string;
  eid: string | null;
  detail: string;
}

export interface ActQuality {
  act: string;
  repairs: QualityEntry[];
  defects: QualityEntry[];
}

export class QualityLog {
  readonly act: string;
  readonly repairs: QualityEntry[] = [];
  readonly defects: QualityEntry[] = [];

  constructor(act: string) {
    this.act = act;
  }

  repair(kind: string, eid: string | null, detail: string): void {
    this.repairs.push({ kind, eid, detail });
  }

  defect(kind: string, eid: string | null, detail: string): void {
    this.defects.push({ kind, eid, detail });
  }

  toJSON(): ActQuality {
    return { act: this.act, repairs: this.repairs, defects: this.defects };
  }
}

/** Counts by kind, sorted by kind, for summaries. */
export function countByKind(entries: QualityEntry[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
