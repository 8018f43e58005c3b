/**
 * Profile facts (src/obligations/facts.ts): the declared schema, conditions on facts checked when read,
 * three-valued evaluation (an unstated fact is unknown, never false), and the facts derived from them.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  checkCondition,
  checkFact,
  deriveFacts,
  describe as describeCondition,
  enterpriseSize,
  evaluate,
  holds,
  ObligationsCanonError,
  parseFactSchema,
} from "../../src/obligations/facts.ts";

const schema = parseFactSchema(
  {
    facts: {
      staff_headcount: { type: "integer", about: "staff" },
      annual_turnover_eur: { type: "number", about: "turnover" },
      balance_sheet_total_eur: { type: "number", about: "balance" },
      listed: { type: "boolean", about: "listed" },
      jurisdiction: { type: "string", about: "where" },
      enterprise_size: {
        type: "enum",
        values: ["micro", "small", "medium", "large"],
        about: "size",
        derived: true,
      },
      services: { type: "enum-list", values: ["payments", "custody"], about: "what" },
      has_partner_or_linked_enterprises: { type: "boolean", about: "linked" },
    },
  },
  "facts.yaml",
);

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ObligationsCanonError, String(e));
    return e.message;
  }
  return "accepted";
};

describe("fact schema", () => {
  test("needs a facts mapping whose types are known and whose enums list their values", () => {
    assert.equal(
      refused(() => parseFactSchema({}, "f.yaml")),
      'f.yaml: needs a "facts" mapping',
    );
    assert.equal(
      refused(() => parseFactSchema(null, "f.yaml")),
      'f.yaml: needs a "facts" mapping',
    );
    assert.equal(
      refused(() => parseFactSchema({ facts: { n: { type: "float", about: "" } } }, "f.yaml")),
      'f.yaml: fact n has type "float"; allowed: integer, number, boolean, enum, enum-list, string',
    );
    assert.equal(
      refused(() => parseFactSchema({ facts: { e: { type: "enum", about: "" } } }, "f.yaml")),
      'f.yaml: fact e is an enum and needs "values"',
    );
  });

  test("a fact's value is checked against its type, the error saying what is allowed", () => {
    for (const [name, value] of [
      ["staff_headcount", 12],
      ["annual_turnover_eur", 1.5e6],
      ["listed", false],
      ["jurisdiction", "DE"],
      ["enterprise_size", "small"],
      ["services", ["payments"]],
    ] as const)
      assert.equal(
        refused(() => checkFact(schema, name, value, "p.yaml")),
        "accepted",
        name,
      );
    assert.equal(
      refused(() => checkFact(schema, "staff_headcount", 1.5, "p.yaml")),
      "p.yaml: fact staff_headcount is 1.5 (number); allowed: a whole number ≥ 0",
    );
    assert.equal(
      refused(() => checkFact(schema, "annual_turnover_eur", -1, "p.yaml")),
      "p.yaml: fact annual_turnover_eur is -1 (number); allowed: a number ≥ 0",
    );
    assert.equal(
      refused(() => checkFact(schema, "listed", "yes", "p.yaml")),
      'p.yaml: fact listed is "yes" (string); allowed: true or false',
    );
    assert.equal(
      refused(() => checkFact(schema, "jurisdiction", "", "p.yaml")),
      'p.yaml: fact jurisdiction is "" (string); allowed: a non-empty string',
    );
    assert.equal(
      refused(() => checkFact(schema, "enterprise_size", "tiny", "p.yaml")),
      'p.yaml: fact enterprise_size is "tiny" (string); allowed: one of micro, small, medium, large',
    );
    assert.equal(
      refused(() => checkFact(schema, "services", "payments", "p.yaml")),
      'p.yaml: fact services is "payments" (string); allowed: a list of payments, custody',
    );
    assert.equal(
      refused(() => checkFact(schema, "services", null, "p.yaml")),
      "p.yaml: fact services is null (null); allowed: a list of payments, custody",
    );
    assert.match(
      refused(() => checkFact(schema, "staff", 3, "p.yaml")),
      /^p\.yaml: unknown fact "staff"; known facts: annual_turnover_eur, balance_sheet_total_eur, /u,
    );
  });
});

describe("conditions", () => {
  test("one known operator on a declared fact with an operand of its type", () => {
    assert.deepEqual(checkCondition({ fact: "staff_headcount", lt: 10 }, schema, "d.yaml"), {
      fact: "staff_headcount",
      lt: 10,
    });
    assert.deepEqual(
      checkCondition({ fact: "anything", eq: "x" }, null, "d.yaml"),
      { fact: "anything", eq: "x" },
      "no schema: operators only",
    );
    assert.equal(
      refused(() => checkCondition("x", schema, "d.yaml")),
      "d.yaml: a condition must be a mapping",
    );
    assert.equal(
      refused(() => checkCondition({ lt: 1 }, schema, "d.yaml")),
      'd.yaml: a condition needs "fact"',
    );
    assert.equal(
      refused(() => checkCondition({ fact: "staff_headcount", below: 10 }, schema, "d.yaml")),
      'd.yaml: condition on staff_headcount has operator(s) ["below"]; exactly one of lt, le, gt, ge, eq, in is allowed',
    );
    assert.match(
      refused(() => checkCondition({ fact: "staff_headcount", lt: 10, gt: 1 }, schema, "d.yaml")),
      /exactly one of/u,
    );
    assert.equal(
      refused(() => checkCondition({ fact: "staff_headcount", lt: "10" }, schema, "d.yaml")),
      "d.yaml: condition staff_headcount lt needs a number",
    );
    assert.equal(
      refused(() => checkCondition({ fact: "services", in: "payments" }, schema, "d.yaml")),
      "d.yaml: condition services in needs a list",
    );
    assert.equal(
      refused(() => checkCondition({ fact: "headcount", lt: 10 }, schema, "d.yaml")),
      'd.yaml: condition on unknown fact "headcount"',
    );
    assert.equal(
      refused(() => checkCondition({ fact: "listed", gt: 0 }, schema, "d.yaml")),
      "d.yaml: condition listed gt: listed is not a number",
    );
    assert.match(
      refused(() => checkCondition({ fact: "listed", eq: "yes" }, schema, "d.yaml")),
      /^d\.yaml \(condition\): fact listed is "yes"/u,
    );
    assert.match(
      refused(() => checkCondition({ fact: "services", in: ["loans"] }, schema, "d.yaml")),
      /allowed: a list of payments, custody/u,
    );
  });

  test("a condition holds, fails, or is unknown when the fact is not stated", () => {
    const facts = { staff_headcount: 8, listed: false, services: ["custody"], jurisdiction: "DE" };
    assert.equal(holds({ fact: "staff_headcount", lt: 10 }, facts), true);
    assert.equal(holds({ fact: "staff_headcount", ge: 10 }, facts), false);
    assert.equal(holds({ fact: "staff_headcount", le: 8 }, facts), true);
    assert.equal(holds({ fact: "staff_headcount", gt: 8 }, facts), false);
    assert.equal(holds({ fact: "listed", eq: false }, facts), true);
    assert.equal(holds({ fact: "services", in: ["payments", "custody"] }, facts), true);
    assert.equal(holds({ fact: "jurisdiction", in: ["FR"] }, facts), false);
    assert.equal(holds({ fact: "jurisdiction", lt: 3 }, facts), false, "a number test on a string is false");
    assert.equal(holds({ fact: "annual_turnover_eur", lt: 1 }, facts), "unknown");
  });

  test("conditions read as people write them", () => {
    assert.equal(describeCondition({ fact: "staff_headcount", lt: 10 }), "staff_headcount < 10");
    assert.equal(describeCondition({ fact: "services", in: ["payments"] }), 'services in ["payments"]');
  });

  test("all of when and none of unless: true, false, or unknown naming the facts that decide", () => {
    const when = [{ fact: "staff_headcount", lt: 10 }];
    const unless = [{ fact: "listed", eq: true }];
    assert.deepEqual(evaluate(when, unless, { staff_headcount: 5, listed: false }), {
      truth: true,
      unknown: [],
      used: ["staff_headcount < 10", "listed = true"],
    });
    assert.equal(
      evaluate(when, unless, { staff_headcount: 50 }).truth,
      false,
      "a false when decides, whatever is unknown",
    );
    assert.equal(evaluate(when, unless, { staff_headcount: 5, listed: true }).truth, false);
    assert.deepEqual(evaluate(when, unless, {}), {
      truth: "unknown",
      unknown: ["staff_headcount < 10", "not listed = true"],
      used: [],
    });
    assert.deepEqual(evaluate(undefined, undefined, {}), { truth: true, unknown: [], used: [] });
  });
});

describe("derived facts", () => {
  test("the enterprise size follows Recommendation 2003/361: headcount and turnover or balance sheet", () => {
    const size = (staff: number, turnover: number, balance?: number) =>
      enterpriseSize({
        staff_headcount: staff,
        annual_turnover_eur: turnover,
        ...(balance === undefined ? {} : { balance_sheet_total_eur: balance }),
        has_partner_or_linked_enterprises: false,
      }).size;
    assert.equal(size(9, 2e6), "micro");
    assert.equal(size(9, 3e6, 1e6), "micro", "turnover or balance sheet");
    assert.equal(size(10, 2e6), "small");
    assert.equal(size(49, 10e6), "small");
    assert.equal(size(249, 50e6), "medium");
    assert.equal(size(250, 1e6), "large");
    assert.equal(size(100, 60e6, 44e6), "large");
  });

  test("without figures, or with linked enterprises, the size is unknown unless the firm is large on its own", () => {
    assert.equal(enterpriseSize({ staff_headcount: 5 }).size, null);
    const linked = enterpriseSize({
      staff_headcount: 5,
      annual_turnover_eur: 1e6,
      has_partner_or_linked_enterprises: true,
    });
    assert.equal(linked.size, null);
    assert.match(
      linked.basis,
      /make a micro enterprise on its own figures, but has_partner_or_linked_enterprises is true/u,
    );
    assert.match(enterpriseSize({ staff_headcount: 5, annual_turnover_eur: 1e6 }).basis, /is not stated$/u);
    assert.equal(
      enterpriseSize({
        staff_headcount: 500,
        annual_turnover_eur: 1e9,
        has_partner_or_linked_enterprises: true,
      }).size,
      "large",
    );
  });

  test("derived: the size and its entity type, and establishment in the Union from the jurisdiction", () => {
    const d = deriveFacts(
      {
        staff_headcount: 20,
        annual_turnover_eur: 3e6,
        has_partner_or_linked_enterprises: false,
        jurisdiction: "FR",
      },
      ["bank"],
      "p",
    );
    assert.equal(d.facts.enterprise_size, "small");
    assert.equal(d.facts.established_in_union, true);
    assert.deepEqual(d.types, ["bank", "small_enterprise"]);
    assert.equal(d.derived.length, 2);
    assert.equal(deriveFacts({ jurisdiction: "US" }, [], "p").facts.established_in_union, false);
    assert.deepEqual(
      deriveFacts({ enterprise_size: "medium" }, [], "p").types,
      ["medium_sized_enterprise"],
      "a stated size stands without figures",
    );
  });

  test("a stated size or size type the figures contradict is refused", () => {
    const figures = {
      staff_headcount: 5,
      annual_turnover_eur: 1e6,
      has_partner_or_linked_enterprises: false,
    };
    assert.match(
      refused(() => deriveFacts({ ...figures, enterprise_size: "large" }, [], "p.yaml")),
      /^p\.yaml: facts\.enterprise_size is "large" but the figures make it micro/u,
    );
    assert.match(
      refused(() => deriveFacts(figures, ["large_undertaking"], "p.yaml")),
      /^p\.yaml: entity_types lists large_undertaking but the figures make it micro/u,
    );
  });
});
