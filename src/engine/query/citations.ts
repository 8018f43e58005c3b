/**
 * Provision references as people write them, read into eId paths: "Art. 33(1)", "article 5",
 * "Article 6(1)(f)", "point (a) of Article 23(4)", "paragraph 2 of Article 5", "Article 5(1), second
 * subparagraph", "Art. 23 para. 4 lit. a", "Articles 12 to 22", "Articles 15, 16 and 17", "recital 83",
 * "Recitals 39-41", "Annex III" (or "Annex 3"), "Chapter IV", UN Regulation paragraphs ("paragraph
 * 7.2.2.2"), and ELI IRIs down to the point
 * (".../eli/reg/2016/679/art_6/par_1/pnt_f/oj"). Which act a reference is in is decided later, from the
 * act named beside it (see ./resolve.ts); this module only reads the question's words.
 */

/** One reference: the top-level provision and the path below it, with where it stands in the question. */
export interface Reference {
  /** "art", "rec", "anx" or "chp" and its number as eIds write it ("33", "III"). */
  top: { kind: "art" | "rec" | "anx" | "chp"; num: string };
  /** Numbers and letters below it in order ("1", "f"); "subpara:2" for a numbered subparagraph. */
  path: string[];
  start: number;
  end: number;
  /** References written as one (a range or list) share a group, and so the act named after the last. */
  group: number;
  /** From an ELI IRI: the act's number ("2016/679"), and the eId it names exactly. */
  eli?: { number: string; eid: string };
}

const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};
const ORDINAL = `(?:${Object.keys(ORDINALS).join("|")}|\\d{1,2}(?:st|nd|rd|th))`;
const ordinal = (w: string) => ORDINALS[w.toLowerCase()] ?? Number.parseInt(w, 10);

const ARTICLE = /\b(?:art(?:icles?|s)?\.?)[ \t]*(\d{1,3}[a-z]?)\b(?![/.]\d)/giu;
const RECITAL = /\b(?:recitals?|rec\.)[ \t]*(\d{1,3})\b(?![/.]\d)/giu;
const ANNEX = /\bannex(?:es)?[ \t]+([IVXLC]{1,7}|\d{1,2})\b(?![/.]\d)/giu;
/** UN Regulations number their paragraphs by dots under a numbered heading: "paragraph 7.2.2.2" is in 7. */
const DOTTED = /\b(?:paragraph|para\.?|§)[ \t]*((\d{1,2})(?:\.\d{1,3}){1,5})\b(?!\.\d)/giu;
const CHAPTER = /\bchapter[ \t]+([IVXLC]{1,7}|\d{1,2})\b(?![/.]\d)/giu;
const ELI_REF =
  /(?:https?:\/\/)?data\.europa\.eu\/eli\/(?:reg|dir|reg_del|reg_impl|dec)\/(\d{4})\/(\d+)((?:\/(?:tit|prt|cpt|sct|art|par|sbp|pnt|idt|rct|anx)_[0-9A-Za-z.]+)+)/giu;

/** ELI subdivision codes back to the eId segments acquis uses (src/canon/citation.ts writes them). */
const ELI_SEGMENT: Record<string, string> = {
  tit: "title",
  prt: "part",
  cpt: "chp",
  sct: "sec",
  art: "art",
  par: "para",
  sbp: "subpara",
  pnt: "point",
  idt: "indent",
  rct: "rec",
  anx: "anx",
};

/** What may follow a reference's number: a parenthesised step, a paragraph, a point, a subparagraph. */
const STEP = /^[ \t]*\([ \t]*([0-9]{1,3}[a-z]?|[a-z]{1,2}|[ivxlc]{1,6})[ \t]*\)/iu;
const PARAGRAPH_AFTER = /^,?[ \t]*(?:para(?:graph)?\.?|§|para\b)[ \t]*(\d{1,3}[a-z]?)\b(?!\.\d)/iu;
/** "Article 7, paragraph 7.2.2.2": the dotted paragraph names the unit whole; the article adds nothing. */
const DOTTED_AFTER = /^,?[ \t]*(?:paragraph|para\.?|§)[ \t]*\d{1,2}\.\d/iu;
const POINT_AFTER =
  /^,?[ \t]*(?:point|lit(?:era|\.)?|letter|sub-?point)[ \t]*\(?([a-z0-9]{1,4})\)?(?![\w/])/iu;
