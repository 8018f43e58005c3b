/**
 * One act: its canon entry and its cleaned source become units with eIds, citations, ELI IRIs and
 * validity dates.
 */
import { citationLabel, subdivisionIri } from "./citation.ts";
import type { ActCanon, Unit, UnitKind } from "./model.ts";
import { type Draft, parseProvision } from "./provisions.ts";
import type { QualityLog } from "./quality.ts";
import {
  type CleanAct,
  type CleanArticle,
  cleanSource,
  ENACTING_FORMULA,
  type Heading,
  type SourceAct,
} from "./source.ts";
import { clip, romanValue, toBlocks } from "./text.ts";
import {
  composeText,
  markDefinitions,
  reportDuplicateNodes,
  reportEmptyPoints,
  restoreSuperscripts,
} from "./unit-passes.ts";
import { resolveValidity } from "./validity.ts";

export { composeText };

export function buildActUnits(canon: ActCanon, src: SourceAct, log: QualityLog, parser = 1): Unit[] {
  const clean = cleanSource(src, log, parser);
  const units: Unit[] = [];
  const emit: Emit = (kind, eid, num, heading, parent, own) => {
    const unit: Unit = {
      node: `${canon.id}/${eid}`,
      act: canon.id,
      eid,
      kind,
      num,
      heading,
      parent: parent ? parent.node : null,
      own_text: own,
      text: "",
      citation: citationLabel(eid, canon.short_name, parser),
      eli: subdivisionIri(canon, eid),
      valid_from: "",
      valid_to: null,
    };
    units.push(unit);
    return unit;
  };

  emitRecitals(canon, src, log, emit, parser);
  emitArticles(clean, log, emit, parser);
  if (parser >= 4) placeUnderLostFirstHeading(units, log, emit);
  for (const anx of clean.annexes) {
    const num = anx.num ?? "1";
    if (units.some((u) => u.eid === `anx_${num}`)) {
      log.defect("duplicate_annex", `anx_${num}`, `a second Annex ${num} in the source was left out`);
      continue;
    }
    emit("annex", `anx_${num}`, anx.num, anx.heading, null, anx.blocks.join("\n\n"));
  }
  markDefinitions(src, units, log);
  reportDuplicateNodes(units, log);
  reportEmptyPoints(units, log, parser);
  restoreSuperscripts(units, log);
  composeText(units);
  resolveValidity(canon, units, log, parser);
  return units;
}

type Emit = (
  kind: UnitKind,
  eid: string,
  num: string | null,
  heading: string | null,
  parent: Unit | null,
  own: string,
) => Unit;

function emitRecitals(canon: ActCanon, src: SourceAct, log: QualityLog, emit: Emit, parser = 1): void {
  const seen = new Map<number, string>();
  for (const r of src.recitals ?? []) {
    const n = r.recital_number;
    let blocks = toBlocks(r.text, log, `rec_${n}`);
    // Parser 3: the enacting formula (and what the source glued after it) ends the preamble, not the recital.
    const formula = parser >= 3 ? blocks.findIndex((b) => ENACTING_FORMULA.test(b)) : -1;
    if (formula > 0) {
      log.repair(
        "enacting_formula_split",
        `rec_${n}`,
        `"${blocks[formula]}" and what follows cut from the recital`,
      );
      blocks = blocks.slice(0, formula);
    }
    const text = blocks.join("\n\n");
    const before = seen.get(n);
    if (before !== undefined) {
      if (before === text)
        log.repair("duplicate_recital_removed", `rec_${n}`, `recital ${n} appears twice; one copy kept`);
      else
        log.defect(
          "conflicting_recital",
          `rec_${n}`,
          `recital ${n} appears twice with different text; first kept`,
        );
      continue;
    }
    seen.set(n, text);
    emit("recital", `rec_${n}`, String(n), null, null, text);
  }
  const nums = [...seen.keys()].sort((a, b) => a - b);
  const missing: number[] = [];
  for (let i = 1; i < (nums[nums.length - 1] ?? 0); i++) if (!seen.has(i)) missing.push(i);
  if (missing.length > 0)
    log.defect("missing_recitals", null, `recitals missing from the source: ${missing.join(", ")}`);
  if (src.recitals === undefined && canon.type !== "un_reg")
    log.defect("missing_recitals", null, "the source has no recitals");
}

interface Open {
  unit: Unit;
  num: string | null;
}

