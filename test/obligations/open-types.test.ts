/**
 * Open types (src/obligations/open-types.ts): a type any firm may have without saying so stays open
 * while the facts deciding it are unstated, with the types above it short of the root kinds.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openReason, openTypes } from "../../src/obligations/open-types.ts";
import type { DerivedType } from "../../src/obligations/scope.ts";
import { parseTaxonomy } from "../../src/obligations/taxonomy.ts";

const tax = parseTaxonomy(
  `entity_types:
  - { id: person, label: person, defined_in: p/art_4__point_1 }
  - { id: undertaking, label: undertaking, defined_in: p/art_4__point_2 }
  - { id: user, label: payment service user, parents: [person], defined_in: p/art_4__point_10 }
  - { id: payer, label: payer, parents: [user], defined_in: p/art_4__point_8 }
  - { id: payee, label: payee, parents: [user], defined_in: p/art_4__point_9 }
  - { id: critical, label: critical entity, parents: [undertaking], defined_in: c/art_6 }
`,
  null,
  "regimes/x",
);
const derive: DerivedType[] = [
  { type: "payer", provision: "p/art_4__point_8", when: [{ fact: "pays", eq: true }], open: true },
  { type: "payee", provision: "p/art_4__point_9", when: [{ fact: "is_paid", eq: true }], open: true },
  { type: "critical", provision: "c/art_6", when: [{ fact: "identified", eq: true }] },
];

describe("open types", () => {
  test("unstated facts leave an open type and its parents open, never a root kind or a type it is not open for", () => {
    const open = openTypes(tax, derive, {}, new Set(["undertaking"]));
    assert.deepEqual([...open.keys()].sort(), ["payee", "payer", "user"]);
    assert.deepEqual(open.get("payer"), {
      label: "payer",
      provision: "p/art_4__point_8",
      facts: ["pays = true"],
    });
    assert.deepEqual(open.get("user"), {
      label: "payment service user",
      provision: "p/art_4__point_10",
      facts: ["pays = true", "is_paid = true"],
    });
  });

  test("a stated fact closes it: true derives the type instead, false rules it out", () => {
    assert.deepEqual([...openTypes(tax, derive, { pays: false }, new Set()).keys()].sort(), [
      "payee",
      "user",
    ]);
    const paying = openTypes(tax, derive, { pays: true }, new Set(["payer", "user"]));
    assert.deepEqual([...paying.keys()], ["payee"], "a type the profile has is not open");
  });

  test("the reason names the types, their definition and every deciding fact", () => {
    const open = openTypes(tax, derive, {}, new Set());
    assert.deepEqual(openReason(["user"], open), {
      provision: "p/art_4__point_10",
      facts: ["pays = true", "is_paid = true"],
      note: "binds a payment service user (p/art_4__point_10); the profile does not state pays = true or is_paid = true",
    });
  });
});