const SUBPARAGRAPH_AFTER = new RegExp(`^,?[ \\t]*(?:the[ \\t]+)?(${ORDINAL})[ \\t]+subparagraph`, "iu");
/** "point (a) of", "paragraph 2 of", "the second subparagraph of", in any nesting, before "Article". */
const PREFIX = new RegExp(
  `(?:(?:point|lit\\.?)[ \\t]*\\(?([a-z0-9]{1,4})\\)?[ \\t]+(?:of[ \\t]+)?)?(?:(?:the[ \\t]+)?(${ORDINAL})[ \\t]+subparagraph[ \\t]+of[ \\t]+)?(?:paragraph[ \\t]+(\\d{1,3})[ \\t]+of[ \\t]+)?(?:the[ \\t]+)?$`,
  "iu",
);
const RANGE =
  /^[ \t]*(?:to|-|–|—|through|until)[ \t]*(?:(?:art(?:icles?|s)?|recitals?)\.?[ \t]*)?(\d{1,3})\b(?![/.]\d)/iu;
const LIST =
  /^[ \t]*(?:,|and|&|or)[ \t]*(?:(?:art(?:icles?|s)?|recitals?)\.?[ \t]*)?(\d{1,3}[a-z]?)\b(?![/.]\d)(?![ \t]*(?:%|per|days?|hours?|months?|years?))/iu;

const ROMAN: [number, string][] = [
  [1000, "M"],
  [900, "CM"],
  [500, "D"],
  [400, "CD"],
  [100, "C"],
  [90, "XC"],
  [50, "L"],
  [40, "XL"],
  [10, "X"],
  [9, "IX"],
  [5, "V"],
  [4, "IV"],
  [1, "I"],
];
function roman(n: number): string {
  let out = "";
  for (const [v, s] of ROMAN) {
    while (n >= v) {
      out += s;
      n -= v;
    }
  }
  return out;
}

/** A range longer than this is read as its two ends ("Articles 1 to 99" names no 99 articles). */
const MAX_RANGE = 30;

export function readReferences(query: string): Reference[] {
  const scan: Scan = { query, refs: [], group: 0, taken: [] };
  eliReferences(scan);
  dottedParagraphs(scan);
  numberedReferences(scan, "art", ARTICLE);
  numberedReferences(scan, "rec", RECITAL);
  letteredReferences(scan, "anx", ANNEX);
  letteredReferences(scan, "chp", CHAPTER);
  return scan.refs.sort((a, b) => a.start - b.start || a.group - b.group);
}

/**
 * The question as it is read: the references found so far, the next group, and the spans already taken,
 * which the article, recital, annex and chapter patterns do not read again.
 */
interface Scan {
  query: string;
  refs: Reference[];
  group: number;
  taken: [number, number][];
}

const free = (scan: Scan, s: number, e: number) => !scan.taken.some(([a, b]) => s < b && e > a);

/** ELI IRIs, down to the point: each names its act and the eId exactly. */
function eliReferences(scan: Scan): void {
  for (const m of scan.query.matchAll(ELI_REF)) {
    const segs = (m[3] as string)
      .split("/")
      .filter(Boolean)
      .map((seg) => {
        const i = seg.indexOf("_");
        return `${ELI_SEGMENT[seg.slice(0, i)] ?? seg.slice(0, i)}_${seg.slice(i + 1)}`;
      });
    const start = m.index ?? 0;
    const first = segs[0] as string;
    const kind = first.slice(0, first.indexOf("_"));
    scan.refs.push({
      top: { kind: kind === "rec" || kind === "anx" || kind === "chp" ? kind : "art", num: "" },
      path: [],
      start,
      end: start + m[0].length,
      group: scan.group++,
      eli: { number: `${m[1]}/${m[2]}`, eid: segs.join("__") },
    });
    scan.taken.push([start, start + m[0].length]);
  }
}

/** UN Regulation paragraphs ("paragraph 7.2.2.2"): the dotted number is the unit whole, under its heading's. */
function dottedParagraphs(scan: Scan): void {
  for (const m of scan.query.matchAll(DOTTED)) {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    scan.refs.push({
      top: { kind: "art", num: m[2] as string },
      path: [m[1] as string],
      start,
      end,
      group: scan.group++,
    });
    scan.taken.push([start, end]);
  }
}

