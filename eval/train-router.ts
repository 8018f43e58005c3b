/**
 * `node eval/train-router.ts`: writes regimes/eu/act-router.json, the act router's counts, from the dev
 * split of eval/independent only. Held-out questions are never read into it: they are what the router
 * is measured on. Deterministic: the same questions and release give the same bytes (acts and terms
 * sorted), and test/eval/router.test.ts checks the committed file is what this writes.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Engine } from "../src/engine/context.ts";
import { readReferences } from "../src/engine/query/citations.ts";
import { unreadText } from "../src/engine/query/match.ts";
import type { ScopeReader } from "../src/engine/scope.ts";
import { ROUTER_FORMAT, type RouterFile } from "../src/search/act-router.ts";
import { releaseDirectory } from "../src/serve/boot.ts";
import { loadQuestions } from "./questions.ts";
import { SPLIT_RULE, splitOf } from "./split.ts";
import { bootOurs } from "./systems.ts";

/** Settings chosen by 5-fold cross-validation on the dev split (docs/retrieval.md, "Act router"). */
export const QUESTION_WEIGHT = 0.6;
export const SHARPNESS = 0.05;
export const TRAINING_SET = "eval/independent";

/** The router counts the dev questions of `dir` give, read as the engine reads a question. */
export function trainRouter(engine: Engine, scope: ScopeReader, dir: string): RouterFile {
  const questions = loadQuestions(dir, {
    name: `${engine.regime}@${engine.tag}`,
    has: (node) => engine.release.byNode.has(node),
  }).filter((q) => splitOf(q.id) === "dev" && !q.out_of_scope);
  const acts = new Map<string, { questions: number; terms: Map<string, number> }>();
  for (const q of questions) {
    const rest = unreadText(scope.read(q.query), readReferences(q.query));
    const terms = engine.release.index.analyser.terms(rest, { plain: true }).map(([t]) => t);
    for (const act of new Set(q.gold.map((g) => g.slice(0, g.indexOf("/"))))) {
      const a = acts.get(act) ?? { questions: 0, terms: new Map<string, number>() };
      acts.set(act, a);
      a.questions++;
      for (const t of terms) a.terms.set(t, (a.terms.get(t) ?? 0) + 1);
    }
  }
  const sorted = <T>(entries: Iterable<[string, T]>) =>
    Object.fromEntries([...entries].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)));
  return {
    format: ROUTER_FORMAT,
    trained_on: `${TRAINING_SET}, dev split only (${SPLIT_RULE}): ${questions.length} in-scope questions`,
    question_weight: QUESTION_WEIGHT,
    sharpness: SHARPNESS,
    acts: sorted([...acts].map(([id, a]) => [id, { questions: a.questions, terms: sorted(a.terms) }])),
  };
}

export function routerJson(r: RouterFile): string {
  return `${JSON.stringify(r, null, 1)}\n`;
}

if (import.meta.main) {
  const root = resolve(join(import.meta.dirname, ".."));
  const { engine, scope } = bootOurs(root, releaseDirectory({ root }));
  const out = join(root, "regimes", engine.regime, "act-router.json");
  const router = trainRouter(engine, scope, join(root, TRAINING_SET));
  writeFileSync(out, routerJson(router));
  process.stderr.write(`wrote ${out}: ${router.trained_on}\n`);
}
