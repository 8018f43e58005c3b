/**
 * The held-out split: a question is held out when the first two hex digits of SHA-256(id), read as a
 * number (0-255), are divisible by 3 (86 of 256 values, about a third); the rest are dev.
 *
 * Why a hash of the id and nothing else: the split is fixed before anyone sees a score, nobody chooses
 * which questions are hard to tune on, and a question's side depends on its own id alone, so adding,
 * removing or reordering questions never moves an existing one from dev to held-out or back. Dev
 * questions are for looking at failures and tuning; the held-out third is looked at only to report.
 */
import { createHash } from "node:crypto";

export type Split = "dev" | "held-out";
export const SPLIT_RULE = "held-out = int(first 2 hex digits of sha256(id), 16) mod 3 == 0; rest dev";

export function splitOf(id: string): Split {
  const hex = createHash("sha256").update(id, "utf8").digest("hex");
  return Number.parseInt(hex.slice(0, 2), 16) % 3 === 0 ? "held-out" : "dev";
}
