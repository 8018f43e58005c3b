/**
 * What both transports of `acquis serve` share: the process's state and how a payload becomes bytes.
 */
import type { Engine } from "../engine/context.ts";
import type { ScopeReader } from "../engine/scope.ts";

/** What the process knows at a moment: set once the release is verified and loaded, or refused. */
export interface ServeState {
  engine: Engine | null;
  scope: ScopeReader | null;
  /** Why the release was refused (the failing check named), when it was. */
  refused: string | null;
  draining: boolean;
  defaultAsOf: () => string;
}

/** A payload's bytes: the response body of REST and the text content of MCP. */
export function payloadBytes(payload: unknown): string {
  return JSON.stringify(payload);
}
