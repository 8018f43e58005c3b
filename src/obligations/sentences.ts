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

/**
 * A list item's own marker line, by style: "(a)" or "(iv)", "(1)", or a dash or bullet. A list keeps the
 * style of its first marker, so "(3)" after "(a)" … "(m)" numbers the next paragraph, not an item.
 */
const DASH = /^[—–•-]$/u;
const ITEM_STYLES = [/^\((?:[a-z]|[ivx]+)\)$/u, /^\(\d+\)$/u, DASH];

/**
 * Rules 8: the items an annex lists under a lead-in that is not split into point units (CRA Annex I:
 * "products with digital elements shall:", then "(a)", "be made available … ;", "(b)", …): the first
 * sentence after each marker of the first marker's style. An item may run on ("…; Where no minimum
 * levels are offered, a statement to this effect shall be made;"): the list goes on at the next marker
 * of its style, past sentences that end as an item does and dashes of a list inside the item, and ends
 * at anything else (a marker of another style, a heading, a new lead-in).
 */
export function listedItems(list: Sentence[], leadIn: number): Sentence[] {
  const style = ITEM_STYLES.find((re) => re.test(list[leadIn + 1]?.text ?? ""));
  const items: Sentence[] = [];
  if (!style) return items;
  let k = leadIn + 1;
  while (k + 1 < list.length && style.test((list[k] as Sentence).text)) {
    items.push(list[k + 1] as Sentence);
    k += 2;
    while (k < list.length && !style.test((list[k] as Sentence).text) && runsOn((list[k] as Sentence).text))
      k++;
  }
  return items;
}

/** A sentence inside an item: one that ends as an item does ("…;", "…, or"), or a dash of a list within it. */
const runsOn = (text: string) => /(?:[.;,]|\b(?:and|or))$/u.test(text) || DASH.test(text);
