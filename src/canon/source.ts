/**
 * The scraped source format (one JSON file per act) and the repairs that turn its article list into
 * clean provisions: the tail glued onto the last article (signatures, footnotes, annexes) is split
 * off, headings glued onto the end of an article are moved to where they belong, article titles
 * repeated in the text are removed, inserted articles of consolidated texts are separated, and
 * correlation-table scraps standing in for articles are set aside.
 */
import { QualityLog } from "./quality.ts";
import { clip, normaliseSpaces, toBlocks } from "./text.ts";

export interface SourceArticle {
  number: string;
  title?: string;
  text: string;
  chapter?: string;
}

export interface SourceAct {
  id: string;
  full_name: string;
  celex_id: string;
  effective_date: string | null;
  articles: SourceArticle[];
  definitions?: { term: string; definition: string; article: string }[];
  recitals?: { recital_number: number; text: string }[];
}

/** A structural heading: "CHAPTER III" + "Rights of the data subject", or a bare heading. */
export interface Heading {
  kind: "title" | "part" | "chapter" | "section";
  num: string | null;
  text: string | null;
}

export interface CleanArticle {
  num: string;
  heading: string | null;
  blocks: string[];
  /** The chapter the source's `chapter` field names, if it has one. */
  chapterField: string | null;
  /** Headings that precede this article (moved off the end of the previous one). */
  headingsBefore: Heading[];
  /** The heading was read from the body's first line (the source's title field was empty). */
  titleFromText?: boolean;
  /** The source printed something else in place of this article's text: why (parser 4). */
  lost?: string;
}

export interface CleanAnnex {
  num: string | null;
  heading: string | null;
  blocks: string[];
}

export interface CleanAct {
  articles: CleanArticle[];
  annexes: CleanAnnex[];
}

const STRUCT_LABEL = /^(TITLE|PART|CHAPTER|SECTION|Title|Part|Chapter|Section)\s+([IVXLC]+|\d{1,2}[A-Z]?)$/u;
const ANNEX_LABEL = /^(?:ANNEX|Annex)(?:\s+([IVXLC]+[a-z]?|\d{1,2}[A-Z]?))?$/u;
const INSERTED_ARTICLE = /^Article\s+(\d{1,3}[a-z]{1,2})$/u;

export function cleanSource(src: SourceAct, log: QualityLog, parser = 1): CleanAct {
  const articles: CleanArticle[] = [];
  const annexes: CleanAnnex[] = [];
  for (let i = 0; i < src.articles.length; i++) {
    const a = src.articles[i] as SourceArticle;
    const eid = `art_${a.number}`;
    const { heading, blocks, annexNum, titleFromText } = readTitleAndText(a, log, parser);
    if (annexNum) {
      // UN regulations list their annexes as articles named "Annex 1".
      annexes.push({ num: annexNum, heading, blocks });
      continue;
    }
    if (isCorrelationScrap(a, blocks)) {
      const lost = correlationScrap(a, heading, blocks, log, parser);
      if (lost) articles.push(lost);
      continue;
    }
    const tail = splitTail(blocks, log, eid);
    annexes.push(...tail.annexes);
    articles.push({
      num: a.number.trim(),
      heading,
      blocks: tail.body,
      chapterField: a.chapter ? a.chapter.trim() : null,
      headingsBefore: [],
      titleFromText,
    });
  }
  // Scraps after the act's last article are the correlation table printed after it, not lost articles.
  while (articles.at(-1)?.lost) {
    const a = articles.pop() as CleanArticle;
    log.defect(
      "correlation_table_scrap",
      `art_${a.num}`,
      `source article ${a.num} after the last article holds only correlation-table entries; not an article, left out`,
    );
  }
  for (const a of articles) if (a.lost) log.defect("article_lost_in_source", `art_${a.num}`, a.lost);
  // Only consolidated texts (they carry EUR-Lex markers) print inserted articles inside the article
  // before; in an amending act, "Article 29b" is quoted text of the act it amends.
  if (src.articles.some((a) => /[▼►]/u.test(a.text))) splitInsertedArticles(articles, log);
  moveGluedHeadings(articles, log);
  if (parser >= 3 && articles[0]) recoverFirstHeadings(src, articles[0], log);
  if (parser >= 4) {
    const last = articles.at(-1);
    if (last) last.blocks = withoutTrailingFootnotes(last.blocks, log, `art_${last.num}`);
    for (const anx of annexes) anx.blocks = withoutFootnoteBodies(anx.blocks, log, `anx_${anx.num ?? "1"}`);
  }
  return { articles, annexes };
}

