/**
 * Definition questions: "what counts as an X under Y", "definition of X", "what does X mean", "what is a
 * 'X' according to Z". The term asked about is read from the question and looked up among the terms
 * the release's acts define; the defining points then lead the answer. Only a term the corpus defines
 * word for word (after analysis) qualifies: "what is the deadline for ..." asks no definition.
 */
import type { Unit } from "../../canon/model.ts";
import { tokenize } from "../../search/analyser.ts";

const ASKS = [
  /\bwhat\s+(?:counts|qualifies|is\s+considered|is\s+regarded|is\s+meant|are\s+considered|is\s+understood)\s+(?:as|by)\s+(.+)/iu,
  /\b(?:definition|meaning|concept|notion)\s+of\s+(.+)/iu,
  /\bhow\s+(?:is|are|does\s+\S+\s+define)\s+(.+?)(?:\s+defined\b|$)/iu,
  /\bdefines?\s+(.+)/iu,
  /\bwhat\s+does\s+(.+?)\s+mean\b/iu,
  /\bwho\s+(?:is|are|counts\s+as|qualifies\s+as)\s+(.+)/iu,
  /\bwhat\s+(?:is|are)\s+(.+)/iu,
  /^(.+?)\s+(?:definition|defined|meaning)\b/iu,
];
/** Where the term ends: the act it is asked under, or the end of the question. */
const TAIL =
  /\s+(?:under|in|according\s+to|for\s+the\s+purposes?\s+of|within\s+the\s+meaning\s+of|pursuant\s+to|as\s+defined|as\s+used|defined\s+in|mean|exactly|legally)\b.*$|[?.!]+$/iu;
/**
 * An article, and "the term ‘…’", "the expression ‘…’": words naming the quoted term, not part of it
 * (only before a quotation mark: "term deposit" is a term).
 */
const LEAD = /^(?:(?:an?|the)\s+)?(?:(?:term|expression|word|concept|notion)\s+(?=['‘’"“”]))?/iu;
/** "as defined in Article 4(1) of Regulation ..." : a definition that borrows another act's. */
const BORROWED =
  /\b(?:as\s+defined\s+in|within\s+the\s+meaning\s+of|has\s+the\s+(?:same\s+)?meaning|as\s+referred\s+to\s+in)\b/iu;

/** The term a definition question asks about, analysed; null when the question asks none. */
export function askedTerm(question: string): string | null {
  for (const pattern of ASKS) {
    const m = pattern.exec(question);
    if (!m) continue;
    const raw = (m[1] as string)
      .replace(TAIL, "")
      .replace(LEAD, "")
      .replace(/['‘’"“”]/gu, " ");
    const term = tokenize(raw).join(" ");
    if (term !== "") return term;
  }
  return null;
}

export class Definitions {
  private readonly byTerm = new Map<string, Unit[]>();

  constructor(units: Unit[]) {
    for (const u of units) {
      if (!u.defines) continue;
      const key = tokenize(u.defines).join(" ");
      this.byTerm.set(key, [...(this.byTerm.get(key) ?? []), u]);
    }
  }

  /**
   * The units defining `term`, those that define it in their own words before those that borrow
   * another act's definition; `rank` orders units within each kind (the query's score of them).
   */
  defining(term: string, rank: (u: Unit) => number): Unit[] {
    const units = this.byTerm.get(term) ?? [];
    const own = (u: Unit) => (BORROWED.test(u.own_text) ? 1 : 0);
    return [...units].sort((a, b) => own(a) - own(b) || rank(b) - rank(a));
  }
}
