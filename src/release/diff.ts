/**
 * The diff manifest (`<tag>.diff.json`): what changed against the previous release. Every atom change
 * is classified substantive or editorial with the reason; unit changes are listed beside them.
 */
import canonicalize from "canonicalize";
import type { Unit } from "../canon/model.ts";
import type { ReleasedAtom } from "../obligations/release-atoms.ts";

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

export interface AtomChange {
  kind: "atom";
  atom: string;
  change: "added" | "changed" | "removed" | "deprecated";
  classification: "substantive" | "editorial";
  classification_basis: string;
  citation: { node: string; eid: string; quoted_text: string; char_start: number; char_end: number };
  detail: { before: AtomSnapshot | null; after: AtomSnapshot | null; instruction: Instruction };
}

export type AtomSnapshot = Omit<ReleasedAtom, "key" | "fingerprint">;

/** The canon change responsible: the canon commits compared and the source of the act before and after. */
export interface Instruction {
  from_commit: string | null;
  to_commit: string;
  act: string;
  source_changed: boolean;
  statement: string;
}

export interface DiffManifest {
  schema_version: 1;
  regime: string;
  tag: string;
  /** The tag this manifest is measured from; null for a first release. */
  from: string | null;
  counts: { atoms: Record<string, number>; units: { added: number; changed: number; removed: number } };
  changes: (AtomChange | UnitChange)[];
}

const COMPARED = ["heading", "own_text", "valid_from", "valid_to"] as const;

function snapshot(u: Unit): UnitSnapshot {
  return { heading: u.heading, own_text: u.own_text, valid_from: u.valid_from, valid_to: u.valid_to };
}

export interface DiffInput {
  regime: string;
  tag: string;
  commit: string;
  from: { tag: string; commit: string; units: Unit[]; atoms: ReleasedAtom[] } | null;
  units: Unit[];
  atoms: ReleasedAtom[];
}

export function diffRelease(input: DiffInput): DiffManifest {
  const unitChanges = diffUnits(input.from?.units ?? [], input.units);
  const atomChanges = diffAtoms(input);
  const counts = {
    atoms: { added: 0, changed: 0, removed: 0, deprecated: 0, substantive: 0, editorial: 0 } as Record<
      string,
      number
    >,
    units: { added: 0, changed: 0, removed: 0 },
  };
  for (const c of atomChanges) {
    counts.atoms[c.change] = (counts.atoms[c.change] ?? 0) + 1;
    counts.atoms[c.classification] = (counts.atoms[c.classification] ?? 0) + 1;
  }
  for (const c of unitChanges) counts.units[c.change]++;
  return {
    schema_version: 1,
    regime: input.regime,
    tag: input.tag,
    from: input.from?.tag ?? null,
    counts,
    changes: [...atomChanges, ...unitChanges],
  };
}

function diffUnits(before: Unit[], after: Unit[]): UnitChange[] {
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
  return changes.sort((x, y) => (x.node < y.node ? -1 : x.node > y.node ? 1 : 0));
}

function atomSnapshot(a: ReleasedAtom): AtomSnapshot {
  const { key: _key, fingerprint: _fp, ...rest } = a;
  return rest;
}

