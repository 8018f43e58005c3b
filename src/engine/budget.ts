/**
 * The answer's size budget. Most readers are LLM agents with a context budget, so the default answer
 * (`detail: "compact"`) carries the matched units' text, and the rest of the closure as short excerpts
 * with their citations (the node or atom id to fetch the whole with get_unit or get_atom), within
 * ANSWER_BUDGET bytes: what does not fit is counted in `omitted`, never silently dropped.
 * `detail: "full"` returns the whole closure with full texts.
 */
import type { BlockCitation } from "./request.ts";

export type Detail = "compact" | "full";

/**
 * The most a compact answer weighs, in bytes, with everything around the blocks except a profile's
 * applicability section (which a profile adds, and which must not change the content).
 */
export const ANSWER_BUDGET = 44 * 1024;
/** Characters of a matched unit's text a compact answer shows (an annex can run to 100 000). */
export const MATCH_CHARS = 3000;
/** Characters of any other block's text a compact answer shows. */
export const EXCERPT_CHARS = 200;

/** The order in which the closure fills the budget after the matches: what disapplies them first. */
const PRIORITY = ["derogation", "obligation", "definition", "ancestor", "amendment", "amended"];

export interface BudgetBlock {
  id: string;
  role: string;
  text: string;
  citation: BlockCitation;
  attached_to: string | null;
  detail?: Record<string, unknown>;
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** At most `n` characters, cut at a word boundary, with an ellipsis when cut. */
export function excerpt(text: string, n: number): string {
  if (text.length <= n) return text;
  const space = text.lastIndexOf(" ", n);
  return `${text.slice(0, space > n * 0.6 ? space : n).trimEnd()} …`;
}

/** A citation without what its node names again (the act's IRIs are one get_unit away). */
function compactCitation(c: BlockCitation): BlockCitation {
  const { work_iri: _w, expression_iri: _x, ...rest } = c;
  return rest as BlockCitation;
}

function shorten(b: BudgetBlock, chars: number): BudgetBlock {
  const text = excerpt(b.text, chars);
  const cut = text.length < b.text.length;
  return {
    ...b,
    text,
    citation: compactCitation(b.citation),
    ...(cut
      ? { detail: { ...(b.detail ?? {}), excerpt: { shown_chars: text.length, total_chars: b.text.length } } }
      : {}),
  };
}

/**
 * The blocks a compact answer carries: every match (its text up to MATCH_CHARS), then the rest of the
 * closure in PRIORITY order as excerpts while the whole answer (`head`: its other members) stays within
 * ANSWER_BUDGET. Blocks keep their closure order; `omitted` counts by role what did not fit.
 */
export function withinBudget(
  blocks: BudgetBlock[],
  head: unknown,
): { blocks: BudgetBlock[]; omitted: Record<string, number> } {
  const shortened = blocks.map((b) => shorten(b, b.role === "match" ? MATCH_CHARS : EXCERPT_CHARS));
  const keep = new Set<number>();
  // Sections list every kept id once more; count it with the block.
  let used = bytes(head) + 64;
  const take = (i: number) => {
    const b = shortened[i] as BudgetBlock;
    const size = bytes(b) + b.id.length + 4;
    if (b.role !== "match" && used + size > ANSWER_BUDGET) return;
    used += size;
    keep.add(i);
  };
  shortened.forEach((b, i) => {
    if (b.role === "match") take(i);
  });
  for (const role of PRIORITY)
    shortened.forEach((b, i) => {
      if (b.role === role) take(i);
    });
  const omitted: Record<string, number> = {};
  shortened.forEach((b, i) => {
    if (!keep.has(i)) omitted[b.role] = (omitted[b.role] ?? 0) + 1;
  });
  return { blocks: shortened.filter((_b, i) => keep.has(i)), omitted };
}
