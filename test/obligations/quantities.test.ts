/** Executable constants and the dates a duty states (src/obligations/quantities.ts). */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { executableName, findDates, findQuantities } from "../../src/obligations/quantities.ts";

describe("quantities", () => {
  test("deadlines, amounts and rates, in text order", () => {
    const qs = findQuantities(
      "within 72 hours, fines up to EUR 20 000 000 or 4 % of the total worldwide annual turnover",
    );
    assert.deepEqual(
      qs.map((q) => [q.kind, q.unit, q.value]),
      [
        ["deadline", "hours", 72],
        ["amount", "EUR", 20000000],
        ["rate", "percent", 4],
      ],
    );
  });

  test("a term stands in only when no number is stated", () => {
    assert.deepEqual(
      findQuantities("shall notify without undue delay").map((q) => q.value),
      ["without undue delay"],
    );
    assert.deepEqual(
      findQuantities("without undue delay and within 24 hours").map((q) => q.unit),
      ["hours"],
    );
  });

  test("dates: by, not later than and before are deadlines; from and until bound the duty", () => {
    const ds = findDates(
      "By 17 July 2025 and not later than 1 January 2027, from 12 January 2027 until 31 December 2028",
    );
    assert.deepEqual(
      ds.map((d) => [d.unit, d.value]),
      [
        ["by", "2025-07-17"],
        ["by", "2027-01-01"],
        ["from", "2027-01-12"],
        ["until", "2028-12-31"],
      ],
    );
    assert.deepEqual(
      findDates("Regulation (EU) 2016/679 of 27 April 2016"),
      [],
      "an act's date is no duty's date",
    );
  });

  test("executable names say act, provision and kind", () => {
    const [q] = findDates("by 2 August 2025");
    assert.ok(q);
    assert.equal(executableName("ai-act", "art_70__para_6", q, 1), "ai_act_art_70_para_6_date_by");
  });
});
