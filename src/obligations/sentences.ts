/**
 * The sentences of a unit's text: where a duty is looked for. A sentence ends at a full stop or a
 * semicolon, not at an abbreviation or a citation ("No. 2", "Art.", "(EU) 2016/679.").
 */
export interface Sentence {
  text: string;
  start: number;
}

/**
 * Before rules 8 a full stop followed by a digit ("Section 2.2", "point 4.6", "EUR 1.5 million") could
 * end no piece, so the words before it were skipped and the sentence began mid-number ("2 thereof, and
 * thereafter shall keep the information updated"). Rules 8 keep such a stop, and one before a comma,
 * semicolon or bracket, or a lower-case word ("Points 4.3., 4.4., 4.5. and the fifth paragraph", "i.e.
 * where"), inside the sentence; and a line that ends without a stop (an annex's "… shall:" before its
 * items, a heading) is a sentence of its own where before it was skipped.
 */
const PIECE = /[^.;\n]+(?:[.;](?![0-9])|$)/gu;
const PIECE_8 = /(?:[^.;\n]|\.(?=[0-9a-z,;)]|[ \t]+[a-z]))+(?:[.;](?![0-9])|(?=\n)|$)/gu;

/** Sentences (and `;`-ended clauses) of a text with their offsets. */
export function sentences(text: string, rules = 0): Sentence[] {
  const out: Sentence[] = [];
  const re = rules >= 8 ? PIECE_8 : PIECE;
  let buf = "";
  let bufStart = -1;
  for (const m of text.matchAll(re)) {
    const piece = m[0];
    const start = m.index ?? 0;
    if (bufStart < 0) bufStart = start;
    buf = text.slice(bufStart, start + piece.length);
    // Do not end a sentence at an abbreviation or a citation ("No. 2", "Art.", "p. 1", "(EU) 2016/679.")
    if (/\b(?:No|Art|p|pp|para|e\.g|i\.e|cf|et seq|OJ)\.$/u.test(piece.trimEnd())) continue;
    out.push({ text: buf, start: bufStart });
    buf = "";
    bufStart = -1;
  }
  return out
    .map((s) => {
      const lead = s.text.length - s.text.trimStart().length;
      return { text: s.text.trim(), start: s.start + lead };
    })
    .filter((s) => s.text.length > 0);
}

/** A list item's own marker line: "(a)", "(iv)", a dash or a bullet; "(3)" numbers a paragraph, not an item. */
const ITEM_MARKER = /^(?:\((?:[a-z]|[ivx]+)\)|[—–•-])$/u;

/**
 * Rules 8: the items an annex lists under a lead-in that is not split into point units (CRA Annex I:
 * "products with digital elements shall:", then "(a)", "be made available … ;", "(b)", …): the
 * sentence after each item marker, up to the first sentence that follows no marker.
 */
export function listedItems(list: Sentence[], leadIn: number): Sentence[] {
  const items: Sentence[] = [];
  for (let k = leadIn + 1; k + 1 < list.length && ITEM_MARKER.test((list[k] as Sentence).text); k += 2)
    items.push(list[k + 1] as Sentence);
  return items;
}