/** The Part, Title, Chapter and Section open where the articles have reached, and how to emit under them. */
interface Outline {
  log: QualityLog;
  emit: Emit;
  parser: number;
  part: Open | null;
  title: Open | null;
  chapter: Open | null;
  section: Open | null;
  // The chapter a Part or Title heading closed: the scraper keeps labelling the articles after it with
  // that chapter (EECC Part IV with "Chapter V" of Part III), which parser 4 reads as stale.
  closedChapter: string | null;
}

function emitArticles(clean: CleanAct, log: QualityLog, emit: Emit, parser = 1): void {
  const outline: Outline = {
    log,
    emit,
    parser,
    part: null,
    title: null,
    chapter: null,
    section: null,
    closedChapter: null,
  };
  const articles = clean.articles;
  // Whether the source prints any Part, Title or Chapter heading: only then is a field that opens a
  // chapter before the first printed one suspect.
  const printsHeadings = articles.some((b) => b.headingsBefore.some((h) => h.kind !== "section" && h.text));
  for (let k = 0; k < articles.length; k++) {
    const a = articles[k] as CleanArticle;
    const eid = `art_${a.num}`;
    const headings = headingsBeforeArticle(outline, articles, k, printsHeadings);
    for (const h of headings) {
      if (h.num === null) {
        log.defect(
          "heading_without_number",
          eid,
          `heading "${clip(h.text ?? "")}" has no number; not placed`,
        );
        continue;
      }
      openHeading(outline, h);
    }
    emitArticle(outline, a, eid);
  }
}

/** A Part, Title, Chapter or Section heading opens its unit under the ones still open above it. */
function openHeading(o: Outline, h: Heading): void {
  const { log, emit, parser } = o;
  if (h.kind === "part" || h.kind === "title") o.closedChapter = o.chapter?.num ?? o.closedChapter;
  else if (h.kind === "chapter") o.closedChapter = null;
  // Parser 3: Parts hold Titles (EECC: Part II, Title I), so a Title's eId names its Part; before,
  // both were top level and Part II's Title I collided with Part I's.
  if (parser >= 3 && h.kind === "part") {
    if (o.part === null && o.title !== null)
      log.defect(
        "first_heading_lost",
        `part_${h.num}`,
        `Part ${h.num} is the first Part the source prints; the Titles before it belong to an earlier Part whose heading is lost, and stay outside any Part`,
      );
    o.part = { unit: emit("part", `part_${h.num}`, h.num, h.text, null, h.text ?? ""), num: h.num };
    o.title = null;
    o.chapter = null;
    o.section = null;
  } else if (parser >= 3 && h.kind === "title") {
    const p = o.part;
    const eid = `${p ? `${p.unit.eid}__` : ""}title_${h.num}`;
    o.title = { unit: emit("title", eid, h.num, h.text, p ? p.unit : null, h.text ?? ""), num: h.num };
    o.chapter = null;
    o.section = null;
  } else if (h.kind === "title" || h.kind === "part") {
    const prefix = h.kind === "title" ? "title" : "part";
    o.title = { unit: emit(h.kind, `${prefix}_${h.num}`, h.num, h.text, null, h.text ?? ""), num: h.num };
    o.chapter = null;
    o.section = null;
  } else if (h.kind === "chapter") {
    const t = o.title;
    const open = o.chapter;
    // Parser 4: a second heading under the open chapter's number is a chapter inserted after it, whose
    // letter the consolidated source lost (eIDAS "CHAPTER IVa GOVERNANCE FRAMEWORK" printed as IV).
    if (parser >= 4 && open?.num === h.num && h.text && open.unit.heading && h.text !== open.unit.heading) {
      log.repair(
        "inserted_chapter_numbered",
        `chp_${h.num}a`,
        `a second Chapter ${h.num} ("${clip(h.text)}") after Chapter ${h.num} ("${clip(open.unit.heading)}") is Chapter ${h.num}a`,
      );
      h = { ...h, num: `${h.num}a` };
    }
    const eid = `${t ? `${t.unit.eid}__` : ""}chp_${h.num}`;
    o.chapter = { unit: emit("chapter", eid, h.num, h.text, t ? t.unit : null, h.text ?? ""), num: h.num };
    o.section = null;
  } else {
    const up = o.chapter ?? o.title;
    const eid = `${up ? `${up.unit.eid}__` : ""}sec_${h.num}`;
    o.section = { unit: emit("section", eid, h.num, h.text, up ? up.unit : null, h.text ?? ""), num: h.num };
  }
}