/** A source article's title and text blocks, once the title is repaired and no longer repeated in the text. */
interface TitleAndText {
  heading: string | null;
  blocks: string[];
  /** The number of the annex a UN regulation lists as an article named "Annex 1", or null. */
  annexNum: string | null;
  titleFromText: boolean;
}

function readTitleAndText(a: SourceArticle, log: QualityLog, parser: number): TitleAndText {
  const eid = `art_${a.number}`;
  let heading = a.title ? normaliseSpaces(a.title.replace(/`$/u, "")) : null;
  if (parser >= 4 && heading && /[▼►◄]/u.test(heading)) {
    const bare = normaliseSpaces(heading.replace(/[▼►◄]\s*(?:[MACB]\d+)?/gu, " "));
    log.repair("consolidation_marker_stripped", eid, `marker removed from the title "${clip(heading)}"`);
    heading = bare === "" ? null : bare;
  }
  if (a.title?.endsWith("`"))
    log.repair("title_typo_fixed", eid, `stray backquote removed from title "${a.title}"`);
  const annexNum = /^Annex\s+(\S+)$/u.exec(a.number.trim());
  const where = annexNum ? `anx_${annexNum[1]}` : eid;
  let blocks = toBlocks(a.text, log, where);
  if (parser >= 3) blocks = withoutPageFurniture(blocks, log, where);
  if (heading && blocks[0] === heading && blocks.length > 1) {
    blocks = blocks.slice(1);
    log.repair("title_removed_from_text", where, `title "${clip(heading)}" repeated as the first line`);
  }
  // The source lost the title field but kept the title as the body's first line: a short line with no
  // closing punctuation and no verb of duty. Read as text, it took the article's own-text slot and
  // pushed every block after it down one subparagraph.
  let titleFromText = false;
  if (
    parser >= 2 &&
    heading === null &&
    !annexNum &&
    blocks.length > 1 &&
    looksLikeTitle(blocks[0] as string)
  ) {
    heading = blocks[0] as string;
    blocks = blocks.slice(1);
    titleFromText = true;
    log.repair(
      "title_in_text",
      where,
      `the source has no title field; its first line "${clip(heading)}" is the title`,
    );
  }
  return { heading, blocks, annexNum: annexNum ? (annexNum[1] as string) : null, titleFromText };
}

/**
 * A source article that holds only correlation-table scraps: left out before parser 4; from parser 4,
 * an article whose text the source lost.
 */
function correlationScrap(
  a: SourceArticle,
  heading: string | null,
  blocks: string[],
  log: QualityLog,
  parser: number,
): CleanArticle | null {
  if (parser < 4) {
    log.defect(
      "correlation_table_scrap",
      `art_${a.number}`,
      `source article ${a.number} ("${heading ?? ""}") holds only "${clip(blocks.join(" "))}"; not an article, left out`,
    );
    return null;
  }
  // Parser 4: the article exists in the law, so its unit exists (citations of it resolve), with no
  // heading and no text: the scraps are not its text, and nothing is typed in from elsewhere.
  const lost = `the source prints correlation-table entries ("${clip(blocks.join(" "), 60)}") in place of Article ${a.number.trim()}'s title and text`;
  return {
    num: a.number.trim(),
    heading: null,
    blocks: [],
    chapterField: null,
    headingsBefore: [],
    lost,
  };
}

const OJ_REFERENCE = /^OJ [LC]\b/u;

/**
 * An act without a signature block (ePrivacy) ends with its Official Journal footnotes glued to its last
 * article: a run of "OJ C 365 E, …" blocks, the last sentence carrying the first marker ("… Member
 * States. (1)"). The run and the marker go; they are the page's apparatus, not the article.
 */
function withoutTrailingFootnotes(blocks: string[], log: QualityLog, eid: string): string[] {
  let start = blocks.length;
  while (
    start > 1 &&
    (OJ_REFERENCE.test(blocks[start - 1] as string) || /^\/{5,}/u.test(blocks[start - 1] as string))
  )
    start--;
  if (start === blocks.length) return blocks;
  const kept = blocks.slice(0, start);
  kept[start - 1] = (kept[start - 1] as string).replace(/\s*\(\d{1,3}\)$/u, "");
  log.repair(
    "footnotes_split",
    eid,
    `${blocks.length - start} footnote block(s) after the last article's text dropped`,
  );
  return kept;
}

/** "(2) Regulation (EC) No 1907/2006 … (OJ L 396, …)." or "(1)" then "OJ L, 2024/2847, …": a footnote's body. */
const FOOTNOTE_BODY =
  /^\((\d{1,2})\)(?: (?:(?:Council|Commission) )?(?:Regulation|Directive|Decision|Recommendation|Implementing|Delegated)\b.*\(\s?OJ [LC][^)]*\)\.?| OJ [LC]\b.*)?$/u;

/**
 * Footnotes the Official Journal prints under an annex's pages, scraped into its text: a block that is
 * a footnote body whose marker the annex's text used before ("… of the Council (1), which …").
 */
function withoutFootnoteBodies(blocks: string[], log: QualityLog, eid: string): string[] {
  const out: string[] = [];
  let dropped = 0;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as string;
    const m = FOOTNOTE_BODY.exec(b);
    const marker = m ? `(${m[1]})` : null;
    const referenced =
      marker !== null && out.some((prev) => prev.includes(` ${marker}`) || prev.includes(`${marker}.`));
    if (m && referenced) {
      const alone = b === marker;
      if (alone && !OJ_REFERENCE.test(blocks[i + 1] ?? "")) {
        out.push(b);
        continue;
      }
      if (alone) i++;
      dropped++;
      continue;
    }
    out.push(b);
  }
  if (dropped > 0)
    log.repair("footnotes_split", eid, `${dropped} Official Journal footnote(s) dropped from the annex text`);
  return out;
}

