/**
 * Who holds a thing-subject duty, read from the duties before it (src/obligations/thing-trail.ts, rules 9).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { referencedUnit, ThingTrail } from "../../src/obligations/thing-trail.ts";

describe("the thing trail", () => {
  test("a thing referred to in a paragraph or subparagraph names that unit of its own article", () => {
    const node = "nis2/art_21__para_2__point_h";
    assert.equal(referencedUnit(node, "The measures referred to in paragraph 1"), "nis2/art_21__para_1");
    assert.equal(
      referencedUnit(
        "mifid2/art_73__para_1__subpara_2__point_a",
        "The mechanisms referred to in the first subparagraph",
      ),
      "mifid2/art_73__para_1__subpara_1",
    );
    assert.equal(referencedUnit(node, "The measures referred to in paragraph 1 of Article 20"), null);
    assert.equal(referencedUnit(node, "The measures"), null);
  });

  test("the thing is held as the duty there that names it; a document as the duty that made it", () => {
    const trail = new ThingTrail<string>();
    trail.remember(
      "nis2/art_21",
      "nis2/art_21__para_1",
      "ensure that essential entities take measures",
      "member_state",
    );
    trail.remember("nis2/art_21", "nis2/art_21__para_1", "report the incident", "entity");
    assert.equal(
      trail.holderOf(
        "nis2/art_21",
        "nis2/art_21__para_2__point_h",
        "The measures referred to in paragraph 1",
      ),
      "member_state",
    );
    trail.remember(
      "aifmd/art_47",
      "aifmd/art_47__para_8",
      "notify the competent authorities of the decision",
      "esma",
    );
    assert.equal(trail.holderOf("aifmd/art_47", "aifmd/art_47__para_8__point_a", "The notification"), "esma");
    assert.equal(trail.holderOf("aifmd/art_47", "aifmd/art_47__para_8__point_a", "The register"), undefined);
  });
});
