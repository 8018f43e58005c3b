/**
 * One act into units (src/canon/act.ts): eIds, parents, citations, ELI IRIs and dates from a canon entry
 * and a small made-up source; the text of each unit composed from its own text and its children's; the
 * defects a reader of quality.json must see.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildActUnits, composeText } from "../../src/canon/act.ts";
import type { ActCanon, Unit } from "../../src/canon/model.ts";
import { QualityLog } from "../../src/canon/quality.ts";
import type { SourceAct, SourceArticle } from "../../src/canon/source.ts";

const CANON: ActCanon = {
  id: "wsr",
  source: "wsr.json",
  sha256: "0".repeat(64),
  short_name: "WSR",
  aliases: [],
  title: "Widget Safety Regulation",
  number: "2099/1",
  type: "reg",
  celex: "32099R0001",
  eli: "http://data.europa.eu/eli/reg/2099/1/oj",
  jurisdiction: "EU",
  language: "en",
  entry_into_force: { date: "2099-12-21", provision: "art_3" },
  application: { date: "2100-01-01", provision: "art_3" },
  schedule: [],
  caveats: [],
  amended_by: [],
};

const SOURCE: SourceAct = {
  id: "WSR",
  full_name: "Widget Safety Regulation",
  celex_id: "32099R0001",
  effective_date: null,
  recitals: [
    { recital_number: 1, text: "Widgets should be safe." },
    { recital_number: 2, text: "Manufacturers should keep records." },
  ],
  definitions: [{ term: "widget", definition: "any device", article: "1" }],
  articles: [
    {
      number: "1",
      title: "Definitions",
      text: "For the purposes of this Regulation:\n\n(1)\n\n‘widget’ means any mechanical device;\n\n(2)\n\n‘manufacturer’ means any person who makes widgets.",
      chapter: "I",
    },
    {
      number: "2",
      title: "Obligations",
      text: "1.   Manufacturers shall keep records.\n\n2.   Importers shall verify:\n\n(a)\n\nthe label;\n\n(b)\n\nthe manual.",
      chapter: "II",
    },
    {
      number: "3",
      title: "Entry into force",
      text: "This Regulation shall enter into force on the twentieth day.",
      chapter: "II",
    },
  ],
};

function build(src: SourceAct = SOURCE, parser = 1, canon: ActCanon = CANON) {
  const log = new QualityLog(canon.id);
  const units = buildActUnits(canon, structuredClone(src), log, parser);
  const at = (eid: string) => units.find((u) => u.eid === eid) as Unit;
  return { units, at, log, defects: log.defects.map((d) => d.kind), repairs: log.repairs.map((r) => r.kind) };
}

const withArticles = (articles: SourceArticle[], extra: Partial<SourceAct> = {}): SourceAct => ({
  ...SOURCE,
  definitions: [],
  articles,
  ...extra,
});

describe("an act's units", () => {
  test("recitals, chapters from the source's chapter field, articles, paragraphs and points, in reading order", () => {
    const { units } = build();
    assert.deepEqual(
      units.map((u) => [u.eid, u.kind, u.parent]),
      [
        ["rec_1", "recital", null],
        ["rec_2", "recital", null],
        ["chp_I", "chapter", null],
        ["art_1", "article", "wsr/chp_I"],
        ["art_1__point_1", "point", "wsr/art_1"],
        ["art_1__point_2", "point", "wsr/art_1"],
        ["chp_II", "chapter", null],
        ["art_2", "article", "wsr/chp_II"],
        ["art_2__para_1", "paragraph", "wsr/art_2"],
        ["art_2__para_2", "paragraph", "wsr/art_2"],
        ["art_2__para_2__point_a", "point", "wsr/art_2__para_2"],
        ["art_2__para_2__point_b", "point", "wsr/art_2__para_2"],
        ["art_3", "article", "wsr/chp_II"],
      ],
    );
  });

  test("each unit carries its node, citation, ELI subdivision IRI and dates", () => {
    const { at } = build();
    const u = at("art_2__para_2__point_a");
    assert.equal(u.node, "wsr/art_2__para_2__point_a");
    assert.equal(u.citation, "Article 2(2)(a) WSR");
    assert.equal(u.eli, "http://data.europa.eu/eli/reg/2099/1/art_2/par_2/pnt_a/oj");
    assert.equal(u.num, "a");
    assert.equal(u.valid_from, "2100-01-01");
    assert.equal(at("rec_1").valid_from, "2099-12-21");
  });

  test("a unit's text is its own text with its children's, numbered as printed", () => {
    const { at } = build();
    assert.equal(at("art_2__para_2").own_text, "Importers shall verify:");
    assert.equal(
      at("art_2").text,
      "1. Manufacturers shall keep records.\n\n2. Importers shall verify:\n\n(a) the label;\n\n(b) the manual.",
    );
  });

  test("numbered definitions carry the term they define; a listed term no point defines is a defect", () => {
    const { at, defects } = build();
    assert.equal(at("art_1__point_1").defines, "widget");
    assert.equal(at("art_1__point_2").defines, "manufacturer");
    assert.deepEqual(defects, []);
    const missing = build({ ...SOURCE, definitions: [{ term: "gadget", definition: "x", article: "1" }] });
    assert.deepEqual(missing.defects, ["definition_not_in_text"]);
  });

  test("a recital twice is kept once; twice with different text is a defect; gaps and no recitals are defects", () => {
    const twice = build({
      ...SOURCE,
      recitals: [...(SOURCE.recitals ?? []), { recital_number: 1, text: "Widgets should be safe." }],
    });
    assert.deepEqual(twice.repairs, ["duplicate_recital_removed"]);
    const conflict = build({
      ...SOURCE,
      recitals: [...(SOURCE.recitals ?? []), { recital_number: 1, text: "Other." }],
    });
    assert.deepEqual(conflict.defects, ["conflicting_recital"]);
    assert.equal(conflict.at("rec_1").own_text, "Widgets should be safe.");
    const gap = build({
      ...SOURCE,
      recitals: [
        { recital_number: 1, text: "a" },
        { recital_number: 4, text: "b" },
      ],
    });
    assert.match(gap.log.defects[0]?.detail ?? "", /recitals missing from the source: 2, 3$/u);
    const none = build({ ...SOURCE, recitals: undefined });
    assert.deepEqual(none.defects, ["missing_recitals"]);
    assert.deepEqual(build({ ...SOURCE, recitals: undefined }, 1, { ...CANON, type: "un_reg" }).defects, []);
  });

  test("annexes split off the last article become units; a second annex with the same number is left out", () => {
    const src = withArticles([
      {
        number: "1",
        title: "Final",
        text: "It shall apply.\n\nANNEX I\n\nList\n\nOne.\n\nANNEX I\n\nAgain\n\nTwo.",
      },
    ]);
    const { units, at, defects } = build(src);
    assert.deepEqual(
      units.filter((u) => u.kind === "annex").map((u) => u.eid),
      ["anx_I"],
    );
    assert.equal(at("anx_I").heading, "List");
    assert.equal(at("anx_I").citation, "Annex I WSR");
    assert.deepEqual(defects, ["duplicate_annex"]);
  });

  test("a point printed with no text is a defect; from parser 4 the unit also says its text was lost", () => {
    const src = withArticles([
      {
        number: "1",
        title: "Duties",
        text: "Operators shall:\n\n(a)\n\nkeep records;\n\n(b)\n\n(c)\n\nreport.",
      },
    ]);
    const old = build(src, 3);
    assert.deepEqual(old.defects, ["empty_point"]);
    assert.equal(old.at("art_1__point_b").lost_in_source, undefined);
    assert.match(
      build(src, 4).at("art_1__point_b").lost_in_source ?? "",
      /prints the label of Article 1\(b\) WSR with no text/u,
    );
  });

  test("a flattened power of ten beside floating-point operations is restored; other suspects are reported", () => {
    const src = withArticles([
      {
        number: "1",
        title: "Thresholds",
        text: "A model trained with more than 1025 floating point operations, or 1024 of them, is covered.",
      },
    ]);
    const { at, repairs, defects } = build(src);
    assert.equal(
      at("art_1").own_text,
      "A model trained with more than 10^25 floating point operations, or 1024 of them, is covered.",
    );
    assert.deepEqual(repairs, ["superscript_restored"]);
    assert.deepEqual(defects, ["superscript_suspect"]);
  });

  test("parser 3: the enacting formula and what follows it are cut from the last recital", () => {
    const src = {
      ...SOURCE,
      recitals: [
        { recital_number: 1, text: "Widgets should be safe.\n\nHAS ADOPTED THIS REGULATION:\n\nCHAPTER I" },
      ],
    };
    assert.match(build(src, 2).at("rec_1").own_text, /ADOPTED/u);
    const r = build(src, 3);
    assert.equal(r.at("rec_1").own_text, "Widgets should be safe.");
    assert.ok(r.repairs.includes("enacting_formula_split"));
  });

  test("parser 4: articles before a first printed Chapter II are placed in a restored Chapter I without heading", () => {
    const src = withArticles([
      { number: "1", title: "Scope", text: "Rules.\n\nCHAPTER II\n\nDuties" },
      { number: "2", title: "Duties", text: "Manufacturers shall keep records." },
    ]);
    const old = build(src, 3);
    assert.equal(old.at("art_1").parent, null);
    const { units, at, repairs } = build(src, 4);
    assert.deepEqual(
      units.filter((u) => u.kind !== "recital").map((u) => u.eid),
      ["chp_I", "art_1", "chp_II", "art_2"],
    );
    assert.equal(at("art_1").parent, "wsr/chp_I");
    assert.match(at("chp_I").lost_in_source ?? "", /lost the heading of Chapter I/u);
    assert.ok(repairs.includes("first_heading_lost"));
  });

  test("parser 2: an article whose title was read from its body keeps its former eIds as aliases", () => {
    const src = withArticles([
      {
        number: "1",
        text: "Record keeping\n\nManufacturers shall keep records.\n\nImporters shall check them.",
      },
    ]);
    const { at } = build(src, 2);
    assert.equal(at("art_1").heading, "Record keeping");
    assert.deepEqual(at("art_1").aliases, ["art_1__subpara_2"]);
    assert.deepEqual(at("art_1__subpara_2").aliases, ["art_1__subpara_3"]);
  });
});

describe("an act's outline", () => {
  const outline = (articles: SourceArticle[], parser: number) =>
    build(withArticles(articles), parser)
      .units.filter((u) => u.kind !== "recital")
      .map((u) => `${u.eid} < ${u.parent ?? "-"}`);

  test("parser 3: a Part holds its Titles, so Part II's Title I does not collide with Part I's", () => {
    const articles = [
      { number: "1", title: "A", text: "Rules.\n\nPART II\n\nNetworks\n\nTITLE I\n\nGeneral" },
      { number: "2", title: "B", text: "Operators shall notify." },
    ];
    assert.deepEqual(outline(articles, 2), [
      "art_1 < -",
      "part_II < -",
      "title_I < -",
      "art_2 < wsr/title_I",
    ]);
    assert.deepEqual(outline(articles, 3), [
      "art_1 < -",
      "part_II < -",
      "part_II__title_I < wsr/part_II",
      "art_2 < wsr/part_II__title_I",
    ]);
  });

  test("parser 4: an article right under a Part hangs from it, and a chapter field a Part closed is not reopened", () => {
    const articles = [
      { number: "1", title: "A", text: "Rules.\n\nCHAPTER I\n\nScope", chapter: "I" },
      {
        number: "2",
        title: "B",
        text: "Operators shall notify.\n\nPART IV\n\nFinal provisions",
        chapter: "I",
      },
      { number: "3", title: "C", text: "It shall apply.", chapter: "I" },
      { number: "4", title: "D", text: "It shall bind.", chapter: "I" },
    ];
    assert.deepEqual(outline(articles, 4), [
      "art_1 < -",
      "chp_I < -",
      "art_2 < wsr/chp_I",
      "part_IV < -",
      "art_3 < wsr/part_IV",
      "art_4 < wsr/part_IV",
    ]);
    assert.ok(build(withArticles(articles), 4).repairs.includes("stale_chapter_field"));
  });

  test("parser 4: a second heading under the open chapter's number is the inserted chapter after it", () => {
    const articles = [
      { number: "1", title: "A", text: "Rules.\n\nCHAPTER IV\n\nTrust services" },
      { number: "2", title: "B", text: "Providers shall notify.\n\nCHAPTER IV\n\nGovernance framework" },
      { number: "3", title: "C", text: "The board shall meet." },
    ];
    const r = build(withArticles(articles), 4);
    assert.deepEqual(
      r.units.filter((u) => u.kind === "chapter").map((u) => [u.eid, u.heading]),
      [
        ["chp_IV", "Trust services"],
        ["chp_IVa", "Governance framework"],
      ],
    );
    assert.ok(r.repairs.includes("inserted_chapter_numbered"));
  });

  test("a chapter field running backwards is a defect and the article stays in the open chapter", () => {
    const articles = [
      { number: "1", title: "A", text: "Rules.", chapter: "II" },
      { number: "2", title: "B", text: "Operators shall notify.", chapter: "I" },
    ];
    const r = build(withArticles(articles), 1);
    assert.deepEqual(r.at("art_2").parent, "wsr/chp_II");
    assert.deepEqual(r.defects, ["chapter_field_inconsistent"]);
  });
});

describe("composing text", () => {
  test("own text, then each child with its printed label; an empty point keeps its label", () => {
    const u = (
      node: string,
      kind: Unit["kind"],
      parent: string | null,
      own: string,
      num: string | null = null,
    ) => ({ node, kind, parent, own_text: own, text: "", num }) as Unit;
    const units = [
      u("a/art_1", "article", null, "Lead:"),
      u("a/art_1__para_1", "paragraph", "a/art_1", "First.", "1"),
      u("a/art_1__para_1__point_a", "point", "a/art_1__para_1", "", "a"),
      u("a/art_1__para_1__indent_1", "indent", "a/art_1__para_1", "dash", "1"),
    ];
    composeText(units);
    assert.equal(units[0]?.text, "Lead:\n\n1. First.\n\n(a)\n\n— dash");
    assert.equal(units[2]?.text, "");
  });
});
