/** The engine's refusals (src/engine/errors.ts): a contract error code and its HTTP status. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ERROR_CODES } from "../../src/contract/schemas.ts";
import { ServiceError, STATUS } from "../../src/engine/errors.ts";

describe("service errors", () => {
  test("an error carries its code and the message the caller acts on", () => {
    const e = new ServiceError("not_found", 'no atom "x"');
    assert.ok(e instanceof Error);
    assert.deepEqual([e.code, e.message], ["not_found", 'no atom "x"']);
  });

  test("every contract error code has its HTTP status: client errors 4xx, the server's 5xx", () => {
    assert.deepEqual(Object.keys(STATUS).sort(), [...ERROR_CODES].sort());
    assert.deepEqual(
      [
        STATUS.invalid_request,
        STATUS.not_found,
        STATUS.unknown_profile,
        STATUS.release_mismatch,
        STATUS.rate_limited,
      ],
      [400, 404, 404, 409, 429],
    );
    assert.deepEqual([STATUS.internal, STATUS.not_ready], [500, 503]);
  });
});
