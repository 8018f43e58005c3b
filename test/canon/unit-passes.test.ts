/**
 * The passes over an act's emitted units (src/canon/unit-passes.ts), called directly: each reports what
 * it finds to the quality log and drops nothing (act.test.ts runs them inside buildActUnits).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Unit } from "../../src/canon/model.ts";
import { QualityLog } from "../../src/canon/quality.ts";
import {
  composeText,
  reportDuplicateNodes,
  reportEmptyPoints,
  restoreSuperscripts,
} from "../../src/canon/unit-passes.ts";

const unit = (eid: string, own: string, more: Partial<Unit> = {}): Unit => ({
  node: `wsr/${eid}`,
  act: "wsr",
  eid,
  kind: "paragraph",
  num: null,
  heading: null,
  parent: null,
  own_text: own,
  text: "",
  citation: eid,
  eli: "",
  valid_from: "2100-01-01",
  valid_to: null,
  ...more,
});

describe("unit passes", () => {
  test("two units with one eId are reported, and both kept", () => {
    const log = new QualityLog("wsr");
    const units = [unit("art_1", "A."), unit("art_1", "B.")];
    reportDuplicateNodes(units, log);
    assert.deepEqual(
      log.defects.map((d) => [d.kind, d.eid]),
      [["duplicate_node", "art_1"]],
    );
    assert.equal(units.length, 2);
  });

  test("a point with no text and no children is an empty point; from parser 4 it says the source lost it", () => {
    const parent = unit("art_1__para_1", "Operators shall:", { kind: "paragraph" });
    const empty = unit("art_1__para_1__point_b", "", {
      kind: "point",
      num: "b",
      parent: parent.node,
      citation: "Article 1(1)(b) WSR",
    });
    const log = new QualityLog("wsr");
    reportEmptyPoints([parent, empty], log, 4);
    assert.deepEqual(
      log.defects.map((d) => d.kind),
      ["empty_point"],
    );
    assert.match(empty.lost_in_source ?? "", /label of Article 1\(1\)\(b\) WSR with no text/u);
  });

  test("a flattened power of ten beside floating-point operations is restored; another suspect is reported", () => {
    const u = unit("art_1", "More than 1025 floating point operations, or 1024 of them.");
    const log = new QualityLog("wsr");
    restoreSuperscripts([u], log);
    assert.equal(u.own_text, "More than 10^25 floating point operations, or 1024 of them.");
    assert.deepEqual(
      log.repairs.map((r) => r.kind),
      ["superscript_restored"],
    );
    assert.deepEqual(
      log.defects.map((d) => d.kind),
      ["superscript_suspect"],
    );
  });

  test("a unit's text is its own text followed by its children's, each child with its label", () => {
    const para = unit("art_1__para_1", "Operators shall:", { num: "1" });
    const a = unit("art_1__para_1__point_a", "keep records;", { kind: "point", num: "a", parent: para.node });
    const b = unit("art_1__para_1__point_b", "report.", { kind: "point", num: "b", parent: para.node });
    composeText([para, a, b]);
    assert.match(para.text, /^Operators shall:/u);
    assert.match(para.text, /\(a\) keep records;[\s\S]*\(b\) report\./u);
    assert.equal(a.text, "keep records;", "a unit alone carries no label of its own");
  });
});
