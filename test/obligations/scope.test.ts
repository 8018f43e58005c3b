/**
 * Act scope and part scope (src/obligations/scope.ts): `scope.yaml` read and checked against the types
 * and facts it names, and whether a rule reaches a profile: in, out, or unknown naming the facts.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ObligationsCanonError, parseFactSchema } from "../../src/obligations/facts.ts";
import { NO_SCOPE, parseScope, reaches } from "../../src/obligations/scope.ts";

const schema = parseFactSchema(
  { facts: { staff_headcount: { type: "integer", about: "staff" } } },
  "facts.yaml",
);
const types = new Set(["bank", "insurer", "manufacturer"]);

const SCOPE = `acts:
  - act: dora
    provision: dora/art_2
    reason: financial entities
    holder: bank
    reaches:
      - types: [bank, insurer]
parts:
  - id: dora-tlpt
    nodes: [dora/art_26, dora/art_27]
    provision: dora/art_26__para_1
    reason: significant entities
    reaches:
      - types: [bank]
        when: [{ fact: staff_headcount, ge: 250 }]
derive:
  - type: insurer
    provision: solvency/art_4
    when: [{ fact: staff_headcount, ge: 1 }]
`;

const refused = (text: string) => {
  try {
    parseScope(text, "scope.yaml", schema, types);
    return "parsed";
  } catch (e) {
    assert.ok(e instanceof ObligationsCanonError, String(e));
    return e.message;
  }
};

describe("scope canon", () => {
  test("acts, parts and derived types read as rules naming their provision", () => {
    const s = parseScope(SCOPE, "scope.yaml", schema, types);
    assert.deepEqual(s.acts, [
      {
        id: "dora",
        nodes: ["dora"],
        provision: "dora/art_2",
        reason: "financial entities",
        reaches: [{ types: ["bank", "insurer"], when: [] }],
        holder: "bank",
      },
    ]);
    assert.deepEqual(s.parts[0]?.nodes, ["dora/art_26", "dora/art_27"]);
    assert.deepEqual(s.derive, [
      { type: "insurer", provision: "solvency/art_4", when: [{ fact: "staff_headcount", ge: 1 }] },
    ]);
    assert.deepEqual(parseScope("", "scope.yaml", schema, types), NO_SCOPE);
  });

  test("a rule without provision, reason or reaches, or naming an unknown type or fact, is refused", () => {
    assert.equal(
      refused("acts:\n  - act: dora\n    reason: r\n    reaches: [{ types: [bank] }]\n"),
      "scope.yaml: act dora: needs provision, reason and at least one entry under reaches",
    );
    assert.equal(
      refused("acts:\n  - provision: p\n    reason: r\n    reaches: [{ types: [bank] }]\n"),
      "scope.yaml: acts[0] needs act",
    );
    assert.equal(
      refused("acts:\n  - { act: dora, provision: p, reason: r, reaches: [{ types: [] }] }\n"),
      "scope.yaml: act dora: reaches[0] needs types",
    );
    assert.equal(
      refused("acts:\n  - { act: dora, provision: p, reason: r, reaches: [{ types: [bnk] }] }\n"),
      "scope.yaml: act dora: reaches[0] names unknown entity type bnk",
    );
    assert.equal(
      refused(
        "acts:\n  - { act: dora, provision: p, reason: r, holder: bnk, reaches: [{ types: [bank] }] }\n",
      ),
      "scope.yaml: act dora: holder names unknown entity type bnk",
    );
    assert.equal(
      refused(
        "acts:\n  - { act: dora, provision: p, reason: r, reaches: [{ types: [bank] }] }\n  - { act: dora, provision: p, reason: r, reaches: [{ types: [bank] }] }\n",
      ),
      "scope.yaml: act dora is listed twice",
    );
    assert.equal(
      refused("parts:\n  - { id: x, provision: p, reason: r, reaches: [{ types: [bank] }] }\n"),
      "scope.yaml: parts[0] needs id and nodes",
    );
    assert.equal(
      refused("derive:\n  - { type: lender, provision: p }\n"),
      "scope.yaml: derive[0] names unknown entity type lender",
    );
    assert.equal(
      refused(
        "acts:\n  - { act: dora, provision: p, reason: r, reaches: [{ types: [bank], when: [{ fact: staff, lt: 1 }] }] }\n",
      ),
      'scope.yaml: act dora: reaches[0]: condition on unknown fact "staff"',
    );
  });

  test("a rule reaches a profile of one of its types whose facts meet its conditions", () => {
    const [tlpt] = parseScope(SCOPE, "scope.yaml", schema, types).parts;
    assert.ok(tlpt);
    const bank = new Set(["bank"]);
    assert.deepEqual(reaches(tlpt, bank, { staff_headcount: 300 }), {
      in: true,
      reach: { types: ["bank"], when: [{ fact: "staff_headcount", ge: 250 }] },
      facts: ["staff_headcount >= 250"],
    });
    assert.deepEqual(reaches(tlpt, bank, { staff_headcount: 30 }), { in: false });
    assert.deepEqual(reaches(tlpt, bank, {}), { in: "unknown", facts: ["staff_headcount >= 250"] });
    assert.deepEqual(
      reaches(tlpt, new Set(["insurer"]), { staff_headcount: 300 }),
      { in: false },
      "another type",
    );
    const open = new Map([["bank", { label: "bank", provision: "p", facts: ["is_bank = true"] }]]);
    assert.deepEqual(
      reaches(tlpt, new Set(["insurer"]), { staff_headcount: 300 }, open),
      { in: "unknown", facts: ["is_bank = true"], open: true },
      "a type the profile may be: unknown on the facts deciding the type, and only through it",
    );
    assert.deepEqual(reaches(tlpt, new Set(["insurer"]), { staff_headcount: 30 }, open), { in: false });
  });
});
