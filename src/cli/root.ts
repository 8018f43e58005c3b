import { join } from "node:path";

/** The checkout this acquis runs from: the folder holding bin/, src/ and regimes/. */
export function defaultRoot(): string {
  return join(import.meta.dirname, "..", "..");
}