/**
 * Articles and recitals by number, with the steps after the number and the "point (a) of" before it,
 * and the range or list written with them ("Articles 12 to 22", "Articles 15, 16 and 17").
 */
function numberedReferences(scan: Scan, kind: "art" | "rec", pattern: RegExp): void {
  const { query, refs } = scan;
  for (const m of query.matchAll(pattern)) {
    const start = m.index ?? 0;
    if (!free(scan, start, start + m[0].length)) continue;
    const g = scan.group++;
    const head = readTail(query, start + m[0].length);
    if (kind === "art" && head.path.length === 0 && DOTTED_AFTER.test(query.slice(head.end))) continue;
    const prefix = kind === "art" ? PREFIX.exec(query.slice(Math.max(0, start - 60), start)) : null;
    const path = [...head.path];
    if (prefix?.[3]) path.push(prefix[3]);
    if (prefix?.[2]) path.push(`subpara:${ordinal(prefix[2])}`);
    if (prefix?.[1]) path.push(prefix[1].toLowerCase());
    const from = prefix?.[0] ? start - prefix[0].length : start;
    const first: Reference = {
      top: { kind, num: m[1] as string },
      path,
      start: from,
      end: head.end,
      group: g,
    };
    refs.push(first);
    let end = head.end;
    // "Articles 12 to 22": every article between; "Articles 15, 16 and 17": each.
    const range = RANGE.exec(query.slice(end));
    const lo = Number.parseInt(m[1] as string, 10);
    if (range && path.length === 0) {
      const hi = Number.parseInt(range[1] as string, 10);
      end += range[0].length;
      const nums =
        hi > lo && hi - lo <= MAX_RANGE ? Array.from({ length: hi - lo }, (_, i) => lo + i + 1) : [hi];
      for (const n of nums)
        refs.push({ top: { kind, num: String(n) }, path: [], start: from, end, group: g });
      first.end = end;
    } else {
      for (let item = LIST.exec(query.slice(end)); item; item = LIST.exec(query.slice(end))) {
        const tail = readTail(query, end + item[0].length);
        refs.push({
          top: { kind, num: item[1] as string },
          path: tail.path,
          start: from,
          end: tail.end,
          group: g,
        });
        end = tail.end;
      }
    }
    for (const r of refs) if (r.group === g) r.end = end;
    scan.taken.push([from, end]);
  }
}

/** Annexes and chapters, by roman numeral (an arabic one is written as roman, as eIds write it). */
function letteredReferences(scan: Scan, kind: "anx" | "chp", pattern: RegExp): void {
  for (const m of scan.query.matchAll(pattern)) {
    const start = m.index ?? 0;
    if (!free(scan, start, start + m[0].length)) continue;
    const raw = m[1] as string;
    const num = /^\d+$/u.test(raw) ? roman(Number(raw)) : raw.toUpperCase();
    scan.refs.push({ top: { kind, num }, path: [], start, end: start + m[0].length, group: scan.group++ });
    scan.taken.push([start, start + m[0].length]);
  }
}

/** The steps after "Article 33": "(1)(a)", ", second subparagraph", " para. 4 lit. a", ", point (b)". */
function readTail(query: string, at: number): { path: string[]; end: number } {
  const path: string[] = [];
  let end = at;
  for (;;) {
    const rest = query.slice(end);
    const step = STEP.exec(rest);
    if (step) {
      path.push((step[1] as string).toLowerCase());
      end += step[0].length;
      continue;
    }
    const para = PARAGRAPH_AFTER.exec(rest);
    if (para && path.length === 0) {
      path.push((para[1] as string).toLowerCase());
      end += para[0].length;
      continue;
    }
    const sub = SUBPARAGRAPH_AFTER.exec(rest);
    if (sub) {
      path.push(`subpara:${ordinal(sub[1] as string)}`);
      end += sub[0].length;
      continue;
    }
    const point = POINT_AFTER.exec(rest);
    if (point) {
      path.push((point[1] as string).toLowerCase());
      end += point[0].length;
      continue;
    }
    return { path, end };
  }
}
