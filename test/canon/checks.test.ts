/**
 * The defect checks, one planted defect at a time: a clean corpus reports nothing, and a corpus with one
 * defect planted reports exactly that defect's check, once. Every check has its plant, so a check added
 * without one fails here.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CHECKS, runChecks } from "../../src/canon/checks.ts";
import type { Unit } from "../../src/canon/model.ts";

function unit(
  eid: string,
  kind: Unit["kind"],
  parent: string | null,
  own: string,
  extra: Partial<Unit> = {},
): Unit {
  const num = /_(\w+)$/u.exec(eid)?.[1] ?? null;
  return {
    node: `x/${eid}`,
    act: "x",
    eid,
    kind,
    num,
    heading: null,
    parent: parent === null ? null : `x/${parent}`,
    own_text: own,
    text: own,
    citation: eid,
    eli: `http://example.invalid/${eid}`,
    valid_from: "2030-01-01",
    valid_to: null,
    ...extra,
  };
}

/** A small act that passes every check: two chapters, three articles, numbered paragraphs, an annex. */
function clean(): Unit[] {
  return [
    unit("rec_1", "recital", null, "Widgets should be safe."),
    unit("chp_I", "chapter", null, "General provisions", { heading: "General provisions", num: "I" }),
    unit("art_1", "article", "chp_I", "This Regulation lays down rules on widgets.", {
      heading: "Subject matter",
    }),
    unit("art_2", "article", "chp_I", "", { heading: "Obligations" }),
    unit("art_2__para_1", "paragraph", "art_2", "Manufacturers shall keep records."),
    unit("art_2__para_2", "paragraph", "art_2", "From 1 January 2031, importers shall verify the records.", {
      valid_from: "2031-01-01",
    }),
    unit("chp_II", "chapter", null, "Final provisions", { heading: "Final provisions", num: "II" }),
    unit("art_3", "article", "chp_II", "This Regulation shall enter into force on the twentieth day.", {
      heading: "Entry into force",
    }),
    unit("anx_I", "annex", null, "Widgets shall comply with Directive 2099/2 (OJ L 1, 1.1.2099, p. 1).", {
      num: "I",
    }),
  ];
}

const at = (units: Unit[], eid: string) => units.find((u) => u.eid === eid) as Unit;

/** One defect per check, planted into the clean act. */
const PLANTS: Record<string, (units: Unit[]) => void> = {
  duplicate_node: (u) => u.push({ ...at(u, "chp_II") }),
  title_in_text: (u) => {
    at(u, "art_1").own_text = "Subject matter\nThis Regulation lays down rules on widgets.";
    // The source's other form of the defect: no title field, the title as the text's first line.
    Object.assign(at(u, "art_3"), { heading: null, own_text: "Entry into force" });
  },
  article_outside_structure: (u) => {
    at(u, "art_1").parent = null;
  },
  article_numbering_gap: (u) => {
    const a = at(u, "art_3");
    Object.assign(a, { eid: "art_4", node: "x/art_4", num: "4" });
  },
  paragraph_numbering_gap: (u) => {
    Object.assign(at(u, "art_2__para_2"), { eid: "art_2__para_3", node: "x/art_2__para_3", num: "3" });
  },
  lost_in_source: (u) => {
    Object.assign(at(u, "art_1"), { own_text: "", text: "", lost_in_source: "the source printed scraps" });
  },
  consolidation_marker: (u) => {
    at(u, "art_3").heading = "Entry into force▼M2";
  },
  enacting_formula_in_recital: (u) => {
    at(u, "rec_1").own_text = "Widgets should be safe.\n\nHAS ADOPTED THIS REGULATION:";
  },
  script_in_text: (u) => {
    at(u, "anx_I").own_text += "\n\n$(document).ready(function () { var x = 1; });";
  },
  page_furniture_in_text: (u) => {
    at(u, "anx_I").own_text += "\n\nISSN 1977-0677 (electronic edition)";
  },
  footnote_as_unit: (u) => {
    u.push(unit("art_3__subpara_2", "subparagraph", "art_3", "OJ C 365 E, 19.12.2000, p. 223."));
  },
  footnote_in_text: (u) => {
    at(u, "anx_I").own_text +=
      "\n\n(1) Directive 2099/2 of the European Parliament and of the Council of 1 January 2099 on gears (OJ L 1, 1.1.2099, p. 1).";
  },
  date_in_text_unapplied: (u) => {
    at(u, "art_2__para_2").valid_from = "2030-01-01";
  },
};

describe("defect checks", () => {
  test("a clean act has no findings", () => {
    for (const r of runChecks({ acts: [], units: clean() }))
      assert.equal(r.count, 0, `${r.check}: ${JSON.stringify(r.examples)}`);
  });

  test("every check has a planted defect in this test", () => {
    assert.deepEqual(CHECKS.map((c) => c.id).sort(), Object.keys(PLANTS).sort());
  });

  for (const check of CHECKS) {
    test(`${check.id}: one planted defect is found, and nothing else`, () => {
      const units = clean();
      (PLANTS[check.id] as (u: Unit[]) => void)(units);
      const found = runChecks({ acts: [], units }).filter((r) => r.count > 0);
      assert.deepEqual(
        found.map((r) => [r.check, r.count]),
        [[check.id, check.id === "title_in_text" ? 2 : 1]],
        JSON.stringify(found.map((r) => r.examples)),
      );
      assert.ok(found[0]?.examples[0]?.node.startsWith("x/"), "the finding names the unit");
    });
  }
});
