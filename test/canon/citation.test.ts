/** How a unit is cited (src/canon/citation.ts): the label a lawyer writes and the ELI IRI. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { citationLabel, expressionIri, subdivisionIri, workIri } from "../../src/canon/citation.ts";
import type { ActCanon } from "../../src/canon/model.ts";

const gdpr = {
  eli: "http://data.europa.eu/eli/reg/2016/679/oj",
  type: "reg",
  number: "2016/679",
} as ActCanon;

describe("citations", () => {
  test("labels as a lawyer writes them", () => {
    const cases: [string, string][] = [
      ["art_33__para_1", "Article 33(1) GDPR"],
      ["art_5__para_1__point_f", "Article 5(1)(f) GDPR"],
      ["art_4__point_7", "Article 4(7) GDPR"],
      ["rec_83", "Recital 83 GDPR"],
      ["anx_III", "Annex III GDPR"],
      ["chp_IV__sec_2", "Chapter IV, Section 2 GDPR"],
    ];
    for (const [eid, label] of cases) assert.equal(citationLabel(eid, "GDPR"), label, eid);
  });

  test("an unnumbered subparagraph is named by its ordinal", () => {
    assert.match(
      citationLabel("art_113__subpara_3__point_a", "AI Act"),
      /^Article 113, third (paragraph|subparagraph), point \(a\) AI Act$/u,
    );
  });

  test("ELI subdivision IRIs follow the act's ELI", () => {
    assert.equal(
      subdivisionIri(gdpr, "art_33__para_1"),
      "http://data.europa.eu/eli/reg/2016/679/art_33/par_1/oj",
    );
  });

  test("an act without an ELI is named by its CELEX in Cellar, its units by fragments", () => {
    const un = { celex: "42021X0387", language: "en", type: "un_reg" } as ActCanon;
    assert.equal(workIri(un), "http://publications.europa.eu/resource/celex/42021X0387");
    assert.equal(expressionIri(un), "http://publications.europa.eu/resource/celex/42021X0387/eng");
    assert.equal(
      expressionIri({ ...un, language: "fr" }),
      "http://publications.europa.eu/resource/celex/42021X0387/fr",
    );
    assert.equal(
      subdivisionIri(un, "art_7__para_7.2.2"),
      "http://publications.europa.eu/resource/celex/42021X0387#art_7/par_7.2.2",
    );
    assert.equal(citationLabel("art_7__para_7.2.2", "UN R155"), "Article 7, paragraph 7.2.2 UN R155");
  });

  test("titles, sections and indents", () => {
    assert.equal(citationLabel("title_III__sec_1", "MiCA"), "Title III, Section 1 MiCA");
    assert.equal(citationLabel("art_2__para_1__indent_2", "X"), "Article 2(1), second indent X");
  });

  test("a Title inside a Part is cited after a comma (parser 5; earlier releases keep their labels)", () => {
    assert.equal(citationLabel("part_II__title_I__chp_3", "EECC", 5), "Part II, Title I, Chapter 3 EECC");
    assert.equal(citationLabel("part_II__title_I__chp_3", "EECC", 4), "Part IITitle I, Chapter 3 EECC");
  });
});