/** Text with punctuation and spacing removed: two texts equal here differ only editorially. */
const wording = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** Why a change matters, or that it does not: the first substantive difference found, else editorial. */
export function classify(
  before: ReleasedAtom,
  after: ReleasedAtom,
): { classification: "substantive" | "editorial"; basis: string } {
  if (before.modality !== after.modality)
    return {
      classification: "substantive",
      basis: `modality changed: ${before.modality} -> ${after.modality}`,
    };
  if (JSON.stringify(before.executable_value) !== JSON.stringify(after.executable_value)) {
    return {
      classification: "substantive",
      basis: `executable value ${before.executable_value ?? "none"} -> ${after.executable_value ?? "none"}${after.executable_unit ? ` ${after.executable_unit}` : ""}`,
    };
  }
  if (before.effective !== after.effective || before.expires !== after.expires) {
    return {
      classification: "substantive",
      basis: `dates changed: ${before.effective}..${before.expires ?? ""} -> ${after.effective}..${after.expires ?? ""}`,
    };
  }
  if (before.actor !== after.actor)
    return { classification: "substantive", basis: `actor changed: "${before.actor}" -> "${after.actor}"` };
  if (before.addressee !== undefined && before.addressee !== after.addressee)
    return {
      classification: "substantive",
      basis: `addressee changed: ${before.addressee} -> ${after.addressee}`,
    };
  if (before.applies_to.join() !== after.applies_to.join()) {
    return {
      classification: "substantive",
      basis: `applies to ${before.applies_to.join(", ") || "none"} -> ${after.applies_to.join(", ") || "none"}`,
    };
  }
  if (wording(before.quoted_text) !== wording(after.quoted_text))
    return { classification: "substantive", basis: "wording changed" };
  if (before.quoted_text !== after.quoted_text)
    return { classification: "editorial", basis: "whitespace and punctuation only" };
  return { classification: "editorial", basis: "renumbered or moved; text unchanged" };
}

function diffAtoms(input: DiffInput): AtomChange[] {
  const before = new Map((input.from?.atoms ?? []).map((a) => [a.id, a]));
  const after = new Map(input.atoms.map((a) => [a.id, a]));
  const instruction = (act: string, sourceChanged: boolean): Instruction => ({
    from_commit: input.from?.commit ?? null,
    to_commit: input.commit,
    act,
    source_changed: sourceChanged,
    statement: input.from
      ? `canon ${input.from.commit.slice(0, 12)} -> ${input.commit.slice(0, 12)}${sourceChanged ? `: the source text of ${act} changed` : ""}`
      : `first release, canon ${input.commit.slice(0, 12)}`,
  });
  const cite = (a: ReleasedAtom) => ({
    node: a.node,
    eid: a.unit_eid,
    quoted_text: a.quoted_text,
    char_start: a.char_start,
    char_end: a.char_end,
  });
  const out: AtomChange[] = [];
  for (const a of input.atoms) {
    const b = before.get(a.id);
    if (!b) {
      out.push({
        kind: "atom",
        atom: a.id,
        change: "added",
        classification: "substantive",
        classification_basis: input.from ? "new duty" : "first release: every atom is added",
        citation: cite(a),
        detail: {
          before: null,
          after: atomSnapshot(a),
          instruction: instruction(a.act, input.from !== null),
        },
      });
      continue;
    }
    const deprecated = a.status_basis === "deleted" && b.status_basis !== "deleted";
    // Compare canonical forms: the previous release's atoms were read back from canonical JSON.
    // A field the previous release did not record yet (an atom's addressee, say) is not a change of
    // the duty: compare only what both releases record.
    const recorded = (x: AtomSnapshot) => Object.fromEntries(Object.entries(x).filter(([k]) => k in b));
    if (!deprecated && canonicalize(recorded(atomSnapshot(a))) === canonicalize(atomSnapshot(b))) continue;
    const c = deprecated
      ? { classification: "substantive" as const, basis: `deleted with effect from ${a.expires}` }
      : classify(b, a);
    out.push({
      kind: "atom",
      atom: a.id,
      change: deprecated ? "deprecated" : "changed",
      classification: c.classification,
      classification_basis: c.basis,
      citation: cite(a),
      detail: {
        before: atomSnapshot(b),
        after: atomSnapshot(a),
        instruction: instruction(a.act, b.fingerprint !== a.fingerprint),
      },
    });
  }
  for (const b of input.from?.atoms ?? []) {
    if (after.has(b.id)) continue;
    out.push({
      kind: "atom",
      atom: b.id,
      change: "removed",
      classification: "substantive",
      classification_basis: "duty no longer in the text",
      citation: cite(b),
      detail: { before: atomSnapshot(b), after: null, instruction: instruction(b.act, true) },
    });
  }
  return out.sort((x, y) => (x.atom < y.atom ? -1 : x.atom > y.atom ? 1 : 0));
}
