/**
 * The quality baseline (`regimes/<regime>/quality-baseline.yaml`): how many findings of each check and
 * each logged defect kind a release may have, and why each one left is left. The build compares the
 * release's report with it and refuses a release in which any count grew, so a parser change that
 * brings a defect back, or a new source with a new defect, cannot land unnoticed.
 */
import { isMap, isScalar, LineCounter, parseDocument } from "yaml";
import { CHECKS } from "./checks.ts";

export interface Allowance {
  count: number;
  /** Why the findings left are left (required when count > 0). */
  why?: string;
}

export interface QualityBaseline {
  /** Check id -> allowance; a check the file does not name allows 0. */
  checks: Record<string, Allowance>;
  /** Logged defect kind (quality.json `acts[].defects[].kind`) -> allowance; unnamed kinds allow 0. */
  defects: Record<string, Allowance>;
}

export class BaselineError extends Error {}

export const BASELINE_FILE = "quality-baseline.yaml";

const CHECK_IDS = new Set(CHECKS.map((c) => c.id));

export function parseBaseline(text: string, file: string): QualityBaseline {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (doc.errors.length > 0) throw new BaselineError(`${file}: ${doc.errors[0]?.message}`);
  const at = (node: unknown) => {
    const range = (node as { range?: [number, number] } | null)?.range;
    return range ? `${file}:${lines.linePos(range[0]).line}` : file;
  };
  const root = doc.contents;
  if (!isMap(root)) throw new BaselineError(`${file}: expected a mapping with checks: and defects:`);
  const out: QualityBaseline = { checks: {}, defects: {} };
  for (const pair of root.items) {
    const section = isScalar(pair.key) ? String(pair.key.value) : "";
    if (section !== "checks" && section !== "defects")
      throw new BaselineError(`${at(pair.key)}: unknown key "${section}" (allowed: checks, defects)`);
    // "checks:" with nothing under it: the yaml library gives a null scalar, not null.
    if (pair.value === null || (isScalar(pair.value) && pair.value.value === null)) continue;
    if (!isMap(pair.value)) throw new BaselineError(`${at(pair.value)}: ${section} must be a mapping`);
    for (const entry of pair.value.items) {
      const id = isScalar(entry.key) ? String(entry.key.value) : "";
      if (section === "checks" && !CHECK_IDS.has(id))
        throw new BaselineError(
          `${at(entry.key)}: checks.${id} is not a check (known: ${[...CHECK_IDS].sort().join(", ")})`,
        );
      const value = (entry.value as { toJSON(): unknown } | null)?.toJSON() as Record<string, unknown> | null;
      const where = `${at(entry.key)}: ${section}.${id}`;
      if (value === null || typeof value !== "object" || Array.isArray(value))
        throw new BaselineError(`${where} must be a mapping with count: and why:`);
      for (const k of Object.keys(value))
        if (k !== "count" && k !== "why")
          throw new BaselineError(`${where}: unknown key "${k}" (allowed: count, why)`);
      const { count, why } = value;
      if (typeof count !== "number" || !Number.isInteger(count) || count < 0)
        throw new BaselineError(`${where}.count must be a whole number ≥ 0, not ${JSON.stringify(count)}`);
      if (why !== undefined && (typeof why !== "string" || why.trim() === ""))
        throw new BaselineError(`${where}.why must be a sentence`);
      if (count > 0 && why === undefined)
        throw new BaselineError(
          `${where}: a count above 0 needs why: (what is left, and why it is not repaired)`,
        );
      out[section][id] = why === undefined ? { count } : { count, why };
    }
  }
  return out;
}

export interface Excess {
  what: string;
  count: number;
  allowed: number;
  examples: string[];
}

/** Every check and defect kind whose count exceeds what the baseline allows. */
export function excesses(
  baseline: QualityBaseline,
  checks: { check: string; count: number; examples: { node: string; detail: string }[] }[],
  defects: { act: string; kind: string; eid: string | null; detail: string }[],
): Excess[] {
  const out: Excess[] = [];
  for (const c of checks) {
    const allowed = baseline.checks[c.check]?.count ?? 0;
    if (c.count > allowed)
      out.push({
        what: `check ${c.check}`,
        count: c.count,
        allowed,
        examples: c.examples.map((e) => `${e.node}: ${e.detail}`),
      });
  }
  const byKind = new Map<string, typeof defects>();
  for (const d of defects) byKind.set(d.kind, [...(byKind.get(d.kind) ?? []), d]);
  for (const [kind, list] of [...byKind].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const allowed = baseline.defects[kind]?.count ?? 0;
    if (list.length > allowed)
      out.push({
        what: `defect ${kind}`,
        count: list.length,
        allowed,
        examples: list.slice(0, 5).map((d) => `${d.act}/${d.eid ?? "(act)"}: ${d.detail}`),
      });
  }
  return out;
}
