/**
 * Saying no to a question the release has no words for. Keyboard noise, placeholder text and questions
 * about things no act mentions ("a recipe for banana bread") share one mark: most of their words occur
 * in no unit of the release. Ranking such a question would still return the units that hold its one or
 * two common words, ranked with confidence; an empty match with the reason is the honest answer.
 *
 * The share is a majority, not the tightest cut the dev questions allow: at 0.3 no in-scope dev question
 * was refused, but one held-out question was (docs/retrieval.md, "Saying no"). A refused question gets
 * no provision at all, so the rule leaves a wide margin. Words a question needs no index for (act
 * names, citations) were blanked from `rest` before this is asked.
 */
import { tokenize } from "../../search/analyser.ts";
import type { ChunkIndex } from "../../search/chunk-index.ts";

/** A question is refused when more than this share of its content words occur nowhere in the release. */
export const UNKNOWN_SHARE = 0.5;

/** An acronym ("KYC", "CEO", "NIS2") names something the release may spell out; it counts neither way. */
const ACRONYM = /^\p{Lu}[\p{Lu}\p{N}]+$/u;

const bridges = new WeakMap<ChunkIndex, Set<string>>();
function bridgedWords(index: ChunkIndex): Set<string> {
  let out = bridges.get(index);
  if (!out) {
    out = new Set(Object.keys(index.file.analyser.synonyms).flatMap((k) => k.split(" ")));
    bridges.set(index, out);
  }
  return out;
}

/** The content words of `rest` that no unit of the release contains, and how many content words it has. */
export function unknownWords(index: ChunkIndex, rest: string): { content: number; unknown: string[] } {
  const stop = new Set(index.file.analyser.query_stopwords);
  // The synonym layer's everyday words ("outage", "privacy") are words the release knows a meaning for.
  const bridged = bridgedWords(index);
  let content = 0;
  const unknown: string[] = [];
  const seen = new Set<string>();
  for (const written of rest.split(/[^\p{L}\p{N}]+/u)) {
    if (written === "" || ACRONYM.test(written)) continue;
    const w = written.toLowerCase();
    const [term] = tokenize(w);
    if (term === undefined || stop.has(w) || seen.has(term)) continue;
    seen.add(term);
    content++;
    if (index.file.postings[term] === undefined && !bridged.has(term)) unknown.push(w);
  }
  return { content, unknown };
}

/** The reason for refusing `rest`, or null when enough of its words are the release's words. */
export function unknownReason(index: ChunkIndex, rest: string, release: string): string | null {
  const { content, unknown } = unknownWords(index, rest);
  if (content === 0 || unknown.length / content <= UNKNOWN_SHARE) return null;
  const quoted = unknown.map((w) => `"${w}"`).join(", ");
  return `No match: ${unknown.length} of the question's ${content} words (${quoted}) occur nowhere in ${release}, so no provision can be said to answer it.`;
}
