/**
 * Entity profiles and derogations as the obligations canon states them (src/obligations/profiles.ts):
 * read with their defaults, and every mistake refused naming the file, the entry and the key.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ObligationsCanonError, parseFactSchema } from "../../src/obligations/facts.ts";
import { parseDerogations, parseProfile } from "../../src/obligations/profiles.ts";
import { smallSchema as schema, smallTaxonomy as tax } from "../helpers/small-canon.ts";

describe("profiles and derogations canon", () => {
  test("a profile reads with its name defaulting to its id; its types and facts are checked", () => {
    assert.deepEqual(parseProfile("id: p\nentity_types: [manufacturer]\n", "p.yaml", schema, tax), {
      id: "p",
      name: "p",
      description: undefined,
      entity_types: ["manufacturer"],
      facts: {},
    });
    assert.throws(() => parseProfile("name: p\n", "p.yaml"), {
      message: "p.yaml: a profile needs an id and entity_types",
    });
    assert.throws(() => parseProfile("id: p\nentity_types: []\nfacts: [1]\n", "p.yaml"), {
      message: "p.yaml: facts must be a mapping",
    });
    assert.throws(() => parseProfile("id: p\nentity_types: [manufactur]\n", "p.yaml", schema, tax), {
      message:
        'p.yaml: entity_types: unknown entity type "manufactur"; did you mean one of manufacturer? (regimes/<regime>/taxonomy.yaml lists them all)',
    });
    assert.throws(() => parseProfile("id: p\nentity_types: [member_state]\n", "p.yaml", schema, tax), {
      message: "p.yaml: entity_types: member_state is a member_state, not a regulated party",
    });
    assert.throws(
      () => parseProfile("id: p\nentity_types: [importer]\nfacts: { staff: 3 }\n", "p.yaml", schema, tax),
      ObligationsCanonError,
    );
  });

  test("a profile that states false a fact the law makes true for one of its types is refused", () => {
    const tied = parseFactSchema(
      { facts: { listed: { type: "boolean", about: "listed by law", implied_by_types: ["operator"] } } },
      "facts.yaml",
    );
    assert.throws(
      () => parseProfile("id: p\nentity_types: [importer]\nfacts: { listed: false }\n", "p.yaml", tied, tax),
      { message: "p.yaml: facts.listed is false, but it is true by law for operator (listed by law)" },
    );
    assert.equal(
      parseProfile("id: p\nentity_types: [importer]\nfacts: { listed: true }\n", "p.yaml", tied, tax).facts
        .listed,
      true,
    );
  });

  test("derogations need id, derogating and disapplies; effects and conditions are checked", () => {
    const [d] = parseDerogations(
      "derogations:\n  - { id: d, derogating: x/art_9, disapplies: [x/art_2], exempts: { when: [{ fact: staff_headcount, lt: 10 }] }, from: 2100-01-01, text: t }\n",
      "derogations.yaml",
      schema,
    );
    assert.deepEqual(
      [d?.until, d?.exempts.unless, d?.exempts.when],
      [null, [], [{ fact: "staff_headcount", lt: 10 }]],
    );
    assert.deepEqual(parseDerogations("", "derogations.yaml"), []);
    const refused: [string, string][] = [
      ["{ id: d, disapplies: [] }", 'derogations.yaml: derogation "d" needs id, derogating and disapplies'],
      [
        "{ id: d, derogating: x, disapplies: [], effect: lift }",
        'derogations.yaml: derogation d: effect is "lift"; allowed: exclude, modify',
      ],
      [
        "{ id: d, derogating: x, disapplies: [], effect: modify }",
        'derogations.yaml: derogation d: a modification needs "change" (what it changes)',
      ],
      [
        "{ id: d, derogating: x, disapplies: [], exempts: { unless: [{ fact: size, eq: 1 }] } }",
        'derogations.yaml: derogation d unless: condition on unknown fact "size"',
      ],
    ];
    for (const [entry, message] of refused)
      assert.throws(
        () => parseDerogations(`derogations:\n  - ${entry}\n`, "derogations.yaml", schema),
        { message },
        entry,
      );
  });
});
