import type { ErrorCode } from "../contract/schemas.ts";

/** A refusal an operation makes: a contract error code and a message the caller can act on. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** HTTP status per error code (DESIGN.md). */
export const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  unknown_profile: 404,
  method_not_allowed: 405,
  release_mismatch: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  not_ready: 503,
};
