/**
 * POST /v1/atom's payload (src/engine/atom.ts): the duty an atom id names on a date, with its unit; an
 * id the release does not hold, or a duty pending or lapsed on that date, is not found, saying why.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { getAtom } from "../../src/engine/atom.ts";
import { ServiceError } from "../../src/engine/errors.ts";
import { fixtureEngine } from "../helpers/fixture-release.ts";

const e = fixtureEngine();
const byKey = (key: string) => {
  const a = e.release.atoms.find((x) => x.key === key);
  assert.ok(a, key);
  return a;
};
const refusal = (id: string, as_of: string) => {
  try {
    getAtom(e, { atom_id: id, as_of }, "2101-08-01");
  } catch (err) {
    assert.ok(err instanceof ServiceError, String(err));
    return [err.code, err.message];
  }
  return ["found"];
};

describe("atoms", () => {
  test("an atom in force: the duty, its executable constant, its citation and its unit", () => {
    const a = byKey("widgets/art_3__para_2#1");
    const r = getAtom(e, { atom_id: a.id }, "2101-08-01");
    assert.equal(r.as_of, "2101-08-01");
    assert.deepEqual(
      [r.atom.id, r.atom.modality, r.atom.actor, r.atom.status, r.atom.source],
      [a.id, "obligation", "Manufacturers", "in_force", "Article 3(2) WSR"],
    );
    assert.equal(r.atom.citation.executable, "widgets_art_3_para_2_deadline_hours = 48 hours");
    assert.equal(r.atom.citation.quoted_text, a.quoted_text);
    assert.equal(r.unit?.node, "widgets/art_3__para_2");
    assert.deepEqual(r.notes, []);
  });

  test("a point completing a lead-in says so; a duty without a constant has no executable", () => {
    // Rules 5, under which the points listing the notification's contents are duties (rules 6: contents).
    const e5 = fixtureEngine({ rules: 5 });
    const point = e5.release.atoms.find((a) => a.key === "widgets/art_3__para_3__point_a#1");
    assert.ok(point);
    const r = getAtom(e5, { atom_id: point.id }, "2101-08-01");
    assert.deepEqual(r.notes, ["This duty completes the lead-in of Article 3(3) WSR."]);
    assert.equal(r.atom.citation.executable, null);
  });

  test("an unknown id, or a duty not in force on the date, is not found, saying when it applies", () => {
    assert.deepEqual(refusal("atm_nothing", "2101-08-01"), [
      "not_found",
      'no atom "atm_nothing" in fixture@2100.1',
    ]);
    const id = byKey("widgets/art_4#1").id;
    assert.deepEqual(refusal(id, "2101-08-01"), [
      "not_found",
      `atom "${id}" states no duty in force on 2101-08-01: it applies from 2102-01-01`,
    ]);
    assert.deepEqual(refusal(id, "2102-01-01"), ["found"]);
  });

  test("a lapsed duty is not found, saying when it ceased", () => {
    const a = byKey("widgets/art_5#1");
    const saved = a.expires;
    a.expires = "2101-01-01";
    try {
      assert.deepEqual(refusal(a.id, "2101-08-01"), [
        "not_found",
        `atom "${a.id}" states no duty in force on 2101-08-01: it ceased to apply on 2101-01-01`,
      ]);
    } finally {
      a.expires = saved;
    }
  });
});
