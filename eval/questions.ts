/**
 * The evaluation questions: eval/questions/*.yaml, each a YAML list of
 * `{id, type, query, gold: [node...], why, out_of_scope?: true, persona?}` where a node is `<act id>/<eId>` of
 * the release. Everything is checked against the loaded release before any system runs, and the first
 * problem fails the run naming the file and the question: a score over a mistyped gold node is a score
 * of the typo. Files are read in sorted order and questions in file order, so every run sees the same
 * sequence.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";

export const TYPES = [
  "paraphrase",
  "keyword",
  "citation",
  "definition",
  "cross-act",
  "out-of-scope",
] as const;
export type QuestionType = (typeof TYPES)[number];

export interface Question {
  id: string;
  type: QuestionType;
  query: string;
  /** Unit nodes, `<act id>/<eId>`; empty exactly for out-of-scope questions. */
  gold: string[];
  why: string;
  out_of_scope: boolean;
  /** Who asks (the independent set): dpo, citizen, bank-ict-risk, payments, crypto, … */
  persona?: string;
  /** The file it came from, for messages. */
  file: string;
}

export class QuestionError extends Error {}

const FIELDS = new Set(["id", "type", "query", "gold", "why", "out_of_scope", "persona"]);

/** What validation needs of the release: its name for messages, and which nodes it holds. */
export interface ReleaseNodes {
  name: string;
  has(node: string): boolean;
}

/** The `*.yaml` files of a question folder, sorted so every run reads them in one order. */
export function yamlFiles(dir: string, what: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(".yaml"))
      .sort();
  } catch {
    throw new QuestionError(`${dir}: cannot read the ${what} folder`);
  }
}

/** Load every `*.yaml` under `dir` and validate each question against `release`; throws QuestionError. */
export function loadQuestions(dir: string, release: ReleaseNodes): Question[] {
  const names = yamlFiles(dir, "question");
  if (names.length === 0) throw new QuestionError(`${dir}: no *.yaml question files`);
  const out: Question[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const path = join(dir, name);
    const shown = relative(process.cwd(), path) || path;
    for (const q of parseFile(shown, readFileSync(path, "utf8"), release)) {
      const first = seen.get(q.id);
      if (first !== undefined)
        throw new QuestionError(`${shown}: question "${q.id}": duplicate id (first in ${first})`);
      seen.set(q.id, shown);
      out.push(q);
    }
  }
  return out;
}

/** One file's questions, validated; `file` names it in messages. Exported for tests. */
export function parseFile(file: string, text: string, release: ReleaseNodes): Question[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new QuestionError(`${file}: not valid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) throw new QuestionError(`${file}: must be a YAML list of questions`);
  return doc.map((item: unknown, i: number) => question(file, i, item, release));
}

function question(file: string, index: number, item: unknown, release: ReleaseNodes): Question {
  if (item === null || typeof item !== "object" || Array.isArray(item))
    throw new QuestionError(`${file}: item ${index + 1}: must be a mapping`);
  const q = item as Record<string, unknown>;
  const id = q.id;
  if (typeof id !== "string" || id.trim() === "")
    throw new QuestionError(`${file}: item ${index + 1}: id must be a non-empty string`);
  const fail = (msg: string) => new QuestionError(`${file}: question "${id}": ${msg}`);
  for (const key of Object.keys(q))
    if (!FIELDS.has(key)) throw fail(`unknown field "${key}" (allowed: ${[...FIELDS].join(", ")})`);
  if (!(TYPES as readonly unknown[]).includes(q.type))
    throw fail(`unknown type ${JSON.stringify(q.type)} (one of ${TYPES.join(", ")})`);
  const type = q.type as QuestionType;
  if (typeof q.query !== "string" || q.query.trim() === "") throw fail("query must be a non-empty string");
  if (typeof q.why !== "string" || q.why.trim() === "") throw fail("why must be a non-empty string");
  const gold = q.gold ?? [];
  if (!Array.isArray(gold) || gold.some((g) => typeof g !== "string"))
    throw fail("gold must be a list of nodes (<act id>/<eId>)");
  if (q.out_of_scope !== undefined && q.out_of_scope !== true)
    throw fail("out_of_scope, when given, must be true");
  const oos = q.out_of_scope === true;
  if (type === "out-of-scope") {
    if (!oos) throw fail("an out-of-scope question needs out_of_scope: true");
    if (gold.length > 0) throw fail("an out-of-scope question has no gold");
  } else {
    if (oos) throw fail(`out_of_scope: true on a question of type ${type}`);
    if (gold.length === 0) throw fail("an in-scope question needs at least one gold node");
  }
  for (const node of gold as string[])
    if (!release.has(node)) throw fail(`gold node "${node}" is not in ${release.name}`);
  if (q.persona !== undefined && (typeof q.persona !== "string" || q.persona === ""))
    throw fail("persona, when given, must be a non-empty string");
  return {
    id,
    type,
    query: q.query,
    gold: gold as string[],
    why: q.why,
    out_of_scope: oos,
    file,
    ...(q.persona !== undefined ? { persona: q.persona as string } : {}),
  };
}
