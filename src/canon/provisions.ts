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

export function parseProvision(blocks: string[], parser = 1): ParsedProvision {
  const root: ParsedProvision = { own: "", children: [] };
  const rootContainer: Container = { unit: root, textBlocks: 0, pointHost: root };
  let container = rootContainer;
  let lastPara: string | null = null;
  const recovered: string[] = [];
  let points: OpenPoint[] = [];
  let indents = 0;
  let pending: { kind: "point"; num: string } | { kind: "indent" } | { kind: "para"; num: string } | null =
    null;
  // The unit written last, and whether we are inside text an amending provision quotes ("… is replaced
  // by the following: ‘3. …’"): quoted text belongs to the instruction, not to this act's structure.
  let last: { own: string } = root;
  let quoting = false;

  const addText = (text: string) => {
    container.textBlocks++;
    points = [];
    indents = 0;
    if (container.textBlocks === 1 && container.unit.own === "") {
      container.unit.own = text;
      container.pointHost = container.unit;
      last = container.unit;
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
    last = sub;
  };

  const openParagraph = (num: string, text: string) => {
    // Parser 4: text before paragraph 2 is paragraph 1 whose number the source lost (eIDAS Arts 26, 36,
    // where a consolidation marker stood in place of "1.").
    if (parser >= 4 && num === "2" && lastPara === null && root.own !== "") {
      const first: Draft = {
        kind: "paragraph",
        segment: "para_1",
        num: "1",
        own: root.own,
        children: root.children,
      };
      root.own = "";
      root.children = [first];
      recovered.push("the text before paragraph 2 is paragraph 1; the source lost its number");
    }
    const para: Draft = { kind: "paragraph", segment: `para_${num}`, num, own: "", children: [] };
    root.children.push(para);
    lastPara = num;
    container = { unit: para, textBlocks: 0, pointHost: para };
    points = [];
    indents = 0;
    if (text !== "") addText(text);
  };

  const addPoint = (num: string, text: string) => {
    const style = pointStyle(num, points);
    const draft: Draft = { kind: "point", segment: `point_${num}`, num, own: text, children: [] };
    const level = points.findIndex((p) => p.style === style);
    if (level >= 0) {
      points = points.slice(0, level);
    }
    const parent = points[points.length - 1];
    (parent ? parent.draft.children : container.pointHost.children).push(draft);
    points.push({ style, num, draft });
    indents = 0;
    last = draft;
  };

  const addIndent = (text: string) => {
    indents++;
    const draft: Draft = { kind: "indent", segment: `indent_${indents}`, num: null, own: text, children: [] };
    const parent = points[points.length - 1];
    (parent ? parent.draft.children : container.pointHost.children).push(draft);
    last = draft;
  };

  for (const block of blocks) {
    const quoteFootnote = /^\(\*\d+\)/u.test(block);
    if (!pending && (quoting || quoteFootnote || (QUOTE_OPEN.test(block) && /:$/u.test(last.own)))) {
      quoting = !QUOTE_CLOSE.test(block) && !(quoteFootnote && !quoting);
      last.own = last.own === "" ? block : `${last.own}\n\n${block}`;
      continue;
    }
    if (pending) {
      const p = pending;
      pending = null;
      if (p.kind === "para") {
        openParagraph(p.num, block);
        continue;
      }
      // Parser 4: "3. This Regulation applies to:" right after a label whose text the source lost is the
      // next paragraph, not that point's text (Data Act Art 1(3), GDPR Art 97(3)).
      const next = parser >= 4 && p.kind === "point" ? nextParagraph(block, lastPara) : null;
      if (next && p.kind === "point") {
        recovered.push(`"${next.num}." after the empty point (${p.num}) opens paragraph ${next.num}`);
        addPoint(p.num, "");
        openParagraph(next.num, next.text);
        continue;
      }
      if (!isLabel(block, lastPara)) {
        if (p.kind === "point") addPoint(p.num, block);
        else addIndent(block);
        continue;
      }
      // A label followed directly by another label: the source lost the point's text.
      if (p.kind === "point") addPoint(p.num, "");
      else addIndent("");
    }
    let m = DOTTED_ALONE.exec(block) ?? DOTTED_INLINE.exec(block);
    if (m) {
      if (m[2] === undefined) pending = { kind: "para", num: m[1] as string };
      else openParagraph(m[1] as string, m[2] as string);
      continue;
    }
    m = PARA_ALONE.exec(block);
    if (m && followsParagraph(lastPara, m[1] as string)) {
      pending = { kind: "para", num: m[1] as string };
      continue;
    }
    m = PARA_INLINE.exec(block);
    if (m && followsParagraph(lastPara, m[1] as string)) {
      openParagraph(m[1] as string, m[2] as string);
      continue;
    }
    const after: string | null = lastPara;
    m = parser >= 4 && after !== null ? PARA_NO_STOP.exec(block) : null;
    if (m && after !== null && Number(m[1]) === Number.parseInt(after, 10) + 1) {
      recovered.push(`"${m[1]}" without its full stop opens paragraph ${m[1]}`);
      openParagraph(m[1] as string, m[2] as string);
      continue;
    }
    m = POINT_ALONE.exec(block);
    if (m) {
      pending = { kind: "point", num: m[1] as string };
      continue;
    }
    m = POINT_INLINE.exec(block);
    if (m && pointStyleFits(m[1] as string, points)) {
      addPoint(m[1] as string, m[2] as string);
      continue;
    }
    if (INDENT_ALONE.test(block)) {
      pending = { kind: "indent" };
      continue;
    }
    m = INDENT_INLINE.exec(block);
    if (m) {
      addIndent(m[1] as string);
      continue;
    }
    addText(block);
  }
  if (pending) {
    if (pending.kind === "point") addPoint(pending.num, "");
    else if (pending.kind === "indent") addIndent("");
    else openParagraph(pending.num, "");
  }
  if (recovered.length > 0) root.recovered = recovered;
  return root;
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
