/**
 * Text normalisation shared by every source: the scraped texts separate blocks with blank lines,
 * use no-break spaces inside citations ("Article\u00a033") and, in consolidated versions, carry
 * EUR-Lex consolidation markers. Units store plain text with single spaces so that character spans
 * and searches behave the same everywhere.
 */
import type { QualityLog } from "./quality.ts";

/** "▼B", "▼M2", "▼C1", "►M1", "◄" as they appear in EUR-Lex consolidated texts. */
const MARKER_BLOCK = /^[▼►◄][A-Z]?\d*(?:\s*[—–-]+)?$/u;
const INLINE_MARKER = /\s*[►◄▼][A-Z]?\d*\s*/gu;
/** A footnote reference the scraper split over three blocks: "Council (\n\n1\n\n)." */
const SPLIT_FOOTNOTE_REF = /\s*\(\n\n(\d{1,3})\n\n\)/gu;

export function normaliseSpaces(s: string): string {
  return s
    .replace(/[\u00a0\u2007\u202f\t]/gu, " ")
    .replace(/ {2,}/gu, " ")
    .trim();
}

/**
 * Split a source text into blocks (paragraph-level pieces separated by blank lines), repairing the
 * consolidation artefacts on the way. `eid` names where repairs are reported.
 */
export function toBlocks(raw: string, log: QualityLog, eid: string): string[] {
  let text = raw.replace(/\r\n?/gu, "\n");
  const refs = text.match(SPLIT_FOOTNOTE_REF)?.length ?? 0;
  if (refs > 0) {
    text = text.replace(SPLIT_FOOTNOTE_REF, " ($1)");
    log.repair("footnote_reference_joined", eid, `${refs} footnote reference(s) split over blocks rejoined`);
  }
  const blocks: string[] = [];
  const layout: boolean[] = [];
  let markers = 0;
  let deletions = 0;
  for (const piece of text.split(/\n[ \t\u00a0]*\n/u)) {
    const lines = piece
      .split("\n")
      .map(normaliseSpaces)
      .filter((l) => l !== "");
    if (lines.length === 0) continue;
    let block = lines.join(" ");
    if (MARKER_BLOCK.test(block)) {
      markers++;
      if (/[—–-]$/u.test(block)) deletions++;
      continue;
    }
    if (/[►◄▼]/u.test(block)) {
      markers++;
      block = normaliseSpaces(block.replace(INLINE_MARKER, " "));
      if (block === "") continue;
    }
    blocks.push(block);
    // Tables rendered as deeply indented lines: the scraper emits them and then the same text flat.
    layout.push(/\n {8,}\S/u.test(piece));
  }
  if (markers > 0) {
    const note = deletions > 0 ? `; ${deletions} marked deletion(s) had no text` : "";
    log.repair("consolidation_marker_stripped", eid, `${markers} consolidation marker(s) removed${note}`);
  }
  return dropRepeatedRuns(dropRepeatedBlocks(dropLayoutCopies(blocks, layout, log, eid), log, eid), log, eid);
}

/**
 * A passage the scraper emitted twice (a table's layout copy and then its flat copy): a run of blocks
 * that repeats, block for block, the run right before it. Only runs opening with a long block count.
 */
function dropRepeatedRuns(blocks: string[], log: QualityLog, eid: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < blocks.length; ) {
    const b = blocks[i] as string;
    const j = b.length > 40 ? out.lastIndexOf(b) : -1;
    const run = j >= 0 ? out.length - j : 0;
    if (run > 0 && blocks.slice(i, i + run).every((x, k) => x === out[j + k])) {
      log.repair("duplicate_line_removed", eid, `repeated passage of ${run} block(s) removed: "${clip(b)}"`);
      i += run;
      continue;
    }
    out.push(b);
    i++;
  }
  return out;
}

/** A table-layout block whose text the following blocks repeat flat is a copy; the flat text is kept. */
function dropLayoutCopies(blocks: string[], layout: boolean[], log: QualityLog, eid: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as string;
    const head = b.slice(0, 40);
    const repeated = blocks.slice(i + 1, i + 4).some((n) => n.slice(0, 40) === head);
    if (layout[i] && repeated) {
      log.repair("duplicate_line_removed", eid, `table-layout copy removed: "${clip(b)}"`);
      continue;
    }
    out.push(b);
  }
  return out;
}

/** The scraper sometimes emitted a block twice in a row; the law never says the same thing twice running. */
function dropRepeatedBlocks(blocks: string[], log: QualityLog, eid: string): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    const prev = out[out.length - 1];
    if (prev !== undefined && prev === b && !/^[—–-]$/u.test(b)) {
      log.repair("duplicate_line_removed", eid, `repeated block removed: "${clip(b)}"`);
      continue;
    }
    out.push(b);
  }
  return out;
}

export function clip(s: string, n = 60): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };

/** Value of a roman numeral, or NaN when the string is not one. */
export function romanValue(s: string): number {
  const t = s.toLowerCase();
  if (!/^[ivxlcdm]+$/u.test(t)) return Number.NaN;
  let total = 0;
  for (let i = 0; i < t.length; i++) {
    const v = ROMAN[t[i] as string] as number;
    const next = ROMAN[t[i + 1] as string] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

export function ordinal(n: number): string {
  const words = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
  ];
  return words[n - 1] ?? `${n}th`;
}