/**
 * The headings that open before article k: the ones the source prints, and the chapter the scraper's
 * chapter field names where no printed heading opens it (unless the field is stale, shifted or wrong).
 */
function headingsBeforeArticle(
  o: Outline,
  articles: CleanArticle[],
  k: number,
  printsHeadings: boolean,
): Heading[] {
  const { log, parser } = o;
  const a = articles[k] as CleanArticle;
  const eid = `art_${a.num}`;
  let headings = a.headingsBefore;
  const current = o.chapter?.num ?? null;
  const field = a.chapterField;
  if (parser >= 4 && field !== null && current === null && field === o.closedChapter) {
    log.repair(
      "stale_chapter_field",
      eid,
      `source says Chapter ${field}, the chapter a later Part or Title heading closed; not reopened`,
    );
  } else if (
    parser >= 4 &&
    field !== null &&
    (current?.replace(/[a-z]+$/u, "") === field ||
      (printsHeadings &&
        o.part === null &&
        o.title === null &&
        o.chapter === null &&
        !headings.some((h) => h.kind !== "section") &&
        !/^(?:I|1)$/u.test(field)))
  ) {
    // An inserted chapter (IVa) is still Chapter IV to the scraper's field; and in an act that prints its
    // headings, the articles before the first one are in its first Chapter or Title, whatever the field
    // says (MiFID II Arts 1-4 say Chapter III).
    if (current === null)
      log.repair(
        "chapter_field_ignored",
        eid,
        `source says Chapter ${field} before the act's first heading; not opened`,
      );
  } else if (field !== null && field !== current && !headings.some((h) => h.kind === "chapter")) {
    // The scraper labels the article that carries the next chapter's glued heading with that next
    // chapter; the moved heading, not the field, says where the chapter begins.
    const shifted = articles[k + 1]?.headingsBefore.some((h) => h.kind === "chapter" && h.num === field);
    // Parser 4: a field naming a chapter whose printed heading comes later is wrong here (Data Act
    // Art 1 says Chapter VII; GPSR Art 2 says Chapter III): opening it now would give two units one id.
    const printedLater = parser >= 4 && chapterPrintedLater(articles, k, field);
    if (shifted) {
      // nothing: the chapter opens with the next article
    } else if (printedLater) {
      log.repair(
        "chapter_field_ignored",
        eid,
        `source says Chapter ${field}, whose heading the source prints further on; kept in ${current === null ? "the chapter before" : `Chapter ${current}`}`,
      );
    } else if (current !== null && chapterOrder(field) < chapterOrder(current)) {
      log.defect(
        "chapter_field_inconsistent",
        eid,
        `source says Chapter ${field} after Chapter ${current}; kept in Chapter ${current}`,
      );
    } else {
      headings = [{ kind: "chapter", num: field, text: null }, ...headings];
    }
  }
  return headings;
}

/** The article, under the innermost open heading, and its paragraphs, points and indents. */
function emitArticle(o: Outline, a: CleanArticle, eid: string): void {
  const { log, emit, parser } = o;
  // Parser 4: an article right under a Part (EECC Part IV) hangs from it; before, it hung from nothing.
  const up =
    parser >= 4 ? (o.section ?? o.chapter ?? o.title ?? o.part) : (o.section ?? o.chapter ?? o.title);
  const parent = up?.unit ?? null;
  const parsed = parseProvision(a.blocks, parser);
  for (const r of parsed.recovered ?? []) log.repair("paragraph_number_recovered", eid, r);
  const made: Unit[] = [];
  const collect: Emit = (kind, id, num, heading, up, own) => {
    const u = emit(kind, id, num, heading, up, own);
    made.push(u);
    return u;
  };
  const article = collect("article", eid, a.num, a.heading, parent, parsed.own);
  if (a.lost) article.lost_in_source = a.lost;
  emitDrafts(parsed.children, article, collect);
  if (a.titleFromText && parsed.own !== "") for (const u of made) u.aliases = [formerEid(eid, u.eid)];
  // What hung from the article before its first paragraph was recognised keeps its eId as an alias.
  if (parsed.recovered) keepParser3Eids(a, eid, made);
}

