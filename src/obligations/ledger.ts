/**
 * The atom ledger (`regimes/<regime>/atoms.lock`): permanent, opaque ids for atoms.
 *
 * An id is minted from the regime and a serial that only grows, hashed, so nothing about a provision
 * can be read from it and no id is ever reused. `sync` carries ids across canon changes by matching,
 * in order (docs/obligations.md#ledger):
 *   1. same anchor (unit node and position) and same text;
 *   2. same text elsewhere in the same act (the unit was renumbered or moved);
 *   3. same anchor, text edited (at least a third of its words shared);
 *   4. same act, text nearly the same (nine tenths of words shared): renumbered and edited.
 * What matches nothing is minted; a ledger entry nothing matches is retired, never deleted.
 */
import { createHash } from "node:crypto";
import type { Atom } from "./atoms.ts";

export interface LedgerEntry {
  id: string;
  act: string;
  key: string;
  fingerprint: string;
  /** The quoted text the id was last matched to, whitespace collapsed (for matching edits). */
  text: string;
  status: "active" | "retired";
  /** A retired entry whose duty is now stated by another atom (two duplicates became one). */
  merged_into?: string;
}

export interface Ledger {
  schema_version: 1;
  regime: string;
  /**
   * The extraction rules the ids were matched under (docs/obligations.md#extraction-rules); absent in
   * ledgers written before rule sets were numbered, which read as 1. A commit's ledger names the rules
   * its atoms come from, so an older tag rebuilds with the rules it was built with.
   */
  extraction?: number;
  next_serial: number;
  atoms: LedgerEntry[];
}

export interface SyncReport {
  kept: number;
  moved: number;
  edited: number;
  minted: number;
  retired: number;
}

export function emptyLedger(regime: string): Ledger {
  return { schema_version: 1, regime, next_serial: 1, atoms: [] };
}

export function mintId(regime: string, serial: number): string {
  const h = createHash("sha256").update(`acquis-atom:${regime}:${serial}`).digest();
  // 12 characters of Crockford base32 (60 bits): opaque, short enough to read aloud.
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  let out = "";
  for (let i = 0; i < 12; i++) out += alphabet[(h[i] as number) & 31];
  return `atm_${out}`;
}

function words(t: string): Set<string> {
  return new Set(
    t
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0),
  );
}

function overlap(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (x.size === 0 || y.size === 0) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return common / Math.max(x.size, y.size);
}

const norm = (t: string) => t.replace(/\s+/gu, " ").trim();

