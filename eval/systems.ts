/**
 * Our system as the evaluation sees it: the release booted exactly as `acquis serve` boots it
 * (verification, engine, scope reader), and each question put to `answer` the way POST /v1/answer does,
 * so the score is the score of what users get, not of a side path.
 */

import { trustOptions } from "../src/cli/trust-options.ts";
import { answer } from "../src/engine/answer.ts";
import type { Engine } from "../src/engine/context.ts";
import type { ScopeReader } from "../src/engine/scope.ts";
import { bootEngine, readDisclaimer } from "../src/serve/boot.ts";
import type { Ranking } from "./metrics.ts";

/** A retrieval system under evaluation: up to 10 ranked nodes per query. */
export interface System {
  name: string;
  rank(query: string): Ranking;
}

/**
 * The date every question is asked on. Fixed, not today, so that a rerun of the same release and
 * questions gives the same numbers (validity windows and in-force notes depend on it).
 */
export const AS_OF = "2026-11-22";
export const MATCHES = 10;

/** Verify and load the release in `dir` with the checkout's trust roster, as `acquis serve` does. */
export function bootOurs(root: string, dir: string): { engine: Engine; scope: ScopeReader } {
  return bootEngine({
    dir,
    root,
    trust: trustOptions({ root, key: [], logKey: [] }),
    disclaimer: readDisclaimer(root),
  });
}

export function acquisSystem(engine: Engine, scope: ScopeReader): System {
  return {
    name: "acquis",
    rank(query) {
      const result = answer(engine, scope, { query, matches: MATCHES }, AS_OF);
      return { units: result.sections.match.slice(0, MATCHES), outOfScope: result.status === "out-of-scope" };
    },
  };
}
