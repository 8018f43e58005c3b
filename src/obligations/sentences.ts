/**
 * The sentences of a unit's text: where a duty is looked for. A sentence ends at a full stop or a
 * semicolon, not at an abbreviation or a citation ("No. 2", "Art.", "(EU) 2016/679.").
 */
export interface Sentence {
  text: string;
  start: number;
}

/** Sentences (and `;`-ended clauses) of a text with their offsets. */
export function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const re = /[^.;\n]+(?:[.;](?![0-9])|$)/gu;
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
