/**
 * Definition questions (src/engine/query/definitions.ts): the term a question asks about, read in the
 * ways people ask, and the units defining it, their own definitions before borrowed ones.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Unit } from "../../src/canon/model.ts";
import { askedTerm, Definitions } from "../../src/engine/query/definitions.ts";
import { tokenize } from "../../src/search/analyser.ts";

const t = (s: string) => tokenize(s).join(" ");

describe("definition questions", () => {
  test("the term asked about, from each way of asking, without the act it is asked under", () => {
    const asked: [string, string][] = [
      ["What counts as a serious incident under the WSR?", "serious incident"],
      ["definition of personal data", "personal data"],
      ["How is 'widget' defined?", "widget"],
      ["What does manufacturer mean in the GDPR?", "manufacturer"],
      ["Who is a controller according to the GDPR?", "controller"],
      ["What is an ICT-related incident?", "ICT-related incident"],
      ["widget definition", "widget"],
    ];
    for (const [q, term] of asked) assert.equal(askedTerm(q), t(term), q);
  });

  test("'the term' is not part of the term asked about", () => {
    assert.equal(askedTerm("meaning of the term ‘consent’"), t("consent"));
    assert.equal(
      askedTerm("what does the expression 'placing on the market' mean?"),
      t("placing on the market"),
    );
    assert.equal(
      askedTerm("definition of term deposit"),
      t("term deposit"),
      "unquoted, 'term' is the term's",
    );
  });

  test("a question that asks no definition has no term", () => {
    assert.equal(askedTerm("Manufacturers shall keep records for how long?"), null);
    assert.equal(askedTerm("what is the?"), null, "nothing left once the stop words go");
  });

  test("the units defining a term: own definitions first, then borrowed; ranked within each", () => {
    const u = (node: string, own: string) => ({ node, own_text: own, defines: "widget" }) as Unit;
    const defs = new Definitions([
      u("b/art_2__point_1", "‘widget’ has the same meaning as in Regulation X;"),
      u("a/art_2__point_1", "‘widget’ means any device;"),
      u("c/art_4__point_9", "‘widget’ means a device with a rotating part;"),
      { node: "a/art_3", own_text: "Widgets shall be safe." } as Unit,
    ]);
    const rank = (x: Unit) => (x.node.startsWith("c/") ? 2 : 1);
    assert.deepEqual(
      defs.defining(t("widget"), rank).map((x) => x.node),
      ["c/art_4__point_9", "a/art_2__point_1", "b/art_2__point_1"],
    );
    assert.deepEqual(defs.defining(t("gadget"), rank), []);
  });
});
