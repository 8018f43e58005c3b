/**
 * Entity types (`taxonomy.yaml`), the actor map (`actors.yaml`) and how an atom's actor becomes the
 * entity types it applies to.
 *
 * Directives: a duty addressed to Member States ("Member States shall ensure that essential entities
 * take …") keeps "Member States" as its actor and also applies to the entity types its action names,
 * because those are the entities the national measure will bind.
 */
import { parse } from "yaml";
import { FIRM_NOUN } from "./parties.ts";

/** Who holds a duty: a regulated party, or the State side (never in a firm's register). */
export type Addressee = "regulated_party" | "member_state" | "public_authority" | "union_body" | "none";

export interface EntityType {
  id: string;
  label: string;
  parents: string[];
  defined_in: string;
  /** On a root type of the State side; every other root is a regulated party. */
  addressee?: Exclude<Addressee, "regulated_party" | "none">;
}

export interface ActorPhrase {
  phrase: string;
  types: string[];
  scope?: string[];
  /** Match only an actor that is this phrase and nothing more ("Personal data shall be …"). */
  whole?: boolean;
}

export interface Taxonomy {
  types: EntityType[];
  actors: ActorPhrase[];
}

export function parseTaxonomy(
  taxonomyText: string | null,
  actorsText: string | null,
  where: string,
): Taxonomy {
  const t = taxonomyText ? (parse(taxonomyText) as { entity_types?: EntityType[] }) : {};
  const a = actorsText ? (parse(actorsText) as { actors?: ActorPhrase[] }) : {};
  const types = (t.entity_types ?? []).map((e) => ({ ...e, parents: e.parents ?? [] }));
  const ids = new Set(types.map((e) => e.id));
  for (const e of types) {
    for (const p of e.parents)
      if (!ids.has(p)) throw new Error(`${where}: entity type ${e.id} names unknown parent ${p}`);
  }
  const actors = a.actors ?? [];
  for (const x of actors) {
    for (const ty of x.types)
      if (!ids.has(ty)) throw new Error(`${where}: actor phrase "${x.phrase}" maps to unknown type ${ty}`);
  }
  return { types, actors };
}

/**
 * The addressee a type stands for: the State side when every root above it is one, else a regulated
 * party (a public administration entity under NIS2 is both a public body and a regulated entity).
 */
export function addresseeOfType(tax: Taxonomy, id: string): Exclude<Addressee, "none"> {
  const byId = new Map(tax.types.map((t) => [t.id, t]));
  const roots = new Set<string>();
  const visit = (t: string) => {
    const e = byId.get(t);
    if (!e || e.parents.length === 0) roots.add(t);
    else for (const p of e.parents) visit(p);
  };
  visit(id);
  const kinds = new Set([...roots].map((r) => byId.get(r)?.addressee ?? "regulated_party"));
  if (kinds.has("regulated_party") || kinds.size !== 1) return "regulated_party";
  return [...kinds][0] as Exclude<Addressee, "none">;
}

/** A type and every broader type above it. */
export function ancestors(tax: Taxonomy, ids: string[]): string[] {
  const byId = new Map(tax.types.map((t) => [t.id, t]));
  const out = new Set<string>();
  const visit = (id: string) => {
    if (out.has(id)) return;
    out.add(id);
    for (const p of byId.get(id)?.parents ?? []) visit(p);
  };
  for (const id of ids) visit(id);
  return [...out].sort();
}

/** A word's singular, as the actor map matches it ("authorities" → "authority", "measures" → "measure"). */
export function singular(w: string): string {
  return w.replace(/ies$/u, "y").replace(/(?<=[^s])s$/u, "");
}

/**
 * Rules 15: punctuation is no part of a word: "the Commission, on behalf of the Union" names the
 * Commission and "Digital health authorities, health data access bodies, …" the authorities first
 * (EHDS Art 89(1)); before, a word with a comma after it matched no phrase.
 */
