/**
 * The in-memory corpus model: what the canon step produces from a regime's canon and its sources,
 * and what `corpus.json` in a release serialises. Names follow Akoma Ntoso and ELI.
 */

export type ActType = "reg" | "dir" | "reg_del" | "reg_impl" | "un_reg";

export type UnitKind =
  | "title"
  | "part"
  | "chapter"
  | "section"
  | "article"
  | "paragraph"
  | "subparagraph"
  | "point"
  | "indent"
  | "recital"
  | "annex";

/** A date the act states, with the provision that states it. */
export interface StatedDate {
  date: string;
  provision?: string;
  basis?: string;
}

/** One step of an act's staged application, read from its final provisions. */
export interface ScheduleItem {
  from: string;
  /** First day the scope no longer applies (exclusive end). */
  until?: string;
  scope: string[];
  except?: string[];
  provision: string;
  source_defect?: string;
}

/** An act as the canon declares it (regime.yaml), before its source is parsed. */
export interface ActCanon {
  id: string;
  source: string;
  sha256: string;
  short_name: string;
  aliases: string[];
  title: string;
  number: string;
  type: ActType;
  celex: string;
  eli?: string;
  jurisdiction: string;
  language: string;
  published?: string;
  entry_into_force: StatedDate;
  application: StatedDate;
  schedule: ScheduleItem[];
  /** What a reader must know that the source text does not say (a date a later act moved, a provision
   * another act deleted); each is reported in quality.json. */
  caveats: string[];
  notes?: string;
}

export interface RegimeCanon {
  regime: string;
  title: string;
  /** The date the source texts speak from. */
  as_of: string;
  licence: { corpus: string; attribution: string };
  acts: ActCanon[];
}

/** An act as a release carries it: the canon's identity and dates, with its IRIs and source digest. */
export interface Act
  extends Pick<
    ActCanon,
    | "id"
    | "short_name"
    | "aliases"
    | "title"
    | "number"
    | "type"
    | "celex"
    | "jurisdiction"
    | "language"
    | "source"
    | "entry_into_force"
    | "application"
    | "schedule"
  > {
  work_iri: string;
  expression_iri: string;
  source_sha256: string;
}

export interface Unit {
  /** Release-unique id: `<act id>/<eId>`. */
  node: string;
  act: string;
  eid: string;
  kind: UnitKind;
  /** The number or letter as printed ("33", "1a", "a", "iii", "III"); null for unnumbered units. */
  num: string | null;
  heading: string | null;
  parent: string | null;
  /** Text of this unit alone, without its descendants. */
  own_text: string;
  /** Text of this unit with its descendants, in reading order. */
  text: string;
  /** How a lawyer cites it: "Article 33(1) GDPR". */
  citation: string;
  /** ELI subdivision IRI (or the act's Cellar IRI with a fragment for acts without ELI). */
  eli: string;
  valid_from: string;
  valid_to: string | null;
  /** For a definition: the term it defines. */
  defines?: string;
  /** When `valid_to` is set: the provision that ends the unit ("nis2/art_43" when another act deletes it). */
  ended_by?: string;
}

export interface Corpus {
  regime: string;
  acts: Act[];
  units: Unit[];
}
