/**
 * A release ready for queries (src/engine/context.ts): the indexes built once at load, on the fixture
 * release with two acts, one of them made a delegated act supplementing the other.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createEngine, inForce, rollUp, subtree } from "../../src/engine/context.ts";
import { fixtureRelease, STAMPS } from "../helpers/fixture-release.ts";

const release = fixtureRelease({ twoActs: true });
const gadgets = release.acts[1];
assert.ok(gadgets);
gadgets.type = "reg_del";
gadgets.title = "Commission Delegated Regulation (EU) 2100/5 supplementing Regulation (EU) 2099/1 on gadgets";
const e = createEngine(release, STAMPS);

describe("the engine's indexes", () => {
  test("the release's tag, regime and stamps; acts in release order", () => {
    assert.deepEqual([e.tag, e.regime, e.stamps], ["2100.1", "fixture", STAMPS]);
    assert.deepEqual(e.actOrder, ["widgets", "gadgets"]);
    assert.equal(e.actsById.get("gadgets")?.short_name, "GSR");
  });

  test("a delegated act is found under the act its title supplements, and shares its lane", () => {
    assert.deepEqual([...e.subordinateActs], [["widgets", ["gadgets"]]]);
    assert.deepEqual([...e.actLane], [0, 0]);
  });

  test("units by parent and by eId (one per act), atoms by id and by node", () => {
    assert.deepEqual(
      e.children.get("widgets/art_3__para_3")?.map((u) => u.eid),
      [
        "art_3__para_3__point_a",
        "art_3__para_3__point_b",
        "art_3__para_3__point_c",
        "art_3__para_3__subpara_2",
      ],
    );
    assert.deepEqual(
      e.unitsByEid.get("art_3__para_2")?.map((u) => u.node),
      ["widgets/art_3__para_2", "gadgets/art_3__para_2"],
    );
    const a = release.atoms[0];
    assert.ok(a);
    assert.equal(e.atomsById.get(a.id), a);
    assert.ok(e.atomsByNode.get(a.node)?.includes(a));
  });

  test("what is in force spans from the earliest unit; with no end when any unit has none", () => {
    assert.equal(e.firstInForce, "2099-12-21");
    assert.equal(e.lastInForce, null);
  });

  test("indexed units roll up to their article, recital or annex; recitals are marked", () => {
    assert.equal(rollUp(release.byNode, "widgets/art_3__para_3__point_a"), "widgets/art_3");
    assert.equal(
      rollUp(release.byNode, "widgets/chp_II__sec_1"),
      "widgets/chp_II__sec_1",
      "outside any provision: itself",
    );
    const doc = e.docOf.get("widgets/art_3__para_2") as number;
    assert.equal(e.groups[e.docGroup[doc] as number], "widgets/art_3");
    assert.equal(e.actOrder[e.docAct[doc] as number], "widgets");
    const rec = e.docOf.get("widgets/rec_1") as number;
    assert.deepEqual([e.docRecital[rec], e.docRecital[doc]], [1, 0]);
    assert.equal(e.groupOf.get("widgets/art_3"), e.docGroup[doc]);
  });

  test("a unit's definitions come from the graph's uses_definition edges", () => {
    assert.ok(e.usesDefinition.get("widgets/art_3__para_2")?.includes("widgets/art_2__point_3"));
  });

  test("in force from valid_from up to (not including) valid_to", () => {
    const u = { valid_from: "2100-01-01", valid_to: "2101-01-01" };
    assert.deepEqual(
      ["2099-12-31", "2100-01-01", "2100-12-31", "2101-01-01"].map((d) => inForce(u, d)),
      [false, true, true, false],
    );
    assert.ok(inForce({ valid_from: "2100-01-01", valid_to: null }, "2999-01-01"));
  });

  test("a unit's subtree is itself and every unit below it, in reading order; an unknown node has none", () => {
    assert.deepEqual(
      subtree(e, "widgets/art_3__para_3").map((u) => u.eid),
      [
        "art_3__para_3",
        "art_3__para_3__point_a",
        "art_3__para_3__point_b",
        "art_3__para_3__point_c",
        "art_3__para_3__subpara_2",
      ],
    );
    assert.deepEqual(subtree(e, "widgets/art_99"), []);
  });

  test("a release without a router has none", () => {
    assert.equal(e.router, null);
  });
});
