/**
 * Matching (src/engine/query/match.ts) in the fixture release with two acts: cited provisions first, then
 * a definition question's defining point, then ranked units; `exact` stops at the citations, `lexical`
 * ranks the words alone; filters admit units; a question of unknown words is refused with the reason.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Admission, type Mode, match, unreadText } from "../../src/engine/query/match.ts";
import { fixtureEngine, fixtureScope } from "../helpers/fixture-release.ts";

const e = fixtureEngine({ twoActs: true });
const scope = fixtureScope(e);
const all: Admission = { act: Uint8Array.from([1, 1]), unit: null };
const run = (q: string, mode: Mode = "auto", requested = 5, admit: Admission = all) =>
  match(e, scope.read(q), q, mode, requested, admit);
const nodes = (q: string, mode: Mode = "auto", requested = 5, admit: Admission = all) =>
  run(q, mode, requested, admit).units.map((u) => u.node);

describe("matching", () => {
  test("a cited provision leads, then the ranked units for the rest of the question", () => {
    const r = nodes("Article 5 WSR: what must manufacturers notify?");
    assert.equal(r[0], "widgets/art_5");
    assert.ok(r.length > 1 && r.length <= 5);
  });

  test("exact: only the cited provisions, in the order written; none cited, none matched", () => {
    assert.deepEqual(nodes("Article 4 WSR and Article 3(1) GSR", "exact"), [
      "widgets/art_4",
      "gadgets/art_3__para_1",
    ]);
    const r = run("notify serious incidents", "exact");
    assert.deepEqual([r.units, r.considered, r.admitted], [[], 0, 0]);
  });

  test("a provision cited without its act: every act's, the acts the question fits first", () => {
    assert.deepEqual(nodes("Article 3(2)", "exact"), ["widgets/art_3__para_2", "gadgets/art_3__para_2"]);
  });

  test("a citation past the text matches the nearest unit, with a note", () => {
    const r = run("Article 3(9) WSR", "exact");
    assert.deepEqual(
      r.units.map((u) => u.node),
      ["widgets/art_3"],
    );
    assert.deepEqual(r.notes, [
      "Article 3(9) is not a provision of WSR in fixture@2100.1; the nearest that exists is Article 3 WSR.",
    ]);
  });

  test("a definition question leads with the point that defines the term", () => {
    assert.equal(nodes("What is a serious incident under the WSR?")[0], "widgets/art_2__point_3");
  });

  test("lexical: citations are words like any other; no phrases, roll-up or diversity", () => {
    const r = nodes("Article 5 WSR manufacturers", "lexical");
    assert.ok(!r.includes("widgets/art_5"), r.join(", "));
    assert.ok(
      r.includes("widgets/art_3") && r.includes("widgets/art_3__para_3__subpara_2"),
      `two units of one provision: ${r.join(", ")}`,
    );
    assert.ok(
      !nodes("manufacturers", "auto").includes("widgets/art_3__para_3__subpara_2"),
      "auto gives each provision once first",
    );
  });

  test("admission: units of acts not admitted, or refused by the unit test, are never matched", () => {
    const gadgetsOnly: Admission = { act: Uint8Array.from([0, 1]), unit: null };
    assert.ok(
      nodes("manufacturers notify serious incident", "auto", 5, gadgetsOnly).every((n) =>
        n.startsWith("gadgets/"),
      ),
    );
    const art3: Admission = { act: Uint8Array.from([1, 1]), unit: (n) => n.includes("/art_3") };
    assert.ok(nodes("manufacturers", "auto", 5, art3).every((n) => n.includes("/art_3")));
    assert.deepEqual(nodes("Article 4 WSR", "exact", 5, gadgetsOnly), []);
  });

  test("a question of words foreign to the release is refused, saying which", () => {
    const r = run("banana bread recipe");
    assert.deepEqual(r.units, []);
    assert.match(r.notes[0] ?? "", /^No match: 3 of the question's 3 words/u);
  });

  test("a question that only names acts gets their articles in order", () => {
    assert.deepEqual(nodes("WSR?", "auto", 3), ["widgets/art_1", "widgets/art_2", "widgets/art_3"]);
  });

  test("the unread text blanks the citations as well as the names", () => {
    const q = "Article 5 WSR notify";
    const s = scope.read(q);
    const rest = unreadText(s, [{ start: 0, end: 9 }]);
    assert.equal(rest, `${" ".repeat(14)}notify`);
  });
});
