/**
 * The release's defect checks: each reads the compiled units (what a user is served), not the parser's
 * own account of what it did, so a defect the parser neither repaired nor logged is still counted.
 * `quality.json` lists every check with its count and first examples; the build refuses a release whose
 * count for any check exceeds the regime's committed baseline (quality-baseline.ts).
 */
import { isoDate, WRITTEN_DATE } from "./dates.ts";
import type { Act, Unit } from "./model.ts";
import { looksLikeTitle } from "./source.ts";

export type CheckClass = "structure" | "noise" | "dates";

export interface Finding {
  node: string;
  detail: string;
}

export interface Check {
  id: string;
  class: CheckClass;
  /** What a finding means, in a sentence a reader of quality.json understands. */
  about: string;
  find(corpus: CheckedCorpus): Finding[];
}

export interface CheckedCorpus {
  acts: Act[];
  units: Unit[];
}

export interface CheckResult {
  check: string;
  class: CheckClass;
  about: string;
  count: number;
  /** The first findings in corpus order (at most EXAMPLES). */
  examples: Finding[];
}

export const EXAMPLES = 5;

const STRUCTURE_KINDS = new Set(["part", "title", "chapter", "section"]);
const MARKER = /[▼►◄]/u;
const SCRIPT =
  /\bfunction\s*\(\s*\)|\bwindow\.\w|\bdocument\.(?:getElement|querySelector|write|cookie)|\bvar\s+\w+\s*=\s*|\bjQuery\b|<\/?script\b/u;
const ISSN = /\bISSN\s+\d{4}-\d{3}[\dX]\b/u;
const ELI_LINE = /(?:^|\n)\s*ELI:\s*https?:\/\//u;
/** An Official Journal reference standing alone, not in the parentheses of a citation: a footnote's body. */
const OJ_FOOTNOTE = /(?<!\(\s?)\bOJ [LC] \d+(?: [A-Z])?, \d{1,2}\.\d{1,2}\.\d{4}, p\. \d+/u;
/** "(2) Regulation (EC) No 1907/2006 of … (OJ L 396, …)." on a line of its own: the body of a footnote. */
const FOOTNOTE_LINE =
  /(?:^|\n)\(\d{1,2}\) (?:(?:Council|Commission) )?(?:Regulation|Directive|Decision|Recommendation|Implementing|Delegated)\b[^\n]*\(\s?OJ [LC][^)\n]*\)\.?(?=\n|$)/u;
/** "(1) OJ L …" or "OJ L …" standing as a whole unit: a footnote parsed as a provision. */
const FOOTNOTE_UNIT = /^\s*(?:\(\d+\)\s*)?OJ [LC] \d+/u;
const ENACTING = /\bHA(?:S|VE) ADOPTED TH(?:IS|E PRESENT)\b/u;
const DATE_LEAD = new RegExp(`^(From|Until|As from) ${WRITTEN_DATE}(?: to ${WRITTEN_DATE})?,`, "u");

const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function perUnit(test: (u: Unit) => string | null): (c: CheckedCorpus) => Finding[] {
  return (c) => {
    const out: Finding[] = [];
    for (const u of c.units) {
      const detail = test(u);
      if (detail !== null) out.push({ node: u.node, detail });
    }
    return out;
  };
}

function childrenOf(units: Unit[]): Map<string | null, Unit[]> {
  const by = new Map<string | null, Unit[]>();
  for (const u of units) {
    const list = by.get(u.parent) ?? [];
    list.push(u);
    by.set(u.parent, list);
  }
  return by;
}

/** Numbers that skip (…14, 16…) or do not start at 1, among plain numeric siblings. */
function numberingGaps(nums: number[]): string | null {
  if (nums.length === 0) return null;
  if (nums[0] !== 1) return `numbering starts at ${nums[0]}`;
  for (let i = 1; i < nums.length; i++) {
    const a = nums[i - 1] as number;
    const b = nums[i] as number;
    if (b !== a + 1) return `${a} is followed by ${b}`;
  }
  return null;
}

const plainNumbers = (units: Unit[]) =>
  units.filter((u) => u.num !== null && /^\d+$/u.test(u.num)).map((u) => Number(u.num));

