/**
 * The applicability engine (src/obligations/applicability.ts): for a profile and a date, which duties
 * are applicable, excluded (by a derogation or a rule of precedence) or undetermined (turning on a fact
 * the profile does not state), with the reasons a compliance officer checks; and the canon it reads.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { atomStatus, type BindingAtom, decide } from "../../src/obligations/applicability.ts";
import { parseFactSchema } from "../../src/obligations/facts.ts";
import type { Derogation, Profile } from "../../src/obligations/profiles.ts";
import { parseScope } from "../../src/obligations/scope.ts";
import { smallSchema, smallTaxonomy } from "../helpers/small-canon.ts";

const tax = smallTaxonomy;
const schema = smallSchema;

function atom(id: string, node: string, over: Partial<BindingAtom> = {}): BindingAtom {
  return {
    id,
    node,
    act: node.slice(0, node.indexOf("/")),
    unit_eid: node.slice(node.indexOf("/") + 1),
    modality: "obligation",
    actor: "Manufacturers",
    action: "keep records",
    quoted_text: "Manufacturers shall keep records.",
    char_start: 0,
    char_end: 33,
    effective: "2100-01-01",
    expires: null,
    applies_to: ["manufacturer"],
    ...over,
  };
}

const ATOMS = [
  atom("a1", "x/art_1"),
  atom("a2", "x/art_2__para_1", { applies_to: ["operator"] }),
  atom("a3", "x/art_3", { applies_to: ["importer"] }),
  atom("a4", "x/art_4", { modality: "permission" }),
  atom("a5", "x/art_5", { effective: "2102-01-01" }),
  atom("a6", "x/art_6", {
    addressee: "member_state",
    applies_to: ["member_state"],
    through_national_law: ["manufacturer"],
  }),
  atom("a7", "x/art_7", {
    addressee: "member_state",
    applies_to: ["member_state"],
    through_national_law: null,
  }),
  atom("a8", "x/art_8", { modality: "permission", owed_by: ["manufacturer"] }),
  atom("b1", "y/art_1"),
];

const maker = (facts: Profile["facts"] = {}): Profile => ({
  id: "maker",
  name: "Maker",
  entity_types: ["manufacturer"],
  facts,
});
const ids = (list: { atom: BindingAtom }[]) => list.map((d) => d.atom.id);

function derogation(over: Partial<Derogation>): Derogation {
  return {
    id: "d1",
    derogating: "x/art_9",
    disapplies: ["x/art_2"],
    exempts: { entity_types: ["manufacturer"], when: [{ fact: "staff_headcount", lt: 10 }], unless: [] },
    from: "2100-01-01",
    until: null,
    text: "Article 2 shall not apply to small manufacturers.",
    ...over,
  };
}

describe("atom status on a date", () => {
  test("pending before it applies, in force until it expires, then lapsed or (deleted by another act) deprecated", () => {
    const a = { effective: "2100-01-01", expires: "2101-01-01", status_basis: null };
    assert.equal(atomStatus(a, "2099-12-31"), "pending");
    assert.equal(atomStatus(a, "2100-01-01"), "in_force");
    assert.equal(atomStatus(a, "2101-01-01"), "lapsed");
    assert.equal(atomStatus({ ...a, status_basis: "deleted" }, "2101-01-01"), "deprecated");
  });
});

describe("the register", () => {
  test("a profile is bound by the in-force duties of its types and broader types, and by rights held against it", () => {
    const r = decide(maker(), "2100-06-01", ATOMS, tax, []);
    assert.deepEqual(ids(r.applicable), ["a1", "a2", "a6", "a8", "b1"]);
    assert.deepEqual([r.excluded, r.undetermined], [[], []]);
    assert.deepEqual(r.binds, ["manufacturer", "operator", "undertaking"]);
    assert.equal(r.entity_type, "manufacturer");
    assert.deepEqual(r.counts.by_act, {
      x: { applicable: 4, excluded: 0, undetermined: 0 },
      y: { applicable: 1, excluded: 0, undetermined: 0 },
    });
    const a6 = r.applicable.find((d) => d.atom.id === "a6");
    assert.match(
      a6?.basis ?? "",
      /^binds through national law transposing manufacturer; the profile is manufacturer$/u,
    );
    assert.deepEqual(a6?.reasons.through_national_law, {
      directive: "x/art_6",
      national_law_from: null,
      provision: null,
    });
    const a8 = r.applicable.find((d) => d.atom.id === "a8");
    assert.equal(a8?.reasons.correlative, true);
    assert.match(a8?.basis ?? "", /^the correlative duty of a right held against manufacturer/u);
  });

  test("a derogation whose conditions hold excludes the duty (and those under the node it disapplies), naming itself", () => {
    const r = decide(maker({ staff_headcount: 5 }), "2100-06-01", ATOMS, tax, [derogation({})]);
    assert.deepEqual(ids(r.excluded), ["a2"]);
    const d = r.excluded[0];
    assert.deepEqual(d?.reasons.excluded_by, { provision: "x/art_9", kind: "derogation", rule: "d1" });
    assert.deepEqual(d?.reasons.facts, ["staff_headcount < 10"]);
    assert.deepEqual(d?.derogation, {
      id: "d1",
      kind: "derogation",
      derogating_node: "x/art_9",
      derogating_eid: "art_9",
      disapplied_node: "x/art_2",
      disapplied_eid: "art_2",
      exempted_types: ["manufacturer"],
    });
    assert.equal(d?.note, "disapplied by x/art_9 (d1) for manufacturer");
    assert.equal(d?.applicable, false);
  });

  test("a derogation turning on an unstated fact leaves the duty undetermined, naming the fact", () => {
    const r = decide(maker(), "2100-06-01", ATOMS, tax, [derogation({})]);
    assert.deepEqual(ids(r.undetermined), ["a2"]);
    assert.deepEqual(r.undetermined[0]?.reasons.undetermined_by, {
      provision: "x/art_9",
      facts: ["staff_headcount < 10"],
    });
    assert.equal(
      r.undetermined[0]?.note,
      "x/art_9 disapplies this if staff_headcount < 10; the profile does not say",
    );
  });

  test("a derogation that does not hold, is not yet in force, or exempts other types leaves the duty applicable", () => {
    for (const d of [
      derogation({}),
      derogation({ from: "2101-01-01", until: null }),
      derogation({ exempts: { entity_types: ["importer"] } }),
    ])
      assert.ok(
        ids(decide(maker({ staff_headcount: 50 }), "2100-06-01", ATOMS, tax, [d]).applicable).includes("a2"),
      );
  });

  test("a stage of application holds a duty back until its date for the category it names (CSRD Art 5(2))", () => {
    const stage = derogation({ until: "2101-01-01" });
    const held = decide(maker({ staff_headcount: 5 }), "2100-06-01", ATOMS, tax, [stage]);
    assert.deepEqual(ids(held.excluded), ["a2"]);
    assert.equal(held.excluded[0]?.note, "disapplied by x/art_9 (d1) for manufacturer before 2101-01-01");
    const open = decide(maker(), "2100-06-01", ATOMS, tax, [stage]);
    assert.equal(
      open.undetermined[0]?.note,
      "x/art_9 disapplies this before 2101-01-01 if staff_headcount < 10; the profile does not say",
    );
    // From the stage's date the duty binds the category too.
    assert.ok(
      ids(decide(maker({ staff_headcount: 5 }), "2101-01-01", ATOMS, tax, [stage]).applicable).includes("a2"),
    );
  });

  test("a fact the law ties to a type is true for that type, and the register says why", () => {
    const tied = parseFactSchema(
      { facts: { listed: { type: "boolean", about: "listed", implied_by_types: ["operator"] } } },
      "facts.yaml",
    );
    const d = derogation({
      exempts: { entity_types: ["manufacturer"], when: [{ fact: "listed", eq: false }] },
    });
    const r = decide(maker(), "2100-06-01", ATOMS, tax, [d], { facts: tied });
    assert.ok(
      ids(r.applicable).includes("a2"),
      "a manufacturer is an operator, so listed = true and d1 does not hold",
    );
    assert.ok(r.derived.includes("listed = true (by law for operator)"));
    assert.throws(
      () => decide(maker({ listed: false }), "2100-06-01", ATOMS, tax, [d], { facts: tied }),
      /facts\.listed is false, but it is true by law for operator \(listed\)/u,
    );
    assert.throws(
      () =>
        parseFactSchema(
          { facts: { n: { type: "integer", about: "n", implied_by_types: ["operator"] } } },
          "f",
        ),
      /f: fact n: implied_by_types needs a boolean fact/u,
    );
  });

  test("a modification keeps the duty and says how it is met; a rule of precedence displaces", () => {
    const modify = derogation({ effect: "modify", change: "records may be kept on paper" });
    const kept = decide(maker({ staff_headcount: 5 }), "2100-06-01", ATOMS, tax, [modify]).applicable.find(
      (d) => d.atom.id === "a2",
    );
    assert.deepEqual(kept?.reasons.modified_by, [
      { id: "d1", provision: "x/art_9", change: "records may be kept on paper" },
    ]);
    assert.equal(kept?.note, "modified by x/art_9: records may be kept on paper");
    const unknown = decide(maker(), "2100-06-01", ATOMS, tax, [modify]).applicable.find(
      (d) => d.atom.id === "a2",
    );
    assert.equal(
      unknown?.note,
      "x/art_9 would change how this is met if the profile stated staff_headcount < 10",
    );
    const lex = decide(maker({ staff_headcount: 5 }), "2100-06-01", ATOMS, tax, [
      derogation({ kind: "lex_specialis" }),
    ]);
    assert.match(lex.excluded[0]?.note ?? "", /^displaced by x\/art_9/u);
  });

  test("an act out of scope is listed once with its reason and none of its duties enter", () => {
    const scope = parseScope(
      "acts:\n  - { act: y, provision: y/art_2, reason: importers only, reaches: [{ types: [importer] }] }\n",
      "scope.yaml",
      schema,
      new Set(tax.types.map((t) => t.id)),
    );
    const r = decide(maker(), "2100-06-01", ATOMS, tax, [], { scope });
    assert.ok(!ids(r.applicable).includes("b1"));
    assert.deepEqual(r.out_of_scope, [
      { act: "y", nodes: ["y"], rule: "y", provision: "y/art_2", reason: "importers only" },
    ]);
  });

  test("a part whose scope turns on an unstated fact makes its duties undetermined; out of it, they do not enter", () => {
    const scope = parseScope(
      "parts:\n  - { id: big, nodes: [x/art_1], provision: x/art_10, reason: large firms, reaches: [{ types: [manufacturer], when: [{ fact: staff_headcount, ge: 250 }] }] }\n",
      "scope.yaml",
      schema,
      new Set(tax.types.map((t) => t.id)),
    );
    const unknown = decide(maker(), "2100-06-01", ATOMS, tax, [], { scope });
    assert.deepEqual(ids(unknown.undetermined), ["a1"]);
    assert.equal(
      unknown.undetermined[0]?.note,
      "x/art_10 decides whether this binds; the profile does not state staff_headcount >= 250",
    );
    const small = decide(maker({ staff_headcount: 5 }), "2100-06-01", ATOMS, tax, [], { scope });
    assert.ok(!ids(small.applicable).includes("a1"));
    assert.deepEqual(
      small.out_of_scope.map((o) => o.rule),
      ["big"],
    );
    const large = decide(maker({ staff_headcount: 300 }), "2100-06-01", ATOMS, tax, [], { scope });
    assert.deepEqual(large.applicable.find((d) => d.atom.id === "a1")?.reasons.facts, [
      "staff_headcount >= 250",
    ]);
  });

  test("a directive's duties bind through national law from its application date, with its transposition deadline", () => {
    const r = decide(maker(), "2100-06-01", [atom("d1", "dir/art_1")], tax, [], {
      transposition: () => ({
        date: "2100-03-01",
        provision: "dir/art_20",
        deadline: "2100-01-01",
        deadline_provision: "dir/art_19",
      }),
    });
    assert.deepEqual(r.applicable[0]?.reasons.through_national_law, {
      directive: "dir/art_1",
      national_law_from: "2100-03-01",
      provision: "dir/art_20",
      transposition_deadline: "2100-01-01",
      transposition_provision: "dir/art_19",
    });
  });

  test("types the scope derives from facts, and the size from figures, are added to the profile", () => {
    const scope = parseScope(
      "derive:\n  - { type: importer, provision: x/art_11, when: [{ fact: exports, eq: true }] }\n",
      "scope.yaml",
      schema,
      new Set(tax.types.map((t) => t.id)),
    );
    const r = decide(maker({ exports: true }), "2100-06-01", ATOMS, tax, [], { scope });
    assert.ok(ids(r.applicable).includes("a3"));
    assert.deepEqual(r.derived, ["importer (x/art_11: exports)"]);
  });
});
