/**
 * The engine's own cost of an answer, without HTTP or the payload cache: every question of
 * eval/questions put to `answer()` of the checkout at `[root]` (default this one) once to warm up, then
 * five times, timed one by one, with the share spent in BM25 scoring (`ChunkIndex.score`, timed by
 * wrapping it). `node bench/answer-cost.ts [root]`; pointing it at a worktree of an earlier commit (with
 * its release built) gives that engine's cost on the same questions.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";

const root = resolve(process.argv[2] ?? join(import.meta.dirname, ".."));
const questions = join(import.meta.dirname, "..", "eval", "questions");
const { answer } = await import(join(root, "src", "engine", "answer.ts"));
const { bootEngine, releaseDirectory, readDisclaimer } = await import(join(root, "src", "serve", "boot.ts"));
const { trustOptions } = await import(join(root, "src", "cli", "trust-options.ts"));

const { engine, scope } = bootEngine({
  dir: releaseDirectory({ root }),
  root,
  trust: trustOptions({ root, key: [], logKey: [] }),
  disclaimer: readDisclaimer(root),
});
const queries: string[] = [];
for (const f of readdirSync(questions)
  .filter((n) => n.endsWith(".yaml"))
  .sort())
  for (const q of parse(readFileSync(join(questions, f), "utf8")) as { query: string }[])
    queries.push(q.query);

const index = engine.release.index;
const score = index.score.bind(index);
let scoring = 0;
index.score = (...args: Parameters<typeof score>) => {
  const t0 = performance.now();
  const out = score(...args);
  scoring += performance.now() - t0;
  return out;
};
const ask = (query: string) => answer(engine, scope, { query }, "2026-11-22");
for (const q of queries) ask(q);
scoring = 0;
const ms: number[] = [];
for (let pass = 0; pass < 5; pass++) {
  for (const q of queries) {
    const t0 = performance.now();
    ask(q);
    ms.push(performance.now() - t0);
  }
}
ms.sort((a, b) => a - b);
const at = (p: number) =>
  Math.round((ms[Math.min(ms.length - 1, Math.floor(ms.length * p))] as number) * 100) / 100;
const mean = Math.round((ms.reduce((a, b) => a + b, 0) / ms.length) * 100) / 100;
process.stdout.write(
  `${JSON.stringify({ root, questions: queries.length, answers: ms.length, mean_ms: mean, p50_ms: at(0.5), p99_ms: at(0.99), scoring_mean_ms: Math.round((scoring / ms.length) * 1000) / 1000 })}\n`,
);
