/**
 * Parses the blocks of one article (or recital-free provision text) into its subdivisions:
 * numbered paragraphs, unnumbered subparagraphs, points, sub-points and indents.
 *
 * eId rules (docs/formats.md): the first text block of a container is the container's own text; its
 * 2nd, 3rd… text blocks are `subpara_2`, `subpara_3`…; a point hangs from the latest text block of its
 * container; letter points nest roman sub-points, numbered points nest letter points.
 */
import { romanValue } from "./text.ts";

export type DraftKind = "paragraph" | "subparagraph" | "point" | "indent";

export interface Draft {
  kind: DraftKind;
  /** The eId segment: `para_1`, `subpara_2`, `point_a`, `indent_1`. */
  segment: string;
  /** As printed: "1", "1a", "a", "iii"; null for subparagraphs. */
  num: string | null;
  own: string;
  children: Draft[];
}

export interface ParsedProvision {
  own: string;
  children: Draft[];
  /** Paragraph numbers parser 4 read where the source misprinted them, each as a sentence. */
  recovered?: string[];
}

type PointStyle = "number" | "letter" | "roman";

const PARA_INLINE = /^(\d{1,3}[a-z]?)\.\s+(\S[\s\S]*)$/u;
const PARA_ALONE = /^(\d{1,3}[a-z]?)\.$/u;
/** UN regulations number their paragraphs "2.1.", "7.2.2.1.". */
const DOTTED_ALONE = /^(\d{1,2}(?:\.\d{1,2}){1,4})\.?$/u;
const DOTTED_INLINE = /^(\d{1,2}(?:\.\d{1,2}){1,4})\.\s+(\S[\s\S]*)$/u;
const POINT_ALONE = /^\(([a-z]{1,2}|\d{1,3}[a-z]?|[ivxlc]+)\)$/u;
const POINT_INLINE = /^\(([a-z]|\d{1,3}[a-z]?|[ivxlc]{1,6})\)\s+(\S[\s\S]*)$/u;
const QUOTE_OPEN = /^[‘“'"]/u;
/**
 * A quoted passage ends where the instruction's punctuation follows the closing quote ("…’;", "…’.",
 * "…’; and"); a quote closing inside the passage ("the term ‘X’") does not end it.
 */
const QUOTE_CLOSE = /[’”'"]\s*[;.]\s*["”]?(?:\s*(?:and|or))?$/u;
const INDENT_ALONE = /^[—–]$/u;
const INDENT_INLINE = /^[—–]\s+(\S[\s\S]*)$/u;

interface Container {
  /** The unit whose own text the container's first block is. */
  unit: { own: string; children: Draft[] };
  textBlocks: number;
  /** Where points go now: the container itself or its latest subparagraph. */
  pointHost: { own: string; children: Draft[] };
}

interface OpenPoint {
  style: PointStyle;
  num: string;
  draft: Draft;
}

/** "7 In the event …": a paragraph number the source printed without its full stop (parser 4). */
const PARA_NO_STOP = /^(\d{1,3}) ([A-Z][\s\S]{30,})$/u;

/** A bare label ("(a)", "—", "3.") printed as a block of its own: the block after it is its text. */
type Label = { kind: "point"; num: string } | { kind: "indent" } | { kind: "para"; num: string };

/** One provision as its blocks are read: the paragraph, subparagraph and points open at the latest block. */
interface Reading {
  parser: number;
  root: ParsedProvision;
  container: Container;
  lastPara: string | null;
  recovered: string[];
  points: OpenPoint[];
  indents: number;
  pending: Label | null;
  // The unit written last, and whether we are inside text an amending provision quotes ("… is replaced
  // by the following: ‘3. …’"): quoted text belongs to the instruction, not to this act's structure.
  last: { own: string };
  quoting: boolean;
}

export function parseProvision(blocks: string[], parser = 1): ParsedProvision {
  const root: ParsedProvision = { own: "", children: [] };
  const r: Reading = {
    parser,
    root,
    container: { unit: root, textBlocks: 0, pointHost: root },
    lastPara: null,
    recovered: [],
    points: [],
    indents: 0,
    pending: null,
    last: root,
    quoting: false,
  };
  for (const block of blocks) readBlock(r, block);
  const pending = r.pending;
  if (pending) {
    if (pending.kind === "point") addPoint(r, pending.num, "");
    else if (pending.kind === "indent") addIndent(r, "");
    else openParagraph(r, pending.num, "");
  }
  if (r.recovered.length > 0) root.recovered = r.recovered;
  return root;
}

/** One block: quoted text, the text of a pending label, a paragraph, point or indent, or a subparagraph. */
function readBlock(r: Reading, block: string): void {
  if (continuesQuotation(r, block)) return;
  if (r.pending && fillsPendingLabel(r, block)) return;
  let m = DOTTED_ALONE.exec(block) ?? DOTTED_INLINE.exec(block);
  if (m) {
    if (m[2] === undefined) r.pending = { kind: "para", num: m[1] as string };
    else openParagraph(r, m[1] as string, m[2] as string);
    return;
  }
  m = PARA_ALONE.exec(block);
  if (m && followsParagraph(r.lastPara, m[1] as string)) {
    r.pending = { kind: "para", num: m[1] as string };
    return;
  }
  m = PARA_INLINE.exec(block);
  if (m && followsParagraph(r.lastPara, m[1] as string)) {
    openParagraph(r, m[1] as string, m[2] as string);
    return;
  }
  const after: string | null = r.lastPara;
  m = r.parser >= 4 && after !== null ? PARA_NO_STOP.exec(block) : null;
  if (m && after !== null && Number(m[1]) === Number.parseInt(after, 10) + 1) {
    r.recovered.push(`"${m[1]}" without its full stop opens paragraph ${m[1]}`);
    openParagraph(r, m[1] as string, m[2] as string);
    return;
  }
  m = POINT_ALONE.exec(block);
  if (m) {
    r.pending = { kind: "point", num: m[1] as string };
    return;
  }
  m = POINT_INLINE.exec(block);
  if (m && pointStyleFits(m[1] as string, r.points)) {
    addPoint(r, m[1] as string, m[2] as string);
    return;
  }
  if (INDENT_ALONE.test(block)) {
    r.pending = { kind: "indent" };
    return;
  }
  m = INDENT_INLINE.exec(block);
  if (m) {
    addIndent(r, m[1] as string);
    return;
  }
  addText(r, block);
}

/** A block of text an amending provision quotes joins the unit written last (true when it did). */
function continuesQuotation(r: Reading, block: string): boolean {
  const quoteFootnote = /^\(\*\d+\)/u.test(block);
  if (!r.pending && (r.quoting || quoteFootnote || (QUOTE_OPEN.test(block) && /:$/u.test(r.last.own)))) {
    r.quoting = !QUOTE_CLOSE.test(block) && !(quoteFootnote && !r.quoting);
    r.last.own = r.last.own === "" ? block : `${r.last.own}\n\n${block}`;
    return true;
  }
  return false;
}

/**
 * The block after a bare label is that point's, indent's or paragraph's text (true when it was used so);
 * when it is itself a label, the source lost the text and the labelled unit stays empty.
 */
function fillsPendingLabel(r: Reading, block: string): boolean {
  const p = r.pending as Label;
  r.pending = null;
  if (p.kind === "para") {
    openParagraph(r, p.num, block);
    return true;
  }
  // Parser 4: "3. This Regulation applies to:" right after a label whose text the source lost is the
  // next paragraph, not that point's text (Data Act Art 1(3), GDPR Art 97(3)).
  const next = r.parser >= 4 && p.kind === "point" ? nextParagraph(block, r.lastPara) : null;
  if (next && p.kind === "point") {
    r.recovered.push(`"${next.num}." after the empty point (${p.num}) opens paragraph ${next.num}`);
    addPoint(r, p.num, "");
    openParagraph(r, next.num, next.text);
    return true;
  }
  if (!isLabel(block, r.lastPara)) {
    if (p.kind === "point") addPoint(r, p.num, block);
    else addIndent(r, block);
    return true;
  }
  // A label followed directly by another label: the source lost the point's text.
  if (p.kind === "point") addPoint(r, p.num, "");
  else addIndent(r, "");
  return false;
}

/** A text block: the container's own text if it is the first, otherwise its next subparagraph. */
function addText(r: Reading, text: string): void {
  const container = r.container;
  container.textBlocks++;
  r.points = [];
  r.indents = 0;
  if (container.textBlocks === 1 && container.unit.own === "") {
    container.unit.own = text;
    container.pointHost = container.unit;
    r.last = container.unit;
    return;
  }
  const sub: Draft = {
    kind: "subparagraph",
    segment: `subpara_${container.textBlocks}`,
    num: null,
    own: text,
    children: [],
  };
  container.unit.children.push(sub);
  container.pointHost = sub;
  r.last = sub;
}

function openParagraph(r: Reading, num: string, text: string): void {
  const root = r.root;
  // Parser 4: text before paragraph 2 is paragraph 1 whose number the source lost (eIDAS Arts 26, 36,
  // where a consolidation marker stood in place of "1.").
  if (r.parser >= 4 && num === "2" && r.lastPara === null && root.own !== "") {
    const first: Draft = {
      kind: "paragraph",
      segment: "para_1",
      num: "1",
      own: root.own,
      children: root.children,
    };
    root.own = "";
    root.children = [first];
    r.recovered.push("the text before paragraph 2 is paragraph 1; the source lost its number");
  }
  const para: Draft = { kind: "paragraph", segment: `para_${num}`, num, own: "", children: [] };
  root.children.push(para);
  r.lastPara = num;
  r.container = { unit: para, textBlocks: 0, pointHost: para };
  r.points = [];
  r.indents = 0;
  if (text !== "") addText(r, text);
}

/** A point closes the open points of its own style and deeper, and hangs from the one above them. */
function addPoint(r: Reading, num: string, text: string): void {
  const style = pointStyle(num, r.points);
  const draft: Draft = { kind: "point", segment: `point_${num}`, num, own: text, children: [] };
  const level = r.points.findIndex((p) => p.style === style);
  if (level >= 0) {
    r.points = r.points.slice(0, level);
  }
  const parent = r.points[r.points.length - 1];
  (parent ? parent.draft.children : r.container.pointHost.children).push(draft);
  r.points.push({ style, num, draft });
  r.indents = 0;
  r.last = draft;
}

function addIndent(r: Reading, text: string): void {
  r.indents++;
  const draft: Draft = { kind: "indent", segment: `indent_${r.indents}`, num: null, own: text, children: [] };
  const parent = r.points[r.points.length - 1];
  (parent ? parent.draft.children : r.container.pointHost.children).push(draft);
  r.last = draft;
}

/** A block that opens the paragraph after `lastPara` with its text ("3. This Regulation applies to:"). */
function nextParagraph(block: string, lastPara: string | null): { num: string; text: string } | null {
  const m = PARA_INLINE.exec(block);
  if (!m || /[a-z]$/u.test(m[1] as string)) return null;
  const expected = lastPara === null ? 1 : Number.parseInt(lastPara, 10) + 1;
  return Number(m[1]) === expected ? { num: m[1] as string, text: m[2] as string } : null;
}

function isLabel(block: string, lastPara: string | null): boolean {
  if (POINT_ALONE.test(block) || INDENT_ALONE.test(block) || DOTTED_ALONE.test(block)) return true;
  const m = PARA_ALONE.exec(block);
  return m !== null && followsParagraph(lastPara, m[1] as string);
}

/** Paragraph numbers run 1, 2, 3 (with inserted 1a, 1b); anything else is text that starts with a number. */
function followsParagraph(last: string | null, num: string): boolean {
  const n = Number.parseInt(num, 10);
  const inserted = /[a-z]$/u.test(num);
  if (last === null) return n === 1 || (n === 2 && !inserted) || inserted;
  const l = Number.parseInt(last, 10);
  if (inserted) return n === l || n === l + 1 || n === l - 1;
  return n === l + 1 || n === l + 2;
}

const LETTER_BEFORE: Record<string, string> = { i: "h", v: "u", x: "w", l: "k", c: "b", d: "c", m: "l" };

/** "(i)" after "(h)" is a letter; "(i)" under "(a)" is a roman sub-point. */
function pointStyle(num: string, open: OpenPoint[]): PointStyle {
  if (/^\d/u.test(num)) return "number";
  if (!Number.isNaN(romanValue(num))) {
    // "(h) … as follows:" opens a list, so the "(i)" after it is its first sub-point, not the letter i.
    const last = open[open.length - 1];
    if (num === "i" && last && last.style !== "roman" && /[:—–]$/u.test(last.draft.own)) return "roman";
    const letters = open.find((p) => p.style === "letter");
    const romans = open.find((p) => p.style === "roman");
    if (num.length === 1 && letters && letters.num === LETTER_BEFORE[num]) return "letter";
    if (romans && romanValue(num) === romanValue(romans.num) + 1) return "roman";
    if (num.length === 1 && !letters && !romans && num !== "i") return "letter";
    return "roman";
  }
  return "letter";
}

/** Inline "(x) text" is only a point when it continues or starts a list, not prose in parentheses. */
function pointStyleFits(num: string, open: OpenPoint[]): boolean {
  const style = pointStyle(num, open);
  const same = open.find((p) => p.style === style);
  if (!same) return num === "a" || num === "1" || num === "i";
  if (style === "number") return Number.parseInt(num, 10) === Number.parseInt(same.num, 10) + 1;
  if (style === "roman") return romanValue(num) === romanValue(same.num) + 1;
  return num.charCodeAt(num.length - 1) === same.num.charCodeAt(same.num.length - 1) + 1;
}
