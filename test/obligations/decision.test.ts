/**
 * What a decision is (src/obligations/decision.ts): an atom's status on a date, from the dates the
 * release gives it.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { atomStatus } from "../../src/obligations/decision.ts";

describe("an atom's status on a date", () => {
  const atom: Parameters<typeof atomStatus>[0] = {
    effective: "2025-01-17",
    expires: null,
    status_basis: null,
  };
  test("pending before it takes effect, in force from that day", () => {
    assert.equal(atomStatus(atom, "2025-01-16"), "pending");
    assert.equal(atomStatus(atom, "2025-01-17"), "in_force");
  });
  test("lapsed from the day it expires; deprecated when deleted by another act", () => {
    assert.equal(atomStatus({ ...atom, expires: "2026-01-01" }, "2026-01-01"), "lapsed");
    assert.equal(
      atomStatus({ ...atom, expires: "2026-01-01", status_basis: "deleted" as const }, "2026-06-01"),
      "deprecated",
    );
    assert.equal(atomStatus({ ...atom, expires: "2026-01-01" }, "2025-12-31"), "in_force");
  });
});
