/**
 * Rules 9: who holds a duty whose subject is a thing, read from the duties before it that made or named
 * the thing (docs/obligations.md#extraction-rules):
 * - a thing "referred to in paragraph 1" or "in the first subparagraph" is held as the duty there that
 *   names it: "The measures referred to in paragraph 1 shall … include: (h) …" (NIS2 Art 21(2)) as
 *   paragraph 1's "Member States shall ensure that essential and important entities take … measures";
 * - a document is its author's, the holder of the article's last duty that made it: "ESMA shall notify
 *   … The notification shall at least specify: (a) the AIFM …" (AIFMD Art 47(8)) is ESMA's.
 */
import { documentHead, documentsAuthored } from "./documents.ts";
import { singular } from "./taxonomy.ts";

const ORDINAL: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5 };

/** The unit a subject's "referred to in paragraph N" or "in the first subparagraph" names, in the atom's own article. */
export function referencedUnit(node: string, actor: string): string | null {
  const article = node.split("__")[0] as string;
  const para = /\breferred to in paragraph (\d+)(?! of (?:Article|Regulation|Directive))/iu.exec(actor);
  if (para) return `${article}__para_${para[1]}`;
  const sub =
    /\breferred to in the (first|second|third|fourth|fifth) subparagraph(?! of (?:Article|Regulation|Directive))/iu.exec(
      actor,
    );
  if (!sub) return null;
  const paragraph = /^.*?__para_\d+/u.exec(node)?.[0] ?? article;
  return `${paragraph}__subpara_${ORDINAL[(sub[1] as string).toLowerCase()]}`;
}

/** The thing's head noun, singular: "The measures referred to in paragraph 1" names measure. */
function thingNoun(actor: string): string | null {
  const before = actor
    .split(/\s+referred to\b/iu)[0]
    ?.toLowerCase()
    .match(/\p{L}+/gu);
  const last = before?.at(-1);
  return last ? singular(last) : null;
}

/** What later thing-subject duties of the same article read back. */
export class ThingTrail<H> {
  /** Per article, the documents its duties made, and whose they are. */
  #authors = new Map<string, Map<string, H>>();
  /** Per unit, its duties' actions and holders, in order. */
  #duties = new Map<string, { action: string; held: H }[]>();

  /** A duty whose subject is a party: what it makes, and what it says, for the things after it. */
  remember(article: string, node: string, action: string, held: H): void {
    const authors = this.#authors.get(article) ?? new Map<string, H>();
    for (const d of documentsAuthored(action)) authors.set(d, held);
    this.#authors.set(article, authors);
    const duties = this.#duties.get(node) ?? [];
    duties.push({ action: action.toLowerCase(), held });
    this.#duties.set(node, duties);
  }

  /** The holder of a thing-subject duty, from the unit it refers to or the duty that made its document. */
  holderOf(article: string, node: string, actor: string): H | undefined {
    const unit = referencedUnit(node, actor);
    const noun = unit ? thingNoun(actor) : null;
    if (unit && noun) {
      const named = [...this.#duties]
        .filter(([n]) => n === unit || n.startsWith(`${unit}__`))
        .flatMap(([, list]) => list)
        .filter((d) => d.action.includes(noun));
      if (named.length > 0) return named[0]?.held;
    }
    const head = documentHead(actor);
    return head ? this.#authors.get(article)?.get(head) : undefined;
  }
}
