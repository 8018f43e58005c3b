/**
 * Which instruments a question names, and which of them the release holds. An EU act is recognised by
 * number ("Regulation (EU) No 575/2013", "Directive 2014/65/EU"), CELEX or ELI; other instruments by
 * the names and abbreviations of config/foreign-instruments.yaml. Foreign names are matched first and
 * masked, so "UK GDPR" is not also read as "GDPR".
 */
import { parse } from "yaml";
import type { Act } from "../canon/model.ts";

export interface Instrument {
  name: string;
  aliases?: string[];
  number?: string;
  jurisdiction?: string;
  source: string;
}

export interface QuestionScope {
  /** Acts of the release the question names. */
  acts: string[];
  /** Instruments named that the release does not hold, as named. */
  foreign: string[];
  /** Where each act of the release is named, in the order of the question. */
  mentions: Mention[];
  /** The question with every instrument name blanked out (same length), for the words that remain. */
  rest: string;
}

export interface Mention {
  act: string;
  start: number;
  end: number;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
const bounded = (alts: string[], flags: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(${alts.map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}])`, flags);

const EU_NUMBER =
  /\b(?:Regulation|Directive|Decision)\s+(?:\((?:EU|EC|EEC|Euratom)\)\s+)?(?:No\.?\s+)?(\d{1,4}\/\d{1,4})(?:\/(?:EU|EC|EEC))?|\b(?:Regulation|Directive)\s+(\d{4}\/\d{1,4})\b|\b(\d{4}\/\d{2,4})\/(?:EU|EC)\b/gu;
/**
 * A statute's proper name the release does not hold: capitalised words (of, for, and, on, the, in, to
 * between them) ending in Act, Law, Code, Bill, Ordinance or Statute, and an optional year ("PSTI Act",
 * "Cyber Incident Reporting for Critical Infrastructure Act", "Online Safety Act 2023"). Read after the
 * release's own act names are masked, so "the AI Act" never reaches it.
 */
const STATUTE =
  /(?<![\p{L}\p{N}])((?:\p{Lu}[\p{L}\p{N}'’-]*)(?:\s+(?:(?:of|for|and|on|the|in|to)\s+)*\p{Lu}[\p{L}\p{N}'’-]*)*\s+(?:Act|Law|Code|Bill|Ordinance|Statute)(?:\s+(?:of\s+)?\d{4})?)(?![\p{L}\p{N}])/gu;
/** Words that open a sentence or name a container, never a statute: dropped from the front of a name. */
const NOT_A_NAME = new Set(
  "a an the this that these under which what does do is are how when why who can could should must our we my your according in per if for eu european union member state states national".split(
    " ",
  ),
);
/** An instrument not yet adopted: "the proposed ePrivacy Regulation", "the draft AI Liability Directive". */
const PROPOSAL =
  /\b(?:proposed|draft|planned|upcoming|forthcoming|future)\s+(?:(?:[\p{L}\p{N}-]+)\s+){0,5}?(?:Regulation|Directive|Act|Code|Law)\b/giu;
const CELEX = /\b([0-9]{5}[A-Z]{1,2}[0-9]{4})\b/gu;
const ELI = /data\.europa\.eu\/eli\/(?:reg|dir|reg_del|reg_impl|dec)\/(\d{4})\/(\d+)/gu;

export class ScopeReader {
  private readonly byNumber = new Map<string, Act>();
  private readonly byCelex = new Map<string, Act>();
  private readonly actNames: { pattern: RegExp; byName: Map<string, Act> } | null;
  private readonly foreign: { pattern: RegExp; byName: Map<string, Instrument> } | null;

  constructor(acts: Act[], instruments: Instrument[]) {
    for (const a of acts) {
      this.byNumber.set(normalise(a.number), a);
      this.byCelex.set(a.celex.replace(/^0/u, "3").slice(0, 10), a);
    }
    const names = new Map<string, Act>();
    for (const a of acts) {
      for (const n of [a.short_name, ...a.aliases, ...titleNames(a)])
        if (n.length >= 3 && !/\d{4}\/\d/u.test(n)) names.set(n.toLowerCase(), a);
    }
    this.actNames = names.size ? { pattern: bounded(sortLongest(names), "giu"), byName: names } : null;
    const foreign = new Map<string, Instrument>();
    for (const i of instruments) {
      if (i.number && this.byNumber.has(normalise(i.number))) continue; // the release holds it after all
      for (const n of [i.name, ...(i.aliases ?? [])]) foreign.set(n.toLowerCase(), i);
    }
    this.foreign = foreign.size ? { pattern: bounded(sortLongest(foreign), "giu"), byName: foreign } : null;
  }

  read(query: string): QuestionScope {
    let text = query;
    const acts = new Set<string>();
    const mentions: Mention[] = [];
    const named = (act: Act, m: RegExpMatchArray) => {
      acts.add(act.id);
      mentions.push({ act: act.id, start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
    };
    const foreign: string[] = [];
    const mask = (start: number, len: number) => {
      text = text.slice(0, start) + " ".repeat(len) + text.slice(start + len);
    };
    const note = (as: string) => {
      if (!foreign.includes(as)) foreign.push(as);
    };
    for (const m of [...text.matchAll(EU_NUMBER)]) {
      const num = normalise((m[1] ?? m[2] ?? m[3]) as string);
      const act = this.byNumber.get(num);
      if (act) named(act, m);
      else note(m[0].trim());
      mask(m.index ?? 0, m[0].length);
    }
    for (const m of [...text.matchAll(ELI)]) {
      const act = this.byNumber.get(`${m[1]}/${m[2]}`);
      if (act) named(act, m);
      else note(m[0]);
      mask(m.index ?? 0, m[0].length);
    }
    for (const m of [...text.matchAll(CELEX)]) {
      const act = this.byCelex.get(m[1] as string);
      if (act) named(act, m);
      else if (/^3\d{4}[RLD]/u.test(m[1] as string)) note(m[1] as string);
      mask(m.index ?? 0, m[0].length);
    }
    if (this.foreign) {
      for (const m of [...text.matchAll(this.foreign.pattern)]) {
        note(m[1] as string);
        mask(m.index ?? 0, m[0].length);
      }
    }
    if (this.actNames) {
      for (const m of [...text.matchAll(this.actNames.pattern)]) {
        const act = this.actNames.byName.get((m[1] as string).toLowerCase());
        if (act) named(act, m);
        mask(m.index ?? 0, m[0].length);
      }
    }
    for (const m of [...text.matchAll(PROPOSAL)]) {
      note(m[0].trim());
      mask(m.index ?? 0, m[0].length);
    }
    for (const m of [...text.matchAll(STATUTE)]) {
      const words = (m[1] as string).split(/\s+/u);
      while (words.length > 0 && NOT_A_NAME.has((words[0] as string).toLowerCase())) words.shift();
      // At least one word of name before the kind ("Act"), and not a container word alone.
      if (words.length < 2) continue;
      note(words.join(" "));
      mask(m.index ?? 0, m[0].length);
    }
    mentions.sort((a, b) => a.start - b.start);
    return { acts: [...acts].sort(), foreign, mentions, rest: text };
  }
}

/**
 * Names an act's title gives it: the name in its closing brackets ("(Digital Services Act)") and its
 * subject after the kind ("Regulation on markets in crypto-assets"), when the subject is specific
 * enough (three words or more) to name one act.
 */
function titleNames(a: Act): string[] {
  const out: string[] = [];
  const bracketed = /\(([^()]*?\b(?:Act|Regulation|Directive|Code)\b[^()]*)\)\s*$/u.exec(a.title);
  if (bracketed) out.push((bracketed[1] as string).trim());
  const kind = /\b(Regulation|Directive)\b/u.exec(a.title)?.[1];
  const subject =
    /\bof\s+\d{1,2}\s+\w+\s+\d{4}\s+(on|concerning|establishing|laying down|on the)\s+(.+?)(?:,|\s+and\s+(?:amending|repealing)|\s+amending|\s+repealing|\s+\(|$)/u.exec(
      a.title,
    );
  if (kind && subject && (subject[2] as string).split(/\s+/u).length >= 3)
    out.push(`${kind} ${subject[1]} ${subject[2]}`);
  return out;
}

export function parseInstruments(text: string): Instrument[] {
  return ((parse(text) as { instruments?: Instrument[] } | null)?.instruments ?? []).map((i) => ({
    ...i,
    number: i.number?.toString(),
  }));
}

function normalise(n: string): string {
  const [a, b] = n.split("/") as [string, string];
  // "2016/679" and "679/2016" name the same act in older and newer numbering styles only by order;
  // keep the order as written and strip leading zeros.
  return `${Number(a)}/${Number(b)}`;
}

function sortLongest(m: Map<string, unknown>): string[] {
  return [...m.keys()].sort((x, y) => y.length - x.length || (x < y ? -1 : 1));
}