export const CHECKS: readonly Check[] = [
  {
    id: "duplicate_node",
    class: "structure",
    about: "two units share one node id, so a citation of it is ambiguous",
    find: (c) => {
      const seen = new Map<string, number>();
      for (const u of c.units) seen.set(u.node, (seen.get(u.node) ?? 0) + 1);
      return [...seen].filter(([, n]) => n > 1).map(([node, n]) => ({ node, detail: `${n} units` }));
    },
  },
  {
    id: "title_in_text",
    class: "structure",
    about: "an article's title stands as (the start of) its text, so its subdivisions are numbered one off",
    find: perUnit((u) => {
      if (u.kind !== "article") return null;
      if (u.heading && (u.own_text === u.heading || u.own_text.startsWith(`${u.heading}\n`)))
        return `text begins with the title "${clip(u.heading)}"`;
      // No title, and a first line that reads as one: the title stood in the text and took its slot.
      const first = u.own_text.split("\n")[0] ?? "";
      return u.heading === null && first !== "" && looksLikeTitle(first)
        ? `untitled; its text is "${clip(first)}"`
        : null;
    }),
  },
  {
    id: "article_outside_structure",
    class: "structure",
    about: "an article sits in no Part, Title or Chapter of an act that has them (a lost first heading)",
    find: (c) => {
      const structured = new Set(c.units.filter((u) => STRUCTURE_KINDS.has(u.kind)).map((u) => u.act));
      return c.units
        .filter((u) => u.kind === "article" && u.parent === null && structured.has(u.act))
        .map((u) => ({ node: u.node, detail: `${u.citation} has no parent` }));
    },
  },
  {
    id: "article_numbering_gap",
    class: "structure",
    about: "an act's articles skip a number: an article is missing from the release",
    find: (c) => {
      const byAct = new Map<string, Unit[]>();
      for (const u of c.units) if (u.kind === "article") byAct.set(u.act, [...(byAct.get(u.act) ?? []), u]);
      const out: Finding[] = [];
      for (const [act, arts] of byAct) {
        const nums = plainNumbers(arts);
        for (let i = 1; i < nums.length; i++)
          if ((nums[i] as number) > (nums[i - 1] as number) + 1)
            out.push({
              node: `${act}/art_${(nums[i - 1] as number) + 1}`,
              detail: `no article between ${nums[i - 1]} and ${nums[i]}`,
            });
      }
      return out;
    },
  },
  {
    id: "paragraph_numbering_gap",
    class: "structure",
    about: "an article's numbered paragraphs do not run 1, 2, 3…: a paragraph number was lost or misread",
    find: (c) => {
      const out: Finding[] = [];
      for (const [parent, kids] of childrenOf(c.units)) {
        if (parent === null) continue;
        const gap = numberingGaps(plainNumbers(kids.filter((k) => k.kind === "paragraph")));
        if (gap) out.push({ node: parent, detail: `paragraph ${gap}` });
      }
      return out;
    },
  },
  {
    id: "lost_in_source",
    class: "structure",
    about:
      "the source lost a unit's text or heading; the release keeps the unit (so citations resolve) without them",
    find: perUnit((u) => (u.lost_in_source ? u.lost_in_source : null)),
  },
  {
    id: "consolidation_marker",
    class: "noise",
    about: "a consolidated text's amendment marker (▼M2, ►M2, ◄) stands in a heading or text",
    find: perUnit((u) => {
      const where = MARKER.test(u.heading ?? "") ? u.heading : MARKER.test(u.own_text) ? u.own_text : null;
      return where === null ? null : `"${clip(where)}"`;
    }),
  },
  {
    id: "enacting_formula_in_recital",
    class: "structure",
    about: 'the enacting formula ("HAS ADOPTED THIS REGULATION") is part of a recital\'s text',
    find: perUnit((u) =>
      u.kind === "recital" && ENACTING.test(u.own_text) ? "recital holds the enacting formula" : null,
    ),
  },
  {
    id: "script_in_text",
    class: "noise",
    about: "website code (JavaScript) in a unit's text",
    find: perUnit((u) => {
      const m = SCRIPT.exec(u.own_text);
      return m ? `"${clip(u.own_text.slice(Math.max(0, m.index - 20), m.index + 40))}"` : null;
    }),
  },
  {
    id: "page_furniture_in_text",
    class: "noise",
    about: "an ISSN or ELI line of the web page in a unit's text",
    find: perUnit((u) => (ISSN.test(u.own_text) || ELI_LINE.test(u.own_text) ? "ISSN or ELI line" : null)),
  },
  {
    id: "footnote_as_unit",
    class: "noise",
    about: "an Official Journal footnote parsed as a provision of its own",
    find: perUnit((u) => (FOOTNOTE_UNIT.test(u.own_text) ? `"${clip(u.own_text)}"` : null)),
  },
  {
    id: "footnote_in_text",
    class: "noise",
    about: "an Official Journal footnote's body inside a unit's text",
    find: perUnit((u) => {
      if (FOOTNOTE_UNIT.test(u.own_text)) return null;
      const m = OJ_FOOTNOTE.exec(u.own_text) ?? FOOTNOTE_LINE.exec(u.own_text);
      return m ? `"${clip(m[0].trim())}"` : null;
    }),
  },
  {
    id: "date_in_text_unapplied",
    class: "dates",
    about: "a provision opens with the date it applies from or until, and its validity says otherwise",
    find: perUnit((u) => {
      const m = DATE_LEAD.exec(u.own_text);
      if (!m) return null;
      const date = isoDate(m[2] as string, m[3] as string, m[4] as string);
      if (m[1] === "Until") return u.valid_to !== null ? null : `"${m[0]}" but no valid_to`;
      return u.valid_from >= date ? null : `"${m[0]}" but valid_from ${u.valid_from}`;
    }),
  },
];

export function runChecks(corpus: CheckedCorpus, checks: readonly Check[] = CHECKS): CheckResult[] {
  return checks.map((check) => {
    const found = check.find(corpus);
    return {
      check: check.id,
      class: check.class,
      about: check.about,
      count: found.length,
      examples: found.slice(0, EXAMPLES),
    };
  });
}