/** The enacting formula that ends the preamble ("HAS ADOPTED THIS REGULATION:"), on a line of its own. */
export const ENACTING_FORMULA = /^(?:HAS|HAVE) ADOPTED THIS (?:REGULATION|DIRECTIVE|DECISION):?$/u;

/**
 * Commission acts' sources glue the enacting formula, and the first Title or Chapter heading after it,
 * onto the last recital. The heading belongs before the first article; the recital ends before the formula.
 */
function recoverFirstHeadings(src: SourceAct, first: CleanArticle, log: QualityLog): void {
  const last = src.recitals?.at(-1);
  if (!last) return;
  const blocks = toBlocks(last.text, new QualityLog("scratch"), "rec");
  const at = blocks.findIndex((b) => ENACTING_FORMULA.test(b));
  if (at < 0) return;
  const headings: Heading[] = [];
  for (const b of blocks.slice(at + 1)) {
    const m = STRUCT_LABEL.exec(b);
    if (m) headings.push({ kind: labelKind(m[1] as string), num: m[2] as string, text: null });
    else if (headings.length > 0 && headings[headings.length - 1]?.text === null)
      (headings[headings.length - 1] as Heading).text = b;
  }
  if (headings.length === 0 || first.headingsBefore.some((h) => h.kind === headings[0]?.kind)) return;
  first.headingsBefore = [...headings, ...first.headingsBefore];
  for (const h of headings)
    log.repair(
      "first_heading_recovered",
      `art_${first.num}`,
      `${h.kind} ${h.num} read from after the enacting formula`,
    );
}

/**
 * The web page the source was scraped from ends with its own furniture: the Official Journal's ELI and
 * ISSN lines and the page's JavaScript. None of it is law; each is a block of its own.
 */
