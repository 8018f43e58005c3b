/**
 * How a unit is named outside acquis: the citation a lawyer writes ("Article 33(1) GDPR") and the
 * ELI subdivision IRI (".../eli/reg/2016/679/art_33/par_1/oj").
 */
import type { ActCanon } from "./model.ts";
import { ordinal } from "./text.ts";

/** ELI subdivision codes for the eId segments acquis uses (docs/formats.md). */
const ELI_CODE: Record<string, string> = {
  title: "tit",
  part: "prt",
  chp: "cpt",
  sec: "sct",
  art: "art",
  para: "par",
  subpara: "sbp",
  point: "pnt",
  indent: "idt",
  rec: "rct",
  anx: "anx",
};

export function workIri(act: ActCanon): string {
  if (act.eli) return act.eli;
  // Acts without an EU ELI (UN regulations published in the OJ) are named by their Cellar CELEX IRI.
  return `http://publications.europa.eu/resource/celex/${act.celex}`;
}

export function expressionIri(act: ActCanon): string {
  const lang = act.language === "en" ? "eng" : act.language;
  return `${workIri(act)}/${lang}`;
}

export function subdivisionIri(act: ActCanon, eid: string): string {
  const path = eid
    .split("__")
    .map((seg) => {
      const i = seg.indexOf("_");
      const code = ELI_CODE[seg.slice(0, i)] ?? seg.slice(0, i);
      return `${code}_${seg.slice(i + 1)}`;
    })
    .join("/");
  const work = workIri(act);
  if (work.endsWith("/oj")) return `${work.slice(0, -3)}/${path}/oj`;
  return `${work}#${path}`;
}

/**
 * "Article 33(1)(a)", "Article 113, third paragraph, point (a)", "Recital 83", "Annex III",
 * "Chapter IV, Section 2", followed by the act's short name. Parser 5 separates a Title from the Part
 * it sits in ("Part II, Title I"; earlier parsers wrote "Part IITitle I", and their releases keep it).
 */
export function citationLabel(eid: string, shortName: string, parser = 1): string {
  const segs = eid.split("__").map((s) => {
    const i = s.indexOf("_");
    return { kind: s.slice(0, i), num: s.slice(i + 1) };
  });
  const parts: string[] = [];
  let inParagraph = false;
  let compact = true;
  for (const { kind, num } of segs) {
    switch (kind) {
      case "title":
        parts.push(parser >= 5 && parts.length ? `, Title ${num}` : `Title ${num}`);
        break;
      case "part":
        parts.push(parser >= 5 && parts.length ? `, Part ${num}` : `Part ${num}`);
        break;
      case "chp":
        parts.push(parts.length ? `, Chapter ${num}` : `Chapter ${num}`);
        break;
      case "sec":
        parts.push(`, Section ${num}`);
        break;
      case "rec":
        parts.push(`Recital ${num}`);
        break;
      case "anx":
        parts.push(`Annex ${num}`);
        break;
      case "art":
        parts.push(`Article ${num}`);
        break;
      case "para":
        // UN regulations cite their dotted paragraphs by number: "paragraph 7.2.2.1".
        parts.push(num.includes(".") ? `, paragraph ${num}` : `(${num})`);
        inParagraph = true;
        break;
      case "subpara":
        parts.push(`, ${ordinal(Number(num))} ${inParagraph ? "subparagraph" : "paragraph"}`);
        compact = false;
        break;
      case "point":
        parts.push(compact ? `(${num})` : `, point (${num})`);
        break;
      case "indent":
        parts.push(`, ${ordinal(Number(num))} indent`);
        compact = false;
        break;
      default:
        parts.push(` ${kind} ${num}`);
    }
  }
  return `${parts.join("").replace(/^, /u, "")} ${shortName}`;
}
