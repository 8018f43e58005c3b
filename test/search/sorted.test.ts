/** Binary search in a sorted array (src/search/sorted.ts): where a value is, or would go. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { lowerBound } from "../../src/search/sorted.ts";

describe("lowerBound", () => {
  test("the first position whose value is not below x", () => {
    const xs = [1, 3, 3, 5];
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6].map((x) => lowerBound(xs, x)),
      [0, 0, 1, 1, 3, 3, 4],
    );
  });

  test("works on strings and typed arrays; an empty array gives 0", () => {
    assert.equal(lowerBound(["notif", "notifi", "notifiy"], "notifi"), 1);
    assert.equal(lowerBound(Int32Array.from([2, 4, 8]), 5), 2);
    assert.equal(lowerBound([], 1), 0);
  });
});
