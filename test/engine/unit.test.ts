/**
 * POST /v1/unit's payload (src/engine/unit.ts) in the fixture release with two acts: a unit by eId or by
 * node, the version in force on a date and every version, its atoms, and the notes a reader needs; an
 * eId two acts share is refused rather than resolved by choice.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { UnitRequest } from "../../src/contract/schemas.ts";
import { createEngine } from "../../src/engine/context.ts";
import { ServiceError } from "../../src/engine/errors.ts";
import { getUnit } from "../../src/engine/unit.ts";
import { fixtureRelease, STAMPS } from "../helpers/fixture-release.ts";

const release = fixtureRelease({ twoActs: true });
const unitAt = (node: string) => {
  const u = release.byNode.get(node);
  assert.ok(u, node);
  return u;
};
// What the parser records on units of real acts: a former eId, a lost text, an amendment outside the corpus.
unitAt("widgets/art_5").aliases = ["art_5__subpara_2"];
unitAt("widgets/art_6").lost_in_source = "the source prints a correlation table in its place";
unitAt("widgets/art_1").amended_by = [
  { celex: "32100R0001", title: "Regulation Y", what: "text", provision: "Art 1(1)" },
];
unitAt("gadgets/art_1").binding = "through national law";
unitAt("gadgets/art_1").transposition_deadline = "2101-01-01";
const e = createEngine(release, STAMPS);
const WSR = "http://data.europa.eu/eli/reg/2099/1/oj";

const get = (req: UnitRequest) => getUnit(e, req, "2101-08-01");
const refusal = (req: UnitRequest) => {
  try {
    get(req);
  } catch (err) {
    assert.ok(err instanceof ServiceError, String(err));
    return [err.code, err.message];
  }
  return ["found"];
};

describe("units", () => {
  test("a unit by eId within its act, or by the node an answer names, with its citation and dates", () => {
    const r = get({ eid: "art_3__para_2", work_iri: WSR });
    assert.deepEqual(
      [r.in_force, r.unit.node, r.unit.provision, r.unit.celex, r.unit.nested],
      [true, "widgets/art_3__para_2", "Article 3(2) WSR", "32099R0001", true],
    );
    assert.deepEqual(r.versions, [
      { node: "widgets/art_3__para_2", valid_from: "2101-07-01", valid_to: null, in_force: true },
    ]);
    assert.deepEqual(get({ eid: "widgets/art_3__para_2" }).unit, r.unit);
    assert.equal(r.atoms[0]?.status, "in_force");
    assert.equal(r.atoms[0]?.citation.eid, "art_3__para_2");
  });

  test("an eId two acts share is refused, listing their work IRIs", () => {
    assert.deepEqual(refusal({ eid: "art_3" }), [
      "invalid_request",
      `eId "art_3" names units of 2 acts; pass work_iri, one of: ${WSR}, http://data.europa.eu/eli/reg/2099/2/oj`,
    ]);
  });

  test("an unknown eId, act or mismatched work IRI is refused", () => {
    assert.deepEqual(refusal({ eid: "art_99" }), [
      "not_found",
      'no unit with eId "art_99" in fixture@2100.1',
    ]);
    assert.deepEqual(refusal({ eid: "art_99", work_iri: WSR }), [
      "not_found",
      `no unit with eId "art_99" in ${WSR} in fixture@2100.1`,
    ]);
    assert.deepEqual(refusal({ eid: "nope/art_1" }), ["not_found", 'no act "nope" in fixture@2100.1']);
    assert.deepEqual(refusal({ eid: "widgets/art_1", work_iri: "http://x" }), [
      "invalid_request",
      `node widgets/art_1 is in ${WSR}, not http://x`,
    ]);
  });

  test("a unit not applying on the date is shown with a note; its atoms say they are pending", () => {
    const r = get({ eid: "widgets/art_4" });
    assert.equal(r.in_force, false);
    assert.deepEqual(r.notes, ["Article 4 WSR does not apply on 2101-08-01: it applies from 2102-01-01."]);
    assert.equal(r.atoms[0]?.status, "pending");
  });

  test("an eId a parsing repair retired still finds its unit, saying what it is now", () => {
    const r = get({ eid: "art_5__subpara_2", work_iri: WSR });
    assert.equal(r.unit.eid, "art_5");
    assert.deepEqual(r.notes, [
      "art_5__subpara_2 is the eId Article 5 WSR had before a parsing repair renamed it; it is art_5 now.",
    ]);
  });

  test("a lost text, an amendment of the text and a directive's binding are shown and noted", () => {
    const lost = get({ eid: "widgets/art_6" });
    assert.equal(lost.unit.lost_in_source, "the source prints a correlation table in its place");
    assert.match(lost.notes[0] ?? "", /^The source lost the text of Article 6 WSR/u);
    const amended = get({ eid: "widgets/art_1" });
    assert.deepEqual(amended.unit.amended_by, [
      { celex: "32100R0001", title: "Regulation Y", what: "text", provision: "Art 1(1)" },
    ]);
    assert.match(
      amended.notes[0] ?? "",
      /^The text of Article 1 WSR here is the text as adopted; Regulation Y \(Art 1\(1\)\) amended it in substance/u,
    );
    const dir = get({ eid: "gadgets/art_1" });
    assert.deepEqual(
      [dir.unit.binding, dir.unit.transposition_deadline],
      ["through national law", "2101-01-01"],
    );
  });
});