/** Match atoms to the ledger; returns the new ledger and the id of every atom key. */
export function sync(
  ledger: Ledger,
  atoms: Atom[],
  extraction?: number,
): { ledger: Ledger; ids: Map<string, string>; report: SyncReport } {
  const active = ledger.atoms.filter((e) => e.status === "active");
  const free = new Set(active);
  const ids = new Map<string, string>();
  const matched = new Map<string, LedgerEntry>();
  const report: SyncReport = { kept: 0, moved: 0, edited: 0, minted: 0, retired: 0 };
  const take = (a: Atom, e: LedgerEntry, kind: keyof SyncReport) => {
    free.delete(e);
    ids.set(a.key, e.id);
    matched.set(a.key, e);
    report[kind]++;
  };
  const byKey = new Map(active.map((e) => [e.key, e]));
  const pending: Atom[] = [];
  for (const a of atoms) {
    const e = byKey.get(a.key);
    if (e && free.has(e) && e.fingerprint === a.fingerprint) take(a, e, "kept");
    else pending.push(a);
  }
  const byPrint = new Map<string, LedgerEntry[]>();
  for (const e of free) {
    const k = `${e.act} ${e.fingerprint}`;
    byPrint.set(k, [...(byPrint.get(k) ?? []), e]);
  }
  const rest: Atom[] = [];
  for (const a of pending) {
    const e = byPrint.get(`${a.act} ${a.fingerprint}`)?.find((x) => free.has(x));
    if (e) take(a, e, "moved");
    else rest.push(a);
  }
  const last: Atom[] = [];
  for (const a of rest) {
    const e = byKey.get(a.key);
    if (e && free.has(e) && overlap(e.text, a.quoted_text) >= 1 / 3) take(a, e, "edited");
    else last.push(a);
  }
  const freeByAct = new Map<string, LedgerEntry[]>();
  for (const e of free) freeByAct.set(e.act, [...(freeByAct.get(e.act) ?? []), e]);
  let serial = ledger.next_serial;
  for (const a of last) {
    const e = freeByAct.get(a.act)?.find((x) => free.has(x) && overlap(x.text, a.quoted_text) >= 0.9);
    if (e) {
      take(a, e, "edited");
      continue;
    }
    const id = mintId(ledger.regime, serial++);
    ids.set(a.key, id);
    report.minted++;
  }
  const entries: LedgerEntry[] = [];
  for (const a of atoms) {
    entries.push({
      id: ids.get(a.key) as string,
      act: a.act,
      key: a.key,
      fingerprint: a.fingerprint,
      text: norm(a.quoted_text),
      status: "active",
    });
  }
  // A duty that was extracted twice and is now one atom: the retired id names the one that stays.
  const kept = new Map(atoms.map((a) => [`${a.node} ${a.fingerprint}`, ids.get(a.key) as string]));
  for (const e of ledger.atoms) {
    if (e.status === "retired" || free.has(e)) {
      if (e.status === "active") report.retired++;
      const into =
        e.status === "active"
          ? kept.get(`${e.key.slice(0, e.key.lastIndexOf("#"))} ${e.fingerprint}`)
          : undefined;
      entries.push({ ...e, status: "retired", ...(into ? { merged_into: into } : {}) });
    }
  }
  entries.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const rules = extraction ?? ledger.extraction;
  return {
    ledger: {
      schema_version: 1,
      regime: ledger.regime,
      ...(rules !== undefined ? { extraction: rules } : {}),
      next_serial: serial,
      atoms: entries,
    },
    ids,
    report,
  };
}

/** Whether the ledger already names every atom exactly (what `acquis build` requires). */
export function staleness(
  ledger: Ledger,
  atoms: Atom[],
): { missing: number; changed: number; removed: number } {
  const active = new Map(ledger.atoms.filter((e) => e.status === "active").map((e) => [e.key, e]));
  let missing = 0;
  let changed = 0;
  const seen = new Set<string>();
  for (const a of atoms) {
    const e = active.get(a.key);
    if (!e) missing++;
    else if (e.fingerprint !== a.fingerprint) changed++;
    seen.add(a.key);
  }
  let removed = 0;
  for (const k of active.keys()) if (!seen.has(k)) removed++;
  return { missing, changed, removed };
}

export function serialiseLedger(l: Ledger): string {
  // One entry per line: diffs of the committed file stay readable.
  const head = {
    schema_version: l.schema_version,
    regime: l.regime,
    ...(l.extraction !== undefined ? { extraction: l.extraction } : {}),
    next_serial: l.next_serial,
  };
  const lines = l.atoms.map((e) =>
    JSON.stringify({
      id: e.id,
      status: e.status,
      act: e.act,
      key: e.key,
      fingerprint: e.fingerprint,
      text: e.text,
      ...(e.merged_into ? { merged_into: e.merged_into } : {}),
    }),
  );
  return `${JSON.stringify(head).slice(0, -1)},"atoms":[\n${lines.join(",\n")}\n]}\n`;
}

export function parseLedger(text: string, where: string): Ledger {
  let l: Ledger;
  try {
    l = JSON.parse(text) as Ledger;
  } catch (e) {
    throw new Error(`${where}: not valid JSON: ${(e as Error).message}`);
  }
  if (l.schema_version !== 1 || !Array.isArray(l.atoms) || typeof l.next_serial !== "number") {
    throw new Error(`${where}: not an atom ledger (schema_version 1 with atoms and next_serial)`);
  }
  return l;
}
