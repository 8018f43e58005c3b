/** How a unit is cited (src/canon/citation.ts): the label a lawyer writes and the ELI IRI. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { citationLabel, subdivisionIri } from "../../src/canon/citation.ts";
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
});
