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
  /** Set when an amending act moved the date; the adopted text says `set_by.original_from`. */
  set_by?: DateAmendment;
}

/**
 * An act outside the corpus that amended this one (a postponement, a changed scope). The corpus holds
 * the act as adopted; the canon carries what the amendment changed, so answers give the law in force.
 */
export interface AmendingAct {
  /** "32025L0794". */
  celex: string;
  /** How a lawyer names it: "Directive (EU) 2025/794". */
  title: string;
  /** Date of its Official Journal publication. */
  published: string;
  /** Its article that makes the changes: "Art 1". */
  provision: string;
  /** What it changes in this act, in a sentence a reader can check against the Official Journal. */
  changes: string;
  /** Units whose text it amends in substance (eIds): the corpus's text of them is not the law in force. */
  amends_text?: string[];
}

/** A schedule date an amending act set in place of the one the adopted text states. */
export interface DateAmendment {
  /** CELEX of the amending act (one of the act's `amended_by`). */
  celex: string;
  /** Its provision that sets the date: "Art 1(2)". */
  provision: string;
  /** The date the adopted text states. */
  original_from: string;
}

/** One step of an act's staged application, read from its final provisions. */
export interface ScheduleItem {
  from: string;
  /** Set when an amending act moved `from`; the adopted text says `set_by.original_from`. */
  set_by?: DateAmendment;
  /** First day the scope no longer applies (exclusive end). */
  until?: string;
  scope: string[];
  except?: string[];
  provision: string;
  source_defect?: string;
  /** How the date follows when the provision fixes it by reference to another act (PSD2 Art 115(4): the RTS). */
  basis?: string;
}

/** An act as the canon declares it (`acts/<id>.yaml`), before its source is parsed. */
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
  /** Amending acts outside the corpus whose changes the canon carries. */
  amended_by: AmendingAct[];
  /** A directive's deadline for Member States to adopt their transposing measures (required for `dir`). */
  transposition?: StatedDate;
  notes?: string;
}

export interface RegimeCanon {
  regime: string;
  title: string;
  /** The date the source texts speak from. */
  as_of: string;
  licence: { corpus: string; attribution: string };
  /**
   * The parsing repairs this canon was written for (docs/formats.md#parser): 1 as first released, 2 reads
   * a title the source left in the body. A recorded release is rebuilt with the repairs of its own
   * commit's canon, so its units, eIds and atom keys come out as they were.
   */
  parser: number;
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
    | "transposition"
  > {
  /** Amending acts outside the corpus whose changes the canon carries (absent when none). */
  amended_by?: AmendingAct[];
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
  /**
   * Acts outside the corpus that changed this unit: its dates (`valid_from` is already the amended date)
   * or its text (the text here is the adopted one, not the law in force). Absent when none did.
   */
  amended_by?: { celex: string; title: string; what: "date" | "text"; provision: string }[];
  /**
   * eIds this unit had in earlier releases, before a parsing repair renamed it (an article whose title
   * the source left in its body). `/v1/unit` resolves them when no unit has that eId now.
   */
  aliases?: string[];
  /** A directive's provision binds firms only as transposed: "through national law". Absent for other acts. */
  binding?: "through national law";
  /** For a directive's provision: the date by which Member States had to transpose it. */
  transposition_deadline?: string;
  /**
   * Set when the source lost this provision's text (it printed something else in its place): why, in a
   * sentence. The unit has no text, so a citation of it resolves without serving scraps.
   */
  lost_in_source?: string;
}

export interface Corpus {
  regime: string;
  acts: Act[];
  units: Unit[];
}
