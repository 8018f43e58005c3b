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
 * Between 2 and 3, an atom whose exact text a retired entry of the same act holds (not one merged into
 * another) takes that id back: the same duty, read again after a rule had set it aside, is the duty
 * subscribers already know, not a new one.
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
  /** Retired entries whose duty is read again, under their old id. */
  reinstated: number;
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
  const m = matched(ledger, atoms);
  const entries = [...activeEntries(atoms, m.ids), ...retiredEntries(ledger, atoms, m)];
  entries.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const rules = extraction ?? ledger.extraction;
  return {
    ledger: {
      schema_version: 1,
      regime: ledger.regime,
      ...(rules !== undefined ? { extraction: rules } : {}),
      next_serial: m.serial,
      atoms: entries,
    },
    ids: m.ids,
    report: m.report,
  };
}

/** What matching decided: the id of every atom key, the active entries nothing matched, the counts. */
interface Matching {
  ids: Map<string, string>;
  free: Set<LedgerEntry>;
  report: SyncReport;
  /** The serial the next minted id would take. */
  serial: number;
  /** The retired entries step 2b took back. */
  reinstated: Set<LedgerEntry>;
}

/**
 * The four matches in order, each on the atoms the ones before left (the order of the module's
 * comment); an atom nothing matches is minted a new id.
 */
function matched(ledger: Ledger, atoms: Atom[]): Matching {
  const active = ledger.atoms.filter((e) => e.status === "active");
  const free = new Set(active);
  const m: Matching = {
    ids: new Map(),
    free,
    report: { kept: 0, moved: 0, edited: 0, minted: 0, retired: 0, reinstated: 0 },
    serial: ledger.next_serial,
    reinstated: new Set(),
  };
  const take = (a: Atom, e: LedgerEntry, kind: keyof SyncReport) => {
    free.delete(e);
    m.ids.set(a.key, e.id);
    m.report[kind]++;
  };
  /** One match: the atoms it takes an entry for are matched, the rest are returned for the next. */
  const match = (list: Atom[], kind: keyof SyncReport, find: (a: Atom) => LedgerEntry | undefined) => {
    const rest: Atom[] = [];
    for (const a of list) {
      const e = find(a);
      if (e) take(a, e, kind);
      else rest.push(a);
    }
    return rest;
  };
  const byKey = new Map(active.map((e) => [e.key, e]));
  const sameAnchor = (a: Atom) => {
    const e = byKey.get(a.key);
    return e && free.has(e) ? e : undefined;
  };
  // 1. Same anchor, same text.
  const notKept = match(atoms, "kept", (a) => {
    const e = sameAnchor(a);
    return e?.fingerprint === a.fingerprint ? e : undefined;
  });
  // 2. Same text elsewhere in the act: renumbered or moved.
  const byPrint = grouped(free, (e) => `${e.act} ${e.fingerprint}`);
  const notMoved = match(notKept, "moved", (a) =>
    byPrint.get(`${a.act} ${a.fingerprint}`)?.find((x) => free.has(x)),
  );
  // 2b. The same text a retired entry of the act holds, its own anchor first: the duty read again.
  const retired = grouped(
    ledger.atoms.filter((e) => e.status === "retired" && e.merged_into === undefined),
    (e) => `${e.act} ${e.fingerprint}`,
  );
  const notReinstated = match(notMoved, "reinstated", (a) => {
    const candidates = (retired.get(`${a.act} ${a.fingerprint}`) ?? []).filter((e) => !m.reinstated.has(e));
    const e = candidates.find((x) => x.key === a.key) ?? candidates[0];
    if (e) m.reinstated.add(e);
    return e;
  });
  // 3. Same anchor, text edited.
  const notEdited = match(notReinstated, "edited", (a) => {
    const e = sameAnchor(a);
    return e && overlap(e.text, a.quoted_text) >= 1 / 3 ? e : undefined;
  });
  // 4. Same act, text nearly the same: renumbered and edited; or else a new id.
  const freeByAct = grouped(free, (e) => e.act);
  for (const a of notEdited) {
    const e = freeByAct.get(a.act)?.find((x) => free.has(x) && overlap(x.text, a.quoted_text) >= 0.9);
    if (e) {
      take(a, e, "edited");
      continue;
    }
    m.ids.set(a.key, mintId(ledger.regime, m.serial++));
    m.report.minted++;
  }
  return m;
}

/** Entries grouped by a key, each group in the order given. */
function grouped(
  entries: Iterable<LedgerEntry>,
  key: (e: LedgerEntry) => string,
): Map<string, LedgerEntry[]> {
  const groups = new Map<string, LedgerEntry[]>();
  for (const e of entries) {
    const k = key(e);
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  return groups;
}

/** Every atom's entry, under the id matching gave it. */
function activeEntries(atoms: Atom[], ids: Map<string, string>): LedgerEntry[] {
  return atoms.map((a) => ({
    id: ids.get(a.key) as string,
    act: a.act,
    key: a.key,
    fingerprint: a.fingerprint,
    text: norm(a.quoted_text),
    status: "active",
  }));
}

/** The entries nothing matched, retired (and counted) beside those retired before: never deleted. */
function retiredEntries(ledger: Ledger, atoms: Atom[], m: Matching): LedgerEntry[] {
  // A duty that was extracted twice and is now one atom: the retired id names the one that stays.
  const kept = new Map(atoms.map((a) => [`${a.node} ${a.fingerprint}`, m.ids.get(a.key) as string]));
  const entries: LedgerEntry[] = [];
  for (const e of ledger.atoms) {
    if ((e.status === "retired" && !m.reinstated.has(e)) || m.free.has(e)) {
      if (e.status === "active") m.report.retired++;
      const into =
        e.status === "active"
          ? kept.get(`${e.key.slice(0, e.key.lastIndexOf("#"))} ${e.fingerprint}`)
          : undefined;
      entries.push({ ...e, status: "retired", ...(into ? { merged_into: into } : {}) });
    }
  }
  return entries;
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
