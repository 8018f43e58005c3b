/**
 * Reading provision references in the styles people write them. Pure: the question's words only;
 * which act a reference lands in is tested against the real release in test/serve/retrieval.test.ts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readReferences } from "../../src/engine/query/citations.ts";

/** Each reference as "kind num/path...", in the order written. */
const read = (q: string) =>
  readReferences(q).map((r) =>
    r.eli ? `eli ${r.eli.number} ${r.eli.eid}` : [`${r.top.kind} ${r.top.num}`, ...r.path].join("/"),
  );

test("articles with paragraphs and points, in bracket, word and German styles", () => {
  assert.deepEqual(read("Art. 33(1) GDPR"), ["art 33/1"]);
  assert.deepEqual(read("Article 6(1)(f) of Regulation (EU) 2016/679"), ["art 6/1/f"]);
  assert.deepEqual(read("what does article 5 AI Act prohibit"), ["art 5"]);
  assert.deepEqual(read("art. 5(1)(b) gdpr"), ["art 5/1/b"]);
  assert.deepEqual(read("Art 28 DORA"), ["art 28"]);
  assert.deepEqual(read("point (a) of Article 23(4) NIS2"), ["art 23/4/a"]);
  assert.deepEqual(read("paragraph 2 of Article 5"), ["art 5/2"]);
  assert.deepEqual(read("Article 5(1), second subparagraph"), ["art 5/1/subpara:2"]);
  assert.deepEqual(read("Article 113, third subparagraph, point (a)"), ["art 113/subpara:3/a"]);
  assert.deepEqual(read("Art. 23 para. 4 lit. a NIS2"), ["art 23/4/a"]);
});

test("ranges and lists of articles and recitals", () => {
  assert.deepEqual(read("Articles 12 to 15 GDPR"), ["art 12", "art 13", "art 14", "art 15"]);
  assert.deepEqual(read("Arts. 12-14"), ["art 12", "art 13", "art 14"]);
  assert.deepEqual(read("Articles 15, 16 and 17"), ["art 15", "art 16", "art 17"]);
  assert.deepEqual(read("recitals 39 to 40"), ["rec 39", "rec 40"]);
  // A range too long to mean every article between is read as its two ends.
  assert.deepEqual(read("Articles 1 to 99"), ["art 1", "art 99"]);
});

test("recitals, annexes (roman or arabic), chapters", () => {
  assert.deepEqual(read("recital 83"), ["rec 83"]);
  assert.deepEqual(read("Annex III AI Act"), ["anx III"]);
  assert.deepEqual(read("annex 3"), ["anx III"]);
  assert.deepEqual(read("Chapter IV GDPR"), ["chp IV"]);
});

test("UN Regulation paragraphs by their dotted numbers", () => {
  assert.deepEqual(read("paragraph 7.2.2.2 of UN Regulation No 155"), ["art 7/7.2.2.2"]);
  assert.deepEqual(read("Article 7, paragraph 7.2.2.2 UN R155"), ["art 7/7.2.2.2"]);
});

test("ELI IRIs down to the point", () => {
  assert.deepEqual(read("http://data.europa.eu/eli/reg/2016/679/art_6/par_1/pnt_f/oj"), [
    "eli 2016/679 art_6__para_1__point_f",
  ]);
  assert.deepEqual(read("see data.europa.eu/eli/dir/2022/2555/rct_12/oj"), ["eli 2022/2555 rec_12"]);
});

test("numbers that are not provisions stay words", () => {
  assert.deepEqual(read("Regulation (EU) 2016/679"), []);
  assert.deepEqual(read("notify within 72 hours"), []);
  assert.deepEqual(read("state of the art security"), []);
  assert.deepEqual(read("Article 33 and 72 hours"), ["art 33"]);
});
