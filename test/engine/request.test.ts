/**
 * What every operation resolves alike (src/engine/request.ts): the date (a real calendar day), the
 * release (the one served, by tag or regime@tag), and citations of units and atoms into them.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ServiceError } from "../../src/engine/errors.ts";
import { atomCitation, isCalendarDate, resolve, unitCitation } from "../../src/engine/request.ts";
import { fixtureEngine } from "../helpers/fixture-release.ts";

const e = fixtureEngine();
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ServiceError, String(err));
    return [err.code, err.message];
  }
  return ["ok"];
};

describe("request resolution", () => {
  test("a calendar date is YYYY-MM-DD naming a day that exists", () => {
    assert.ok(isCalendarDate("2024-02-29"));
    assert.ok(!isCalendarDate("2025-02-29"));
    assert.ok(!isCalendarDate("2026-02-30"));
    assert.ok(!isCalendarDate("2026-13-01"));
    assert.ok(!isCalendarDate("2026-1-01"));
    assert.ok(!isCalendarDate("1 March 2026"));
  });

  test("date and release default, and say that they did", () => {
    assert.deepEqual(resolve(e, {}, "2101-01-01"), {
      as_of: "2101-01-01",
      as_of_defaulted: true,
      release: "2100.1",
      release_defaulted: true,
    });
    assert.deepEqual(resolve(e, { as_of: "2100-06-01", release: "fixture@2100.1" }, "2101-01-01"), {
      as_of: "2100-06-01",
      as_of_defaulted: false,
      release: "2100.1",
      release_defaulted: false,
    });
    assert.equal(resolve(e, { release: "2100.1" }, "2101-01-01").release, "2100.1");
  });

  test("another release or an impossible date is refused with the contract's code", () => {
    assert.deepEqual(
      code(() => resolve(e, { release: "2099.9" }, "2101-01-01")),
      ["release_mismatch", 'this instance serves fixture@2100.1, not "2099.9"'],
    );
    assert.deepEqual(
      code(() => resolve(e, { as_of: "2101-02-30" }, "2101-01-01")),
      ["invalid_request", 'as_of: "2101-02-30" is not a calendar date'],
    );
  });

  test("a unit's citation leads to its eId, node, act IRIs and dates", () => {
    const u = e.release.byNode.get("widgets/art_3__para_2");
    assert.ok(u);
    assert.deepEqual(unitCitation(e, u, "2101-08-01"), {
      release: "2100.1",
      as_of: "2101-08-01",
      label: "Article 3(2) WSR",
      atom: null,
      eid: "art_3__para_2",
      node: "widgets/art_3__para_2",
      work_iri: "http://data.europa.eu/eli/reg/2099/1/oj",
      expression_iri: "http://data.europa.eu/eli/reg/2099/1/oj/eng",
      valid_from: "2101-07-01",
      valid_to: null,
    });
  });

  test("a directive's provision is cited as binding through national law by its deadline", () => {
    const u = {
      ...(e.release.byNode.get("widgets/art_1") as NonNullable<ReturnType<typeof e.release.byNode.get>>),
    };
    u.binding = "through national law";
    u.transposition_deadline = "2101-01-01";
    const c = unitCitation(e, u, "2101-08-01");
    assert.deepEqual([c.binding, c.transposition_deadline], ["through national law", "2101-01-01"]);
  });

  test("an atom's citation names the atom and the provision it is written in", () => {
    const a = e.release.atoms.find((x) => x.node === "widgets/art_3__para_2");
    assert.ok(a);
    const c = atomCitation(e, a, "2101-08-01");
    assert.deepEqual(
      [c.atom, c.label, c.eid, c.valid_from],
      [a.id, "Article 3(2) WSR", "art_3__para_2", "2101-07-01"],
    );
    const orphan = atomCitation(e, { ...a, node: "widgets/art_99", act: "other" }, "2101-08-01");
    assert.deepEqual([orphan.label, orphan.work_iri], ["widgets/art_99", null]);
  });
});
