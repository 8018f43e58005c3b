/** Dates as acts write them and as releases store them (src/canon/dates.ts). */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dayAfter, isoDate, MONTHS, WRITTEN_DATE } from "../../src/canon/dates.ts";

describe("dates", () => {
  test("a written date becomes YYYY-MM-DD, the month name in any case", () => {
    assert.equal(isoDate("12", "January", "2027"), "2027-01-12");
    assert.equal(isoDate("1", "december", "2099"), "2099-12-01");
    assert.equal(isoDate("31", "MAY", "2018"), "2018-05-31");
  });

  test("the written-date pattern reads day, month and year as groups, and only real month names", () => {
    const re = new RegExp(WRITTEN_DATE, "u");
    const m = re.exec("shall apply from 2 August 2026.");
    assert.deepEqual([m?.[1], m?.[2], m?.[3]], ["2", "August", "2026"]);
    assert.equal(re.exec("from 2 Augustus 2026"), null);
    assert.equal(MONTHS.length, 12);
  });

  test("the day after a date crosses months, leap days and years", () => {
    assert.equal(dayAfter("2024-01-31"), "2024-02-01");
    assert.equal(dayAfter("2024-02-28"), "2024-02-29");
    assert.equal(dayAfter("2025-02-28"), "2025-03-01");
    assert.equal(dayAfter("2099-12-31"), "2100-01-01");
  });
});
