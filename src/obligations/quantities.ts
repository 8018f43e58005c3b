/**
 * Executable constants: the quantities a duty states ("72 hours", "one month", "EUR 20 000 000",
 * "4 % of the total worldwide annual turnover"), and the enumerated terms that stand in for one
 * ("without undue delay"). A value is a number for a stated quantity, a string for a term.
 */
import { isoDate, MONTHS } from "../canon/dates.ts";

/** An executable constant of a duty: its name, unit and value. */
export interface Constant {
  name: string;
  unit: string;
  value: number | string;
}

export interface Quantity {
  kind: "deadline" | "amount" | "rate" | "term" | "date";
  /** For a date: "by" (a deadline), "from" or "until" (when the duty starts or stops). */
  unit: string;
  value: number | string;
  /** Offsets into the text the quantity was read from. */
  start: number;
  end: number;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  eighteen: 18,
  twenty: 20,
  thirty: 30,
  "forty-five": 45,
  sixty: 60,
  ninety: 90,
};
const COUNT = `(\\d{1,4}|${Object.keys(NUMBER_WORDS).join("|")})`;
const DURATION = new RegExp(
  `\\b${COUNT}\\s+(working days|calendar days|business days|hours|days|weeks|months|years|hour|day|week|month|year)\\b`,
  "giu",
);
const MONEY = /\bEUR\s?(\d{1,3}(?:[ \u00a0,.]\d{3})+|\d+(?:[.,]\d+)?)(?:\s*(million|billion))?/gu;
const MONEY_AFTER = /\b(\d{1,3}(?:[ \u00a0,.]\d{3})+|\d+(?:[.,]\d+)?)(?:\s*(million|billion))?\s?EUR\b/gu;
const PERCENT = /\b(\d{1,3}(?:[.,]\d{1,2})?)\s?(?:%|per ?cent\b)/gu;
const TERMS = ["without undue delay", "immediately", "without delay", "promptly"];
/** "by 17 July 2025", "not later than 1 January 2027", "from 12 January 2027", "until 31 December 2028". */
const DATE = new RegExp(
  `\\b(by|not later than|no later than|before|from|as from|until)\\s+(\\d{1,2})\\s+(${MONTHS.join("|")})\\s+(\\d{4})\\b`,
  "giu",
);
const DATE_ROLE: Record<string, string> = {
  by: "by",
  "not later than": "by",
  "no later than": "by",
  before: "by",
  from: "from",
  "as from": "from",
  until: "until",
};

/** The calendar dates a duty states, with what the date does to it (extraction rules 5). */
export function findDates(text: string): Quantity[] {
  const out: Quantity[] = [];
  for (const m of text.matchAll(DATE)) {
    out.push({
      kind: "date",
      unit: DATE_ROLE[(m[1] as string).toLowerCase().replace(/\s+/gu, " ")] ?? "by",
      value: isoDate(m[2] as string, m[3] as string, m[4] as string),
      start: m.index ?? 0,
      end: (m.index ?? 0) + m[0].length,
    });
  }
  return out;
}

function unitOf(word: string): string {
  const w = word.toLowerCase();
  if (w.startsWith("working") || w.startsWith("business")) return "working_days";
  if (w.startsWith("calendar")) return "days";
  return w.endsWith("s") ? w : `${w}s`;
}

function parseAmount(digits: string, scale: string | undefined): number {
  // "20 000 000", "20,000,000", "1.5 million"
  const grouped = /^\d{1,3}(?:[ \u00a0,.]\d{3})+$/u.test(digits);
  const n = grouped ? Number(digits.replace(/[ \u00a0,.]/gu, "")) : Number(digits.replace(",", "."));
  return scale === "million" ? n * 1e6 : scale === "billion" ? n * 1e9 : n;
}

export function findQuantities(text: string): Quantity[] {
  const out: Quantity[] = [];
  for (const m of text.matchAll(DURATION)) {
    const raw = (m[1] as string).toLowerCase();
    const value = /^\d/u.test(raw) ? Number(raw) : (NUMBER_WORDS[raw] as number);
    out.push({
      kind: "deadline",
      unit: unitOf(m[2] as string),
      value,
      start: m.index ?? 0,
      end: (m.index ?? 0) + m[0].length,
    });
  }
  for (const re of [MONEY, MONEY_AFTER]) {
    for (const m of text.matchAll(re)) {
      out.push({
        kind: "amount",
        unit: "EUR",
        value: parseAmount(m[1] as string, m[2]),
        start: m.index ?? 0,
        end: (m.index ?? 0) + m[0].length,
      });
    }
  }
  for (const m of text.matchAll(PERCENT)) {
    out.push({
      kind: "rate",
      unit: "percent",
      value: Number((m[1] as string).replace(",", ".")),
      start: m.index ?? 0,
      end: (m.index ?? 0) + m[0].length,
    });
  }
  if (out.length === 0) {
    const lower = text.toLowerCase();
    for (const t of TERMS) {
      const i = lower.indexOf(t);
      if (i >= 0) {
        out.push({ kind: "term", unit: "term", value: t, start: i, end: i + t.length });
        break;
      }
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** "gdpr_art_33_para_1_deadline_hours": act, provision and quantity kind, readable and stable. */
export function executableName(act: string, eid: string, q: Quantity, nth: number): string {
  const base = `${act}_${eid}`
    .replace(/__/gu, "_")
    .replace(/[^A-Za-z0-9_]/gu, "_")
    .toLowerCase();
  const kind =
    q.kind === "deadline"
      ? `deadline_${q.unit}`
      : q.kind === "amount"
        ? "amount_eur"
        : q.kind === "rate"
          ? "rate_percent"
          : q.kind === "date"
            ? `date_${q.unit}`
            : "term";
  return `${base}_${kind}${nth > 1 ? `_${nth}` : ""}`;
}

/** The constants a duty states, named for its unit; the executable one is the first that is not a date. */
export function constantsIn(
  act: string,
  eid: string,
  quoted: string,
  rules: number,
): { first: Constant | null; all: Constant[] } {
  // Rules 5: dates the duty states are constants too ("by 17 July 2025"); the executable constant stays
  // the first quantity, so a date never displaces "72 hours".
  const qs: Quantity[] = [...findQuantities(quoted), ...(rules >= 5 ? findDates(quoted) : [])];
  const seen = new Map<string, number>();
  const all = qs.map((q) => {
    const k = `${q.kind}:${q.unit}`;
    const nth = (seen.get(k) ?? 0) + 1;
    seen.set(k, nth);
    return { name: executableName(act, eid, q, nth), unit: q.unit, value: q.value };
  });
  return { first: all.find((_c, i) => qs[i]?.kind !== "date") ?? null, all };
}
