/**
 * Rules 9: who holds a duty whose subject is a thing, read from the duties before it that made or named
 * the thing (docs/obligations.md#extraction-rules):
 * - a thing "referred to in paragraph 1" or "in the first subparagraph" is held as the duty there that
 *   names it: "The measures referred to in paragraph 1 shall … include: (h) …" (NIS2 Art 21(2)) as
 *   paragraph 1's "Member States shall ensure that essential and important entities take … measures";
 * - a document is its author's, the holder of the article's last duty that made it: "ESMA shall notify
 *   … The notification shall at least specify: (a) the AIFM …" (AIFMD Art 47(8)) is ESMA's.
 * Rules 10 read every paragraph a subject refers to ("paragraphs 1 and 2") and a thing by the verb that
 * makes it too, give powers to whom they are given, and reach subjects the actor map does not type.
 */
import type { AddresseeOf } from "./addressee.ts";
import type { Atom } from "./atoms.ts";
import { documentHead, documentsAuthored } from "./documents.ts";
import { narrows } from "./subject-roles.ts";
import { singular, type Taxonomy } from "./taxonomy.ts";

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

/**
 * Rules 10: the units a subject refers to, in its own article: "paragraph 12" (never "1" of it), and
 * the paragraphs of a list or a range ("The notifications referred to in paragraphs 1 and 3", CRA Art
 * 14(7); "The information referred to in paragraphs 1 to 4", AI Act Art 50(5)), in the text's order.
 */