const PAGE_FURNITURE = [
  /^ELI: http:\/\/data\.europa\.eu\/eli\/\S+$/u,
  /^ISSN \d{4}-\d{3}[\dX] \((?:electronic|print) edition\)$/u,
  /^\/{5,}|\$\(document\)\.ready\(|\bfunction\s*\(\)\s*\{/u,
];

function withoutPageFurniture(blocks: string[], log: QualityLog, where: string): string[] {
  return blocks.filter((b) => {
    const furniture = PAGE_FURNITURE.some((re) => re.test(b));
    if (furniture)
      log.repair("page_furniture_removed", where, `"${clip(b)}" is the web page's, not the act's`);
    return !furniture;
  });
}

/** A title line: short, capitalised, no closing punctuation, no number or point label, no verb of duty. */
export function looksLikeTitle(block: string): boolean {
  return (
    block.length <= 200 &&
    /^\p{Lu}/u.test(block) &&
    !/[.;:,]$/u.test(block) &&
    !/\b(?:shall|may|must)\b/u.test(block) &&
    !STRUCT_LABEL.test(block) &&
    !ANNEX_LABEL.test(block)
  );
}

/**
 * Correlation tables ("Article 14(1) and (2) | Article 21(1) to (4)") sometimes stand where an article
 * should be: a title that is itself a citation, or a body made of bare references and dashes.
 */
function isCorrelationScrap(a: SourceArticle, blocks: string[]): boolean {
  const body = blocks.join(" ").trim();
  if (/^[—–-]*$/u.test(body)) return true;
  if (/^Annex\b/iu.test(a.title ?? "") && body.length < 40) return true;
  const refs = blocks.filter((b) =>
    /^(?:Articles?|Annex)\s+[\dIVXL]+\S*(?:[^.;:]{0,80})$|^[—–-]$/u.test(b),
  ).length;
  return (
    (/^Articles?\s+\d/u.test(a.title ?? "") && refs >= blocks.length / 2) ||
    (blocks.length >= 8 && refs / blocks.length > 0.8)
  );
}

/** Signature, footnotes and annexes glued after the enacting terms. */
function splitTail(
  blocks: string[],
  log: QualityLog,
  eid: string,
): { body: string[]; annexes: CleanAnnex[] } {
  const done = blocks.findIndex((b) => /^Done at \S/u.test(b));
  const firstAnnex = blocks.findIndex(
    (b, i) => (done < 0 || i > done) && ANNEX_LABEL.test(b) && isAnnexStart(blocks, i),
  );
  if (done < 0 && firstAnnex < 0) return { body: blocks, annexes: [] };
  const end = done >= 0 ? done : firstAnnex;
  const body = blocks.slice(0, end);
  const between = blocks.slice(end, firstAnnex >= 0 ? firstAnnex : blocks.length);
  if (done >= 0) {
    const footnotes = between.filter((b) => /^\(\d{1,3}\)(\s|$)/u.test(b) || /^OJ [LC]\b/u.test(b)).length;
    log.repair(
      "signature_split",
      eid,
      `place, date and signature block (${between.length - footnotes} block(s)) split off the article text and dropped`,
    );
    if (footnotes > 0)
      log.repair("footnotes_split", eid, `${footnotes} footnote block(s) split off and dropped`);
  }
  const annexes: CleanAnnex[] = [];
  if (firstAnnex >= 0) {
    let current: CleanAnnex | null = null;
    for (let i = firstAnnex; i < blocks.length; i++) {
      const b = blocks[i] as string;
      const m = ANNEX_LABEL.exec(b);
      if (m && isAnnexStart(blocks, i)) {
        const heading =
          blocks[i + 1] && !ANNEX_LABEL.test(blocks[i + 1] as string) ? (blocks[i + 1] as string) : null;
        current = { num: m[1] ?? null, heading, blocks: [] };
        annexes.push(current);
        if (heading) i++;
        continue;
      }
      current?.blocks.push(b);
    }
    for (const a of annexes) {
      log.repair(
        "annex_split",
        `anx_${a.num ?? "1"}`,
        `annex split off ${eid} (${a.blocks.length} block(s))`,
      );
    }
  }
  return { body, annexes };
}

/** "ANNEX" alone on a line begins an annex unless it is a cross-reference caught on its own. */
function isAnnexStart(blocks: string[], i: number): boolean {
  const next = blocks[i + 1];
  return next !== undefined && !/^[,.;)]/u.test(next);
}

/** Consolidated texts carry inserted articles (Article 14a) inside the text of the article before. */
function splitInsertedArticles(articles: CleanArticle[], log: QualityLog): void {
  for (let i = 0; i < articles.length; i++) {
    const a = articles[i] as CleanArticle;
    const at = a.blocks.findIndex(
      (b, j) => j > 0 && INSERTED_ARTICLE.test(b) && a.blocks[j + 1] !== undefined,
    );
    if (at < 0) continue;
    const num = (INSERTED_ARTICLE.exec(a.blocks[at] as string) as RegExpExecArray)[1] as string;
    if (articles.some((x) => x.num === num)) continue;
    const inserted: CleanArticle = {
      num,
      heading: a.blocks[at + 1] as string,
      blocks: a.blocks.slice(at + 2),
      chapterField: a.chapterField,
      headingsBefore: [],
    };
    a.blocks = a.blocks.slice(0, at);
    articles.splice(i + 1, 0, inserted);
    log.repair(
      "inserted_article_split",
      `art_${num}`,
      `inserted Article ${num} split out of the text of Article ${a.num}`,
    );
  }
}

/**
 * Headings of the next chapter or section are glued onto the end of the previous article. They are
 * recognised by a structural label ("Section 2", "CHAPTER III"), or, when the scraper dropped the label,
 * by a change of the source's chapter field on the next article together with short unpunctuated lines.
 */
function moveGluedHeadings(articles: CleanArticle[], log: QualityLog): void {
  for (let i = 0; i + 1 < articles.length; i++) {
    const a = articles[i] as CleanArticle;
    const next = articles[i + 1] as CleanArticle;
    let start = a.blocks.length;
    while (start > 1 && isHeadingLike(a.blocks[start - 1] as string)) start--;
    if (start === a.blocks.length) continue;
    const run = a.blocks.slice(start);
    const labelled = run.some((b) => STRUCT_LABEL.test(b) || isCapitalHeading(b));
    // The scraper stamps the carrier with either its own chapter or the next one: a change on either side counts.
    const prev = articles[i - 1];
    const chapterChanges =
      a.chapterField !== null &&
      ((next.chapterField !== null && next.chapterField !== a.chapterField) ||
        (prev !== undefined && prev.chapterField !== null && prev.chapterField !== a.chapterField));
    if (!labelled && !chapterChanges) continue;
    // Keep the run only from its first heading-shaped piece that a label or chapter change explains.
    const headings: Heading[] = [];
    let bare: string[] = [];
    for (const b of run) {
      const m = STRUCT_LABEL.exec(b);
      if (m) {
        flushBare(headings, bare, a);
        bare = [];
        headings.push({ kind: labelKind(m[1] as string), num: m[2] as string, text: null });
      } else if (headings.length > 0 && headings[headings.length - 1]?.text === null) {
        (headings[headings.length - 1] as Heading).text = b;
      } else {
        bare.push(b);
      }
    }
    flushBare(headings, bare, a);
    a.blocks = a.blocks.slice(0, start);
    next.headingsBefore = headings;
    for (const h of headings) {
      if (h.text === null && h.kind === "section") {
        log.defect(
          "heading_text_missing",
          `art_${next.num}`,
          `${h.kind} ${h.num} has no heading text in the source`,
        );
      }
      const label = h.num ? `${h.kind} ${h.num}` : `${h.kind} heading`;
      log.repair(
        "heading_moved",
        `art_${next.num}`,
        `${label} "${h.text ?? ""}" moved from the end of Article ${a.num}`,
      );
    }
  }
}

/**
 * Unlabelled lines before any label are the heading of the chapter the next article opens; the scraper
 * stamped that chapter's number on the article that carries the heading.
 */
function flushBare(headings: Heading[], bare: string[], carrier: CleanArticle): void {
  if (bare.length === 0) return;
  headings.push({ kind: "chapter", num: carrier.chapterField, text: bare.join(" — ") });
}

function labelKind(label: string): Heading["kind"] {
  const l = label.toLowerCase();
  return l === "title" ? "title" : l === "part" ? "part" : l === "chapter" ? "chapter" : "section";
}

/** "PROHIBITED AI PRACTICES": chapter headings printed in capitals. */
function isCapitalHeading(b: string): boolean {
  return /^[A-Z][A-Z0-9 ,'’()–—-]{3,}$/u.test(b) && /[A-Z]{3}/u.test(b);
}

function isHeadingLike(b: string): boolean {
  if (STRUCT_LABEL.test(b)) return true;
  if (b.length > 200 || /[.;:,]$/u.test(b)) return false;
  if (/^\(|^\d+\.|^[—–]/u.test(b)) return false;
  return /^[A-Z]/u.test(b);
}
