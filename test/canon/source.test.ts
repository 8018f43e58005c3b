/**
 * Cleaning a scraped source (src/canon/source.ts): the article list becomes clean articles and annexes,
 * with the signature, footnotes and annexes glued onto the last article split off, headings glued onto
 * an article moved before the next, and correlation-table scraps set aside. Every repair is logged.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { QualityLog } from "../../src/canon/quality.ts";
import { cleanSource, looksLikeTitle, type SourceAct, type SourceArticle } from "../../src/canon/source.ts";

const act = (articles: SourceArticle[], extra: Partial<SourceAct> = {}): SourceAct => ({
  id: "X",
  full_name: "Example Regulation",
  celex_id: "32099R0009",
  effective_date: null,
  articles,
  ...extra,
});

function clean(src: SourceAct, parser = 1) {
  const log = new QualityLog("x");
  const out = cleanSource(src, log, parser);
  return { ...out, log, repairs: log.repairs.map((r) => r.kind), defects: log.defects.map((d) => d.kind) };
}

describe("cleaning a source", () => {
  test("an article's title repeated as its first line is removed; a stray backquote in the title is fixed", () => {
    const r = clean(
      act([
        { number: "1", title: "Subject matter`", text: "Subject matter\n\nThis Regulation lays down rules." },
      ]),
    );
    assert.deepEqual(
      r.articles.map((a) => [a.num, a.heading, a.blocks]),
      [["1", "Subject matter", ["This Regulation lays down rules."]]],
    );
    assert.deepEqual(r.repairs.sort(), ["title_removed_from_text", "title_typo_fixed"]);
  });

  test("the signature, its footnotes and the annexes glued after the last article are split off", () => {
    const text = [
      "This Regulation shall enter into force on the twentieth day.",
      "Done at Brussels, 1 December 2099.",
      "For the Council",
      "The President",
      "(1) OJ L 1, 1.1.2099, p. 1.",
      "ANNEX I",
      "Technical requirements",
      "1. Widgets shall not rotate too fast.",
      "ANNEX II",
      "Conformity",
      "Text of annex two.",
    ].join("\n\n");
    const r = clean(act([{ number: "9", title: "Entry into force", text }]));
    assert.deepEqual(r.articles[0]?.blocks, ["This Regulation shall enter into force on the twentieth day."]);
    assert.deepEqual(r.annexes, [
      { num: "I", heading: "Technical requirements", blocks: ["1. Widgets shall not rotate too fast."] },
      { num: "II", heading: "Conformity", blocks: ["Text of annex two."] },
    ]);
    assert.deepEqual(r.repairs, ["signature_split", "footnotes_split", "annex_split", "annex_split"]);
    assert.match(r.log.repairs[0]?.detail ?? "", /\(3 block\(s\)\)/u);
  });

  test("'ANNEX' followed by punctuation is a cross-reference, not the start of an annex", () => {
    const r = clean(
      act([{ number: "1", title: "Scope", text: "as listed in the\n\nANNEX\n\n, and nothing else." }]),
    );
    assert.deepEqual(r.annexes, []);
    assert.equal(r.articles[0]?.blocks.length, 3);
  });

  test("a chapter and section heading glued onto an article move before the next article", () => {
    const r = clean(
      act([
        {
          number: "1",
          title: "Subject matter",
          text: "Rules on widgets.\n\nCHAPTER II\n\nObligations\n\nSection 1\n\nGeneral rules",
          chapter: "I",
        },
        { number: "2", title: "Duties", text: "Manufacturers shall keep records.", chapter: "II" },
      ]),
    );
    assert.deepEqual(r.articles[0]?.blocks, ["Rules on widgets."]);
    assert.deepEqual(r.articles[1]?.headingsBefore, [
      { kind: "chapter", num: "II", text: "Obligations" },
      { kind: "section", num: "1", text: "General rules" },
    ]);
    assert.deepEqual(r.repairs, ["heading_moved", "heading_moved"]);
  });

  test("unlabelled heading lines move only when the chapter field changes; a section without text is a defect", () => {
    const same = clean(
      act([
        { number: "1", title: "A", text: "Rules on widgets.\n\nObligations of operators", chapter: "I" },
        { number: "2", title: "B", text: "Manufacturers shall keep records.", chapter: "I" },
      ]),
    );
    assert.deepEqual(same.articles[0]?.blocks, ["Rules on widgets.", "Obligations of operators"]);
    const changes = clean(
      act([
        { number: "1", title: "A", text: "Rules on widgets.\n\nObligations of operators", chapter: "I" },
        { number: "2", title: "B", text: "Manufacturers shall keep records.\n\nSection 2", chapter: "II" },
        { number: "3", title: "C", text: "Importers shall verify.", chapter: "II" },
      ]),
    );
    assert.deepEqual(changes.articles[1]?.headingsBefore, [
      { kind: "chapter", num: "I", text: "Obligations of operators" },
    ]);
    assert.deepEqual(changes.articles[2]?.headingsBefore, [{ kind: "section", num: "2", text: null }]);
    assert.ok(changes.defects.includes("heading_text_missing"));
  });

  test("a correlation-table scrap is left out before parser 4, and kept as a lost article from parser 4", () => {
    const articles = [
      { number: "1", title: "Scope", text: "Rules on widgets." },
      { number: "2", title: "Article 14(1)", text: "Article 21(1)\n\n—\n\nArticle 22" },
      { number: "3", title: "Final", text: "It shall apply." },
    ];
    const old = clean(act(articles), 3);
    assert.deepEqual(
      old.articles.map((a) => a.num),
      ["1", "3"],
    );
    assert.deepEqual(old.defects, ["correlation_table_scrap"]);
    const now = clean(act(articles), 4);
    assert.deepEqual(
      now.articles.map((a) => [a.num, a.blocks.length, a.lost !== undefined]),
      [
        ["1", 1, false],
        ["2", 0, true],
        ["3", 1, false],
      ],
    );
    assert.deepEqual(now.defects, ["article_lost_in_source"]);
    assert.match(
      now.articles[1]?.lost ?? "",
      /correlation-table entries .* in place of Article 2's title and text/u,
    );
  });

  test("scraps after the last article are the correlation table, never lost articles", () => {
    const r = clean(
      act([
        { number: "1", title: "Scope", text: "Rules on widgets." },
        { number: "2", title: "Annex", text: "—" },
      ]),
      4,
    );
    assert.deepEqual(
      r.articles.map((a) => a.num),
      ["1"],
    );
    assert.deepEqual(r.defects, ["correlation_table_scrap"]);
  });

  test("a consolidated text's inserted article is split out of the article before it", () => {
    const r = clean(
      act([
        {
          number: "14",
          title: "Records",
          text: "▼B\n\nKeep records.\n\n▼M1\n\nArticle 14a\n\nAudits\n\nAudit yearly.",
        },
        { number: "15", title: "Final", text: "It shall apply." },
      ]),
    );
    assert.deepEqual(
      r.articles.map((a) => [a.num, a.heading, a.blocks]),
      [
        ["14", "Records", ["Keep records."]],
        ["14a", "Audits", ["Audit yearly."]],
        ["15", "Final", ["It shall apply."]],
      ],
    );
    assert.ok(r.repairs.includes("inserted_article_split"));
  });

  test("an article naming 'Article 14a' in an amending act is quoted text, not an inserted article", () => {
    const r = clean(
      act([
        {
          number: "3",
          title: "Amendments",
          text: "The following is inserted:\n\nArticle 14a\n\nAudits\n\nAudit yearly.",
        },
      ]),
    );
    assert.equal(r.articles.length, 1);
  });

  test("parser 2 reads a title the source left as the body's first line", () => {
    const src = act([{ number: "5", text: "Record keeping\n\nManufacturers shall keep records." }]);
    assert.equal(clean(src, 1).articles[0]?.heading, null);
    const r = clean(src, 2);
    assert.equal(r.articles[0]?.heading, "Record keeping");
    assert.equal(r.articles[0]?.titleFromText, true);
    assert.deepEqual(r.repairs, ["title_in_text"]);
  });

  test("a UN regulation's article named 'Annex 1' is an annex", () => {
    const r = clean(
      act([
        {
          number: "Annex 1",
          title: "Communication form",
          text: "Communication form\n\nName of the manufacturer",
        },
      ]),
    );
    assert.deepEqual(r.articles, []);
    assert.deepEqual(r.annexes, [
      { num: "1", heading: "Communication form", blocks: ["Name of the manufacturer"] },
    ]);
  });

  test("parser 3: the web page's ELI and ISSN lines and script are removed", () => {
    const text =
      "It shall apply.\n\nELI: http://data.europa.eu/eli/reg/2099/9/oj\n\nISSN 1977-0677 (electronic edition)\n\n$(document).ready(function () {})";
    assert.equal(clean(act([{ number: "1", title: "A", text }]), 1).articles[0]?.blocks.length, 4);
    const r = clean(act([{ number: "1", title: "A", text }]), 3);
    assert.deepEqual(r.articles[0]?.blocks, ["It shall apply."]);
    assert.deepEqual(r.repairs, [
      "page_furniture_removed",
      "page_furniture_removed",
      "page_furniture_removed",
    ]);
  });

  test("parser 3: the first Title heading glued after the enacting formula onto the last recital is recovered", () => {
    const r = clean(
      act([{ number: "1", title: "Scope", text: "Rules." }], {
        recitals: [
          {
            recital_number: 1,
            text: "Widgets matter.\n\nHAS ADOPTED THIS REGULATION:\n\nTITLE I\n\nGeneral provisions",
          },
        ],
      }),
      3,
    );
    assert.deepEqual(r.articles[0]?.headingsBefore, [
      { kind: "title", num: "I", text: "General provisions" },
    ]);
    assert.deepEqual(r.repairs, ["first_heading_recovered"]);
  });

  test("parser 4: footnotes glued after the last article and footnote bodies in annexes are dropped", () => {
    const r = clean(
      act([
        {
          number: "1",
          title: "Final",
          text: "It shall apply as Member States decide. (1)\n\nOJ C 365 E, 19.12.2000, p. 223.\n\nANNEX\n\nList\n\nProducts of the Council (2) of this kind.\n\n(2) Council Regulation (EC) No 1/2003 (OJ L 1, 4.1.2003, p. 1).",
        },
      ]),
      4,
    );
    assert.deepEqual(r.articles[0]?.blocks, ["It shall apply as Member States decide."]);
    assert.deepEqual(r.annexes[0]?.blocks, ["Products of the Council (2) of this kind."]);
    assert.deepEqual(r.repairs.filter((k) => k === "footnotes_split").length, 2);
  });

  test("parser 4: a consolidation marker in a title is removed", () => {
    const r = clean(act([{ number: "1", title: "▼M1 Scope", text: "Rules." }]), 4);
    assert.equal(r.articles[0]?.heading, "Scope");
    assert.ok(r.repairs.includes("consolidation_marker_stripped"));
  });
});

describe("what looks like a title", () => {
  test("a short capitalised line without closing punctuation or a verb of duty", () => {
    assert.ok(looksLikeTitle("Obligations of manufacturers"));
    assert.ok(!looksLikeTitle("obligations of manufacturers"), "lower case");
    assert.ok(!looksLikeTitle("Manufacturers shall keep records"), "a duty");
    assert.ok(!looksLikeTitle("For the purposes of this Regulation:"), "punctuated");
    assert.ok(!looksLikeTitle("CHAPTER II"), "a structural label");
    assert.ok(!looksLikeTitle("ANNEX III"), "an annex label");
    assert.ok(!looksLikeTitle(`A${"b".repeat(200)}`), "too long");
  });
});