export function referencedUnits(node: string, actor: string, rules: number): string[] {
  if (rules < 10) {
    const unit = referencedUnit(node, actor);
    return unit ? [unit] : [];
  }
  const article = node.split("__")[0] as string;
  const list = /\breferred to in paragraphs? (\d+(?:(?:\s*,\s*|\s+(?:and|or|to)\s+)\d+)*)(.{0,30})/iu.exec(
    actor,
  );
  if (!list) {
    const subparagraph = referencedUnit(node, actor);
    return subparagraph ? [subparagraph] : [];
  }
  if (/^\s*of (?:Article|Regulation|Directive|Annex)/iu.test(list[2] as string)) return [];
  const numbers = (list[1] as string).match(/\d+|\bto\b/gu) ?? [];
  const paragraphs: number[] = [];
  for (let i = 0; i < numbers.length; i++) {
    if (numbers[i] !== "to") paragraphs.push(Number(numbers[i]));
    else for (let p = (paragraphs.at(-1) ?? 0) + 1; p < Number(numbers[i + 1]); p++) paragraphs.push(p);
  }
  return paragraphs.map((p) => `${article}__para_${p}`);
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

/** Rules 10: a passive that gives its subject powers ("shall be given all supervisory … powers"). */
export const GIVES_POWERS_10 = /^\s*be\s+(?:given|granted|conferred|vested\s+with)\b[^.;]*\bpowers?\b/iu;

/**
 * Rules 12: an agreement is its parties' ("the detailed arrangements for the change of notified body
 * shall be clearly defined in an agreement between the manufacturer, the incoming notified body and, where
 * practicable the outgoing notified body. That agreement shall cover at least the following aspects:",
 * MDR Art 58(1)): the words that name them, read in the unit's text and its ancestors', nearest first.
 */
export function agreementParties(actor: string, texts: string[]): string | null {
  const kind = /^(?:that|this|the|such)\s+(agreement|contract|arrangement)s?$/iu.exec(actor.trim())?.[1];
  if (!kind) return null;
  // The parties as named ("between the manufacturer, …"), not a pronoun ("between them").
  const between = new RegExp(`\\b${kind}s?\\s+(?:\\w+\\s+){0,2}?between\\s+((?:the|an?)\\s[^.;:]+)`, "iu");
  for (const text of texts) {
    const m = between.exec(text);
    // The commas that list them are no part of any party's name.
    if (m) return (m[1] as string).replace(/,/gu, " ");
  }
  return null;
}

/** A holder as release atoms decide it: its entity types and its addressee. */
export type Held = { types: string[]; holder: AddresseeOf };

/** One holder for the parties several paragraphs name: all their types, and the first's addressee. */
export function mergeHeld(held: Held[]): Held {
  const first = held[0] as Held;
  const bound = held.flatMap((x) => x.holder.through_national_law ?? []);
  return {
    types: [...new Set(held.flatMap((x) => x.types))].sort(),
    holder: {
      ...first.holder,
      through_national_law: first.holder.through_national_law ? [...new Set(bound)].sort() : null,
    },
  };
}

/** What later thing-subject duties of the same article read back. */
export class ThingTrail<H> {
  /** One holder for a thing several paragraphs name ("The records referred to in paragraphs 1 and 2"). */
  readonly #merge: (held: H[]) => H;
  constructor(merge: (held: H[]) => H) {
    this.#merge = merge;
  }

  /** Per article, the documents its duties made, and whose they are. */
  #authors = new Map<string, Map<string, H>>();
  /** Per unit, its duties' actions and holders, in order. */
  #duties = new Map<string, { action: string; made: string[]; held: H }[]>();
  /** Rules 10: per unit, the party the first power it gives is given to. */
  #empowered = new Map<string, H>();

  /** A duty whose subject is a party: what it makes, and what it says, for the things after it. */
  remember(article: string, node: string, action: string, held: H, rules = 9): void {
    const authors = this.#authors.get(article) ?? new Map<string, H>();
    const made = documentsAuthored(action, rules);
    for (const d of made) authors.set(d, held);
    this.#authors.set(article, authors);
    const duties = this.#duties.get(node) ?? [];
    duties.push({ action: action.toLowerCase(), made, held });
    this.#duties.set(node, duties);
  }

  /**
   * Rules 10: a party a power is given to ("Competent authorities shall be given all supervisory powers
   * …", MiFID II Art 69(1)) holds the powers that unit's later subjects name ("The powers referred to in
   * paragraph 1 shall include at least the following powers to: …"), not the State that gives them.
   */
  empower(node: string, held: H): void {
    if (!this.#empowered.has(node)) this.#empowered.set(node, held);
  }

  /** The holder of a thing-subject duty, from the unit it refers to or the duty that made its document. */
  holderOf(article: string, node: string, actor: string, rules = 9): H | undefined {
    const referred = this.referredTo(node, actor, rules);
    if (referred) return referred;
    const head = documentHead(actor);
    return head ? this.#authors.get(article)?.get(head) : undefined;
  }

  /**
   * Rules 10: the holder of a subject no party's words name: the one its "referred to in paragraph N"
   * reads back, else, for a document, its author's; nothing when the subject is a preposition's object
   * ("Upon receipt of the information referred to in paragraphs 2 and 3, … the single point of contact
   * shall …", NIS2 Art 27(5)).
   */
  subjectReferredTo(a: Pick<Atom, "node" | "actor" | "quoted_text">, rules: number): H | undefined {
    if (rules < 10) return undefined;
    const lead = a.quoted_text.slice(
      0,
      Math.max(0, a.quoted_text.toLowerCase().indexOf(a.actor.toLowerCase())),
    );
    if (/\b(?:of|upon|on|to|for|with|from|in|by|after|before|under)\s*$/iu.test(lead)) return undefined;
    return this.holderOf(a.node.split("__")[0] as string, a.node, a.actor, rules);
  }

  /**
   * The holder of the thing a subject refers to in other units of its article, where they name it: each
   * unit's first duty naming it (GDPR Art 30(3): paragraph 1's controller and paragraph 2's processor).
   */
  referredTo(node: string, actor: string, rules: number): H | undefined {
    const units = referencedUnits(node, actor, rules);
    const noun = units.length > 0 ? thingNoun(actor) : null;
    if (!noun) return undefined;
    const within = (u: string, n: string) => n === u || n.startsWith(`${u}__`);
    const held = units.flatMap((u) => {
      const given =
        noun === "power" && rules >= 10 ? [...this.#empowered].find(([n]) => within(u, n)) : undefined;
      if (given) return [given[1]];
      const named = [...this.#duties]
        .filter(([n]) => within(u, n))
        .flatMap(([, list]) => list)
        // Rules 10: or makes it: "The notifications referred to in paragraphs 1 and 3" are those of
        // "A manufacturer shall notify …" (CRA Art 14(7)).
        .find((d) => d.action.includes(noun) || (rules >= 10 && d.made.includes(noun)));
      return named ? [named.held] : [];
    });
    if (held.length === 0) return undefined;
    return rules >= 10 ? this.#merge(held) : held[0];
  }
}

/**
 * Rules 11: a document the actor map gives its usual keepers is kept by the one of them its article
 * has just named: "Each health data access body shall publish an activity report …
 * That activity report shall contain: (a) …" (EHDS Art 59(1)) is the body's, not also the digital
 * health authority's. Not a group of parties ("Economic operators", "The ESAs"), each of which holds
 * the duty, nor a contract, which binds all its parties (GDPR Art 28(3): controller and processor).
 */
const keptAlone = (actor: string) =>
  documentHead(actor) !== null && !/\b(?:contracts?|agreements?|arrangements?)\b/iu.test(actor);

export function keeperNamed(
  keepers: string[],
  before: Held | undefined,
  actor: string,
  tax: Taxonomy,
): Held | undefined {
  if (!keptAlone(actor)) return undefined;
  const within =
    before !== undefined &&
    before.types.join() !== keepers.join() &&
    before.types.every((t) => keepers.includes(t) || narrows([t], keepers, tax));
  return within ? before : undefined;
}