const punctuationApart15 = (s: string): string => s.replace(/[,;:()[\]"“”‘]/gu, " ");

function normalisePhrase(s: string, rules = 0): string {
  return (rules >= 15 ? punctuationApart15(s).trim() : s)
    .toLowerCase()
    .replace(/^(?:the|a|an|each|every|any|all|such|those|these|that|this)\s+/u, "")
    .split(/\s+/u)
    .map(singular)
    .join(" ")
    .trim();
}

/** Rules 15: a party's noun at the end of a phrase (phrases are singular, so the singular forms). */
const PARTY_HEAD_15 = new RegExp(String.raw`\b(?:${FIRM_NOUN})$`, "u");

/** Rules 15: a clause a list of parties sets off by commas, no party of its own. */
const PARENTHETICAL_15 = /^(?:where|when|if|as|in|including|following|after|before|on|upon|respectively)\b/iu;

/** Rules 8: the words before a party that make it an infinitive's object ("… designed to protect "). */
const INFINITIVE_OBJECT_8 =
  / to (?!(?:the|a|an|any|all|its|their|that|this|those|these|each|such|other|be)\b)[a-z]+ (?:(?:the|a|an|any|all|other|such) )?$/u;

/**
 * Whether a phrase scoped to `scope` is read where an atom sits: `where` is its act id, or the node of
 * the part of the act it sits in ("data-act/chp_V"), which also lies within its act. A scope names act
 * ids or such nodes: the words of one chapter may name other parties than the act's definitions do
 * ("data holders" in the Data Act's Chapter V are any legal persons holding the data, Art 14).
 */
function within(scope: string[] | undefined, where: string): boolean {
  if (!scope) return true;
  const slash = where.indexOf("/");
  return scope.includes(where) || (slash > 0 && scope.includes(where.slice(0, slash)));
}

const specificity = (scope: string[] | undefined) =>
  scope === undefined ? 0 : scope.some((s) => s.includes("/")) ? 2 : 1;

type Phrase = { norm: string; types: string[]; scope?: string[]; whole?: boolean };

export class ActorMap {
  private readonly phrases: Phrase[];
  /** Rules 15: the same phrases with their punctuation set apart, as the texts they are found in are. */
  private readonly phrasesApart: Phrase[];

  constructor(tax: Taxonomy) {
    const read = (rules: number) =>
      tax.actors
        .map((a) => ({
          norm: normalisePhrase(a.phrase, rules),
          types: a.types,
          scope: a.scope,
          whole: a.whole,
        }))
        // Longest first; of equal phrases, the one scoped to a part of an act, then to acts, before the
        // general one; then by text.
        .sort(
          (x, y) =>
            y.norm.length - x.norm.length ||
            specificity(y.scope) - specificity(x.scope) ||
            (x.norm < y.norm ? -1 : x.norm > y.norm ? 1 : 0),
        );
    this.phrases = read(0);
    this.phrasesApart = read(15);
  }

  private list(rules: number): Phrase[] {
    return rules >= 15 ? this.phrasesApart : this.phrases;
  }

  /** Entity types named by a phrase (longest match first, act-scoped phrases before general ones). */
  typesIn(text: string, act: string, rules = 0): string[] {
    const norm = ` ${normalisePhrase(text, rules)} `;
    for (const p of this.list(rules)) {
      if (!within(p.scope, act)) continue;
      if (p.whole && norm === ` ${p.norm} `) return p.types;
    }
    // The head of the subject comes first: "distributors of a high-risk AI system" are distributors.
    // Rules 8: not a party that is the object of an infinitive in the subject ("Guards designed to
    // protect persons against the hazards …", Machinery Annex III): the subject is the thing.
    const found = this.firstPhrase(norm, act, rules);
    if (rules >= 8 && found && INFINITIVE_OBJECT_8.test(norm.slice(0, found.at + 1))) return [];
    const first = found?.types ?? [];
    return rules >= 8 && first.length > 0 ? this.coordinated(text, act, first, rules) : first;
  }

  /**
   * Rules 8: a subject of parties joined by "and" or "or" ("Economic operators and providers of online
   * marketplaces shall …", GPSR Art 35) names each of them, when each conjunct opens with a party.
   */
  private coordinated(text: string, act: string, first: string[], rules: number): string[] {
    const opening = (c: string) => this.openingTypesIn(c, act, rules);
    // Rules 15: a list set off by commas names each party too ("Any distributor, importer, deployer or
    // other third-party", AI Act Art 25(1)).
    const [head, ...rest] =
      rules >= 15
        ? text.replace(/\s+(and|or),/gu, " $1").split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|and\/or)\s+/u)
        : text.split(/\s+(?:and|or|and\/or)\s+/u);
    // Not when the first party's name runs past the conjunction ("market operators and investment firms
    // operating a trading venue" is one phrase), or when what follows qualifies it ("an operator that is
    // a natural person or a microenterprise"); a conjunct that is a thing, or persons at large, ends it.
    const headTypes = head ? opening(head) : null;
    if (
      rest.length === 0 ||
      !headTypes ||
      headTypes.join() !== first.join() ||
      /\b(?:that|which|who)\s+(?:is|are)\b/iu.test(head as string)
    )
      return first;
    const out = new Set(first);
    for (const c of rest) {
      // Rules 15: a clause set off by commas ("or, where applicable, the authorised representative").
      if (rules >= 15 && PARENTHETICAL_15.test(c)) continue;
      const types = opening(c);
      if (!types || this.isThing(c, act, rules) || types.includes("person")) break;
      for (const t of types) out.add(t);
    }
    return [...out].sort();
  }

  /**
   * Every type any known phrase in the text names (for the entities a Member State's duty is about).
   * Rules 10: a phrase inside a longer one found, or after a demonstrative ("those entities"), is no
   * party of its own: "essential and important entities" and "those entities" do not name every NIS2
   * entity.
   */
  allTypesIn(text: string, act: string, rules = 0): string[] {
    const norm = ` ${normalisePhrase(text, rules)} `;
    const out = new Set<string>();
    const taken: [number, number][] = [];
    for (const p of this.list(rules)) {
      if (!within(p.scope, act)) continue;
      if (p.whole) continue;
      if (rules < 10) {
        if (norm.includes(` ${p.norm} `)) for (const t of p.types) out.add(t);
        continue;
      }
      // Longest phrases first (the constructor's order): each occurrence not inside one already taken.
      for (let at = norm.indexOf(` ${p.norm} `); at >= 0; at = norm.indexOf(` ${p.norm} `, at + 1)) {
        const end = at + p.norm.length + 1;
        if (taken.some(([s, e]) => at + 1 >= s && end <= e)) continue;
        // "… the security of network and information systems which those entities use": a party named
        // again, not a new one.
        if (/ (?:those|these|such)$/u.test(norm.slice(0, at))) continue;
        taken.push([at + 1, end]);
        for (const t of p.types) out.add(t);
      }
    }
    return [...out].sort();
  }

  /** The types of the phrase a text opens with, determiner aside; null when no phrase opens it. */
  openingTypesIn(text: string, act: string, rules = 0): string[] | null {
    const first = this.firstPhrase(` ${normalisePhrase(text, rules)} `, act, rules);
    return first?.at === 0 ? first.types : null;
  }

  /** The types of the phrase that comes first in the text (of phrases starting at one place, the longest). */
  firstTypesIn(text: string, act: string, rules = 0): string[] {
    return this.firstPhrase(` ${normalisePhrase(text, rules)} `, act, rules)?.types ?? [];
  }

  /** The phrase that comes first in a normalised, space-padded text (of phrases starting at one place, the longest), and where. */
  private firstPhrase(
    norm: string,
    act: string,
    rules: number,
  ): { at: number; norm: string; types: string[] } | null {
    let best: { at: number; norm: string; types: string[] } | null = null;
    for (const p of this.list(rules)) {
      if (!within(p.scope, act) || p.whole) continue;
      const at = norm.indexOf(` ${p.norm} `);
      if (at < 0) continue;
      if (!best || at < best.at || (at === best.at && p.norm.length > best.norm.length))
        best = { at, norm: p.norm, types: p.types };
    }
    return best;
  }

  /**
   * Rules 7: whether an actor is a thing rather than a party: the phrase that names its holder is a
   * thing mapped to its keeper ("the technical documentation", no word of the party's name), or the
   * party stands only in an "of" complement ("the interests and needs of the SME providers").
   */
  isThing(text: string, act: string, rules = 0): boolean {
    const norm = ` ${normalisePhrase(text, rules)} `;
    for (const p of this.list(rules))
      if (p.whole && within(p.scope, act) && norm === ` ${p.norm} `) return false;
    const best = this.firstPhrase(norm, act, rules);
    if (!best) return false;
    if (/ of (?:(?:the|a|an|such|those|these|its|their) )?$/u.test(norm.slice(0, best.at + 1))) return true;
    // Rules 15: a phrase whose head is a party's noun names parties ("The economic operators", IVDR
    // Art 90(3)), though its words are none of their types' ("ivd_manufacturer", "ivd_importer").
    if (rules >= 15 && PARTY_HEAD_15.test(best.norm)) return false;
    const named = new Set(best.types.flatMap((t) => t.split("_")));
    return !best.norm.split(" ").some((w) => named.has(w));
  }

  appliesTo(actor: string, action: string, act: string, rules = 0): string[] {
    const own = this.typesIn(actor, act, rules);
    if (
      own.includes("member_state") &&
      /^(?:ensure|require|lay down|provide|adopt)\b/iu.test(action.trim())
    ) {
      return [
        ...new Set([...own, ...this.allTypesIn(action, act, rules).filter((t) => t !== "member_state")]),
      ].sort();
    }
    return [...own].sort();
  }
}
