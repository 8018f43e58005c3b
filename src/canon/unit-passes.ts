/**
 * The passes over an act's units once they are emitted: definitions marked, duplicate nodes and empty
 * points reported, superscripts restored, and each unit's full text composed from its own and its
 * children's (docs/formats.md). Each reports what it finds to the quality log; none drops a unit.
 */
import type { Unit, UnitKind } from "./model.ts";
import type { QualityLog } from "./quality.ts";
import type { SourceAct } from "./source.ts";
import { clip } from "./text.ts";

/** Two units with one node make every citation of it ambiguous: the parser must never emit them. */
export function reportDuplicateNodes(units: Unit[], log: QualityLog): void {
  const seen = new Map<string, number>();
  for (const u of units) seen.set(u.eid, (seen.get(u.eid) ?? 0) + 1);
  for (const [eid, n] of seen)
    if (n > 1)
      log.defect("duplicate_node", eid, `${n} units share the eId ${eid}; a citation of it is ambiguous`);
}

/** A numbered definition is its own unit (`art_4__point_7`) carrying the term it defines. */
export function markDefinitions(src: SourceAct, units: Unit[], log: QualityLog): void {
  const byArticle = new Map<string, Unit[]>();
  for (const u of units) {
    // Numbered definitions are points; UN regulations number theirs as paragraphs ("2.1.").
    if (u.kind !== "point" && u.kind !== "paragraph") continue;
    const art = u.eid.split("__")[0] as string;
    const m = /^[‘'"“]([^’'"”]{1,150})[’'"”]\s+(?:\([^)]*\)\s+)?(?:means|shall mean|is|refers to)\b/u.exec(
      u.own_text,
    );
    if (!m) continue;
    u.defines = m[1] as string;
    const list = byArticle.get(art) ?? [];
    list.push(u);
    byArticle.set(art, list);
  }
  // The source's list lowercases terms ("ict risk") and folds abbreviations in ("… testing (tlpt)").
  const key = (t: string) =>
    t
      .toLowerCase()
      .replace(/[\u2010-\u2013]/gu, "-")
      .replace(/\s*\([^)]*\)\s*$/u, "")
      .trim();
  for (const d of src.definitions ?? []) {
    const found = byArticle.get(`art_${d.article}`)?.some((u) => key(u.defines as string) === key(d.term));
    if (!found) {
      log.defect(
        "definition_not_in_text",
        `art_${d.article}`,
        `source lists "${clip(d.term)}" but no point defines it`,
      );
    }
  }
}

export function reportEmptyPoints(units: Unit[], log: QualityLog, parser: number): void {
  const parents = new Set(units.map((u) => u.parent));
  for (const u of units) {
    if ((u.kind === "point" || u.kind === "indent") && u.own_text === "" && !parents.has(u.node)) {
      log.defect("empty_point", u.eid, `${u.citation} has no text in the source`);
      if (parser >= 4)
        u.lost_in_source = `the source prints the label of ${u.citation} with no text after it`;
    }
  }
}

/**
 * The scraper flattened superscripts: "10^25 floating point operations" reads "1025". A power of ten is
 * provable where the sentence measures computation in floating point operations and compares against
 * a "10NN" no real count would be written as; other suspicious numbers there are reported, not changed.
 */
export function restoreSuperscripts(units: Unit[], log: QualityLog): void {
  for (const u of units) {
    if (!/floating[- ]point operation/iu.test(u.own_text)) continue;
    u.own_text = u.own_text.replace(
      /\b(than|exceeding|exceeds|of|above) 10(1\d|2\d)\b(?!\s*\/)/gu,
      (_m, word, exp) => {
        log.repair(
          "superscript_restored",
          u.eid,
          `"${word} 10${exp}" restored as "${word} 10^${exp}" (floating point operations)`,
        );
        return `${word} 10^${exp}`;
      },
    );
    for (const m of u.own_text.matchAll(/\b10[0-9]{2}\b/gu)) {
      log.defect(
        "superscript_suspect",
        u.eid,
        `"${m[0]}" near a floating-point threshold may be a flattened power of ten`,
      );
    }
  }
}

const PREFIX: Partial<Record<UnitKind, (u: Unit) => string>> = {
  paragraph: (u) => `${u.num}. `,
  point: (u) => `(${u.num}) `,
  indent: () => "— ",
};

/**
 * Fill `text` (own text plus descendants in reading order) from `own_text` and the parent links.
 * Releases store only `own_text`; the loader calls this too, so the two never disagree.
 */
export function composeText(units: Unit[]): void {
  const children = new Map<string, Unit[]>();
  for (const u of units) {
    if (u.parent === null) continue;
    const list = children.get(u.parent) ?? [];
    list.push(u);
    children.set(u.parent, list);
  }
  const done = new Set<string>();
  const fill = (u: Unit): string => {
    if (done.has(u.node)) return u.text;
    const parts = u.own_text === "" ? [] : [u.own_text];
    for (const c of children.get(u.node) ?? []) {
      const t = fill(c);
      if (t !== "" || c.kind === "point") parts.push(`${PREFIX[c.kind]?.(c) ?? ""}${t}`.trimEnd());
    }
    u.text = parts.join("\n\n");
    done.add(u.node);
    return u.text;
  };
  for (const u of units) fill(u);
}
