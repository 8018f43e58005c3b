/**
 * Questions the release cannot answer (eval/unanswerable/*.yaml), each `{id, kind, query, why}` with kind
 * `nonsense` (keyboard noise, absurd premises, everyday non-legal questions) or `outside` (a real legal
 * question whose answer lies in no act of the corpus, its instrument unnamed). They measure saying no:
 * a system should return no match for them, and keep answering the in-scope questions it is run with.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { QuestionError, yamlFiles } from "./questions.ts";

export const KINDS = ["nonsense", "outside"] as const;
export type Kind = (typeof KINDS)[number];

export interface Unanswerable {
  id: string;
  kind: Kind;
  query: string;
  why: string;
}

const FIELDS = ["id", "kind", "query", "why"];

/** Every `*.yaml` under `dir`, validated; the first problem throws naming the file and the entry. */
export function loadUnanswerable(dir: string): Unanswerable[] {
  const names = yamlFiles(dir, "unanswerable-question");
  const out: Unanswerable[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const path = join(dir, name);
    const shown = relative(process.cwd(), path) || path;
    const doc: unknown = parse(readFileSync(path, "utf8"));
    if (!Array.isArray(doc)) throw new QuestionError(`${shown}: expected a YAML list of questions`);
    doc.forEach((entry: unknown, i) => {
      const at = `${shown}: entry ${i + 1}`;
      if (typeof entry !== "object" || entry === null) throw new QuestionError(`${at}: not a mapping`);
      const e = entry as Record<string, unknown>;
      for (const key of Object.keys(e))
        if (!FIELDS.includes(key))
          throw new QuestionError(`${at}: unknown field "${key}" (allowed: ${FIELDS.join(", ")})`);
      for (const key of FIELDS)
        if (typeof e[key] !== "string" || e[key] === "")
          throw new QuestionError(`${at}: "${key}" must be a non-empty string`);
      if (!(KINDS as readonly string[]).includes(e.kind as string))
        throw new QuestionError(`${at}: kind "${e.kind}" is not one of ${KINDS.join(", ")}`);
      if (seen.has(e.id as string)) throw new QuestionError(`${at}: duplicate id "${e.id}"`);
      seen.add(e.id as string);
      out.push(e as unknown as Unanswerable);
    });
  }
  if (out.length === 0) throw new QuestionError(`${dir}: no unanswerable questions`);
  return out;
}

/** One system's refusals on one split: how many of each kind it refused, and of the in-scope questions. */
export interface NoMatchRates {
  refused: Record<Kind, { refused: number; n: number }>;
  in_scope: { refused: number; n: number };
  /** Refusals that were right: unanswerable refused / all refusals (null when it refused nothing). */
  precision: number | null;
  /** Unanswerable questions refused / unanswerable questions. */
  recall: number | null;
}

export function noMatchRates(
  unanswerable: readonly { kind: Kind; refused: boolean }[],
  inScope: readonly boolean[],
): NoMatchRates {
  const refused = Object.fromEntries(
    KINDS.map((k) => {
      const these = unanswerable.filter((u) => u.kind === k);
      return [k, { refused: these.filter((u) => u.refused).length, n: these.length }];
    }),
  ) as NoMatchRates["refused"];
  const right = unanswerable.filter((u) => u.refused).length;
  const wrong = inScope.filter(Boolean).length;
  return {
    refused,
    in_scope: { refused: wrong, n: inScope.length },
    precision: right + wrong === 0 ? null : right / (right + wrong),
    recall: unanswerable.length === 0 ? null : right / unanswerable.length,
  };
}
