/**
 * Reading a regime's obligations canon (src/obligations/canon.ts) from the fixture's files: taxonomy,
 * actors, profiles, derogations, and the fact schema, scope and ledger when the canon has them. A
 * profile or derogation naming an unknown type is refused with the file.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readObligationsCanon } from "../../src/obligations/canon.ts";
import { emptyLedger, serialiseLedger } from "../../src/obligations/ledger.ts";
import { NO_SCOPE } from "../../src/obligations/scope.ts";
import { obligationsReader } from "../helpers/fixture-release.ts";

const FACTS = "facts:\n  staff_headcount: { type: integer, about: staff }\n";
const SCOPE =
  "acts:\n  - { act: widgets, provision: widgets/art_1, reason: widgets, reaches: [{ types: [economic_operator] }] }\n";

describe("the obligations canon", () => {
  test("the fixture reads as its taxonomy, actor map, two profiles and one derogation; no facts, scope or ledger", () => {
    const c = readObligationsCanon(obligationsReader(), "fixture");
    assert.deepEqual(
      c.taxonomy.types.map((t) => t.id),
      ["economic_operator", "manufacturer", "distributor", "importer", "member_state"],
    );
    assert.equal(c.taxonomy.actors.length, 4);
    assert.deepEqual(
      c.profiles.map((p) => p.id),
      ["small-widget-maker", "widget-maker-size-unknown"],
    );
    assert.deepEqual(
      c.derogations.map((d) => [d.id, d.until]),
      [["widgets-art-3-4-microenterprises", null]],
    );
    assert.deepEqual([c.facts, c.scope, c.hasScope, c.ledger], [null, NO_SCOPE, false, null]);
  });

  test("a canon with facts.yaml, scope.yaml and atoms.lock reads them, and checks profiles against the facts", () => {
    const c = readObligationsCanon(
      obligationsReader({
        "facts.yaml": FACTS,
        "scope.yaml": SCOPE,
        "atoms.lock": serialiseLedger(emptyLedger("fixture")),
      }),
      "fixture",
    );
    assert.deepEqual(Object.keys(c.facts ?? {}), ["staff_headcount"]);
    assert.deepEqual(
      c.scope.acts.map((r) => r.id),
      ["widgets"],
    );
    assert.equal(c.hasScope, true);
    assert.equal(c.ledger?.regime, "fixture");
    assert.throws(
      () =>
        readObligationsCanon(
          obligationsReader({ "facts.yaml": "facts:\n  turnover: { type: number, about: t }\n" }),
          "fixture",
        ),
      {
        message:
          'regimes/fixture/profiles/small-widget-maker.yaml: facts: unknown fact "staff_headcount"; known facts: turnover',
      },
    );
  });

  test("a profile or derogation naming an unknown entity type is refused", () => {
    assert.throws(
      () =>
        readObligationsCanon(
          obligationsReader({
            "derogations.yaml":
              "derogations:\n  - { id: d, derogating: w/a, disapplies: [w/b], exempts: { entity_types: [maker] }, from: 2100-01-01, text: t }\n",
          }),
          "fixture",
        ),
      { message: "regimes/fixture/derogations.yaml: derogation d names unknown entity type maker" },
    );
    assert.throws(
      () =>
        readObligationsCanon(
          obligationsReader({ "profiles/small-widget-maker.yaml": "id: p\nentity_types: [maker]\n" }),
          "fixture",
        ),
      { message: "regimes/fixture/profiles: profile p names unknown entity type maker" },
    );
  });

  test("an atoms.lock that is not a ledger is refused naming it", () => {
    assert.throws(() => readObligationsCanon(obligationsReader({ "atoms.lock": "[]" }), "fixture"), {
      message: "regimes/fixture/atoms.lock: not an atom ledger (schema_version 1 with atoms and next_serial)",
    });
  });
});