/** A unit a paragraph-number repair renamed keeps the eId parser 3 gave it, found by its text. */
function keepParser3Eids(a: CleanArticle, eid: string, made: Unit[]): void {
  // Parser 3 read "3. For the purpose …" as a point's text, number included.
  const key = (t: string) => t.replace(/^\d{1,3}\.?\s+/u, "");
  const before = new Map<string, string>();
  const walk = (drafts: Draft[], up: string) => {
    const seen = new Set<string>();
    for (const d of drafts) {
      let segment = d.segment;
      for (let n = 2; seen.has(segment); n++) segment = `${d.segment}_${n}`; // as emitDrafts names them
      seen.add(segment);
      const id = `${up}__${segment}`;
      if (d.own !== "" && !before.has(key(d.own))) before.set(key(d.own), id);
      walk(d.children, id);
    }
  };
  walk(parseProvision(a.blocks, 3).children, eid);
  for (const u of made) {
    const former = u.own_text === "" ? undefined : before.get(key(u.own_text));
    if (former !== undefined && former !== u.eid && !made.some((m) => m.eid === former)) u.aliases = [former];
  }
}

/**
 * The eId a unit of an article had while its title stood as the article's own text: the article's
 * first block was then its second subparagraph, so every subparagraph moves one up and what hung from
 * the article hung from that second subparagraph.
 */
function formerEid(article: string, eid: string): string {
  if (eid === article) return `${article}__subpara_2`;
  const rest = eid.slice(article.length + 2);
  const sub = /^subpara_(\d+)(.*)$/u.exec(rest);
  return sub ? `${article}__subpara_${Number(sub[1]) + 1}${sub[2]}` : `${article}__subpara_2__${rest}`;
}

function emitDrafts(drafts: Draft[], parent: Unit, emit: Emit): void {
  const seen = new Set<string>();
  for (const d of drafts) {
    let segment = d.segment;
    // A list the source numbers twice ("(a)" … "(a)") keeps both; the second gets a suffix.
    for (let k = 2; seen.has(segment); k++) segment = `${d.segment}_${k}`;
    seen.add(segment);
    const unit = emit(d.kind, `${parent.eid}__${segment}`, d.num, null, parent, d.own);
    emitDrafts(d.children, unit, emit);
  }
}

/**
 * Whether a heading of Chapter `num` is printed after article k and before the next Part or Title
 * (chapter numbers start again in each Title, as in the EECC).
 */
function chapterPrintedLater(articles: CleanArticle[], k: number, num: string): boolean {
  for (const b of articles.slice(k + 1)) {
    if (b.headingsBefore.some((h) => h.kind === "part" || h.kind === "title")) return false;
    if (b.headingsBefore.some((h) => h.kind === "chapter" && h.num === num && h.text)) return true;
  }
  return false;
}

const FIRST: Record<string, string> = { II: "I", "2": "1" };

/**
 * The articles before an act's first printed Title or Chapter, when that heading is numbered II (or 2):
 * the source lost Title I (Chapter 1) and its heading. The unit is restored from the number alone, with
 * no heading (none is in the source), and the articles are placed in it.
 */
function placeUnderLostFirstHeading(units: Unit[], log: QualityLog, emit: Emit): void {
  const firstStructure = units.findIndex((u) => STRUCTURE.has(u.kind));
  if (firstStructure < 0) return;
  const next = units[firstStructure] as Unit;
  const num = FIRST[next.num ?? ""];
  const orphans = units.filter((u, i) => i < firstStructure && u.kind === "article" && u.parent === null);
  if (num === undefined || orphans.length === 0) return;
  const prefix = next.kind === "chapter" ? "chp" : next.kind;
  const lost = emit(next.kind, `${prefix}_${num}`, num, null, null, "");
  units.splice(units.indexOf(lost), 1);
  units.splice(units.indexOf(orphans[0] as Unit), 0, lost);
  const word = next.kind === "chapter" ? "Chapter" : next.kind === "title" ? "Title" : "Part";
  lost.lost_in_source = `the source lost the heading of ${word} ${num}; its number follows from ${word} ${next.num}, the first the source prints`;
  for (const o of orphans) o.parent = lost.node;
  log.repair(
    "first_heading_lost",
    lost.eid,
    `${word} ${num} restored without a heading; Articles ${orphans[0]?.num}–${orphans.at(-1)?.num} placed in it`,
  );
}

const STRUCTURE = new Set<UnitKind>(["part", "title", "chapter", "section"]);

function chapterOrder(num: string): number {
  const r = romanValue(num);
  return Number.isNaN(r) ? Number.parseInt(num, 10) : r;
}
