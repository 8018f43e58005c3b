/**
 * References resolved to units (src/engine/query/resolve.ts) in the fixture release with two acts: the
 * act named after a reference, or before it, or the only act named; with none named, every act that has
 * the provision; a path past the text stops at the deepest unit that exists, saying what was asked.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readReferences } from "../../src/engine/query/citations.ts";
import { resolveReferences } from "../../src/engine/query/resolve.ts";
import { fixtureEngine, fixtureScope } from "../helpers/fixture-release.ts";

const e = fixtureEngine({ twoActs: true });
const scope = fixtureScope(e);
const resolve = (q: string, admitted: (act: string) => boolean = () => true) =>
  resolveReferences(e, readReferences(q), scope.read(q).mentions, q, admitted).map(
    (c) => `${c.unit.node}${c.ambiguous ? " ?" : ""}${c.unresolved ? ` (asked ${c.unresolved})` : ""}`,
  );

describe("resolving references", () => {
  test("the act named right after the reference, or right before it", () => {
    assert.deepEqual(resolve("Article 3(2) GSR"), ["gadgets/art_3__para_2"]);
    assert.deepEqual(resolve("Article 3(2) of the WSR"), ["widgets/art_3__para_2"]);
    assert.deepEqual(resolve("GSR Article 5"), ["gadgets/art_5"]);
    assert.deepEqual(resolve("WSR's Article 5"), ["widgets/art_5"]);
  });

  test("the nearest act named earlier, unless another reference stands between; else the only act named", () => {
    assert.deepEqual(resolve("Under the GSR, what does Article 4 require?"), ["gadgets/art_4"]);
    assert.deepEqual(resolve("Article 4 — how does the WSR read it?"), ["widgets/art_4"]);
  });

  test("with no act named, every admitted act that has the provision, marked ambiguous", () => {
    assert.deepEqual(resolve("Article 3(2)"), ["widgets/art_3__para_2 ?", "gadgets/art_3__para_2 ?"]);
    assert.deepEqual(
      resolve("Article 3(2)", (a) => a === "gadgets"),
      ["gadgets/art_3__para_2 ?"],
    );
    assert.deepEqual(resolve("Article 3(9)"), [], "an ambiguous reference past the text is dropped");
  });

  test("points, subparagraphs, recitals and annexes", () => {
    assert.deepEqual(resolve("Article 3(3)(b) WSR"), ["widgets/art_3__para_3__point_b"]);
    assert.deepEqual(resolve("recital 2 WSR"), ["widgets/rec_2"]);
    assert.deepEqual(resolve("Annex I GSR"), ["gadgets/anx_I"]);
  });

  test("'second subparagraph' resolves to the subparagraph", () => {
    assert.deepEqual(resolve("Article 3(3), second subparagraph WSR"), ["widgets/art_3__para_3__subpara_2"]);
  });

  test("a path past the text resolves to the deepest unit that exists, saying what was asked", () => {
    assert.deepEqual(resolve("Article 3(9) WSR"), ["widgets/art_3 (asked Article 3(9))"]);
    assert.deepEqual(resolve("Article 3(3)(z) WSR"), ["widgets/art_3__para_3 (asked Article 3(3)(z))"]);
    assert.deepEqual(resolve("Article 99 WSR"), []);
  });

  test("an ELI names its act itself, down to the point, walking up as far as the text goes", () => {
    assert.deepEqual(resolve("http://data.europa.eu/eli/reg/2099/2/art_3/par_2/oj"), [
      "gadgets/art_3__para_2",
    ]);
    assert.deepEqual(resolve("data.europa.eu/eli/reg/2099/1/art_3/par_9/oj"), [
      "widgets/art_3 (asked art_3__para_9)",
    ]);
    assert.deepEqual(
      resolve("data.europa.eu/eli/reg/2016/679/art_6/oj"),
      [],
      "an act the release does not hold is no one else's",
    );
  });
});
