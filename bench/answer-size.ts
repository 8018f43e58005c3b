/**
 * Answer sizes: every question of the independent set and of the older set, asked as POST /v1/answer
 * asks it (the release booted as `acquis serve` boots it), compact (the default) and with detail full.
 * The budget (src/engine/budget.ts) is 24 KB median and 48 KB max for compact answers.
 *
 *   node bench/answer-size.ts
 */
import { join } from "node:path";
import { loadQuestions } from "../eval/questions.ts";
import { AS_OF, bootOurs } from "../eval/systems.ts";
import { answer } from "../src/engine/answer.ts";
import { newestBuilt } from "../src/release/releases.ts";

const root = join(import.meta.dirname, "..");
const tag = newestBuilt(root, "eu")?.tag;
if (!tag) throw new Error("no eu release built: run `npx acquis build eu` first");
const { engine, scope } = bootOurs(root, join(root, "regimes", "eu", "releases", tag));
const at = (xs: number[], p: number) => xs[Math.floor((xs.length - 1) * p)] as number;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

process.stdout.write(
  `eu@${tag}, as of ${AS_OF}\n\n| set | detail | questions | median | p90 | max | answers cut |\n|---|---|---|---|---|---|---|\n`,
);
for (const set of ["independent", "questions"]) {
  const questions = loadQuestions(join(root, "eval", set), {
    name: "eu",
    has: (n) => engine.release.byNode.has(n),
  });
  for (const detail of ["compact", "full"] as const) {
    const sizes: number[] = [];
    let cut = 0;
    for (const q of questions) {
      const r = answer(engine, scope, { query: q.query, detail }, AS_OF) as {
        omitted?: Record<string, number>;
      };
      sizes.push(Buffer.byteLength(JSON.stringify(r)));
      if (r.omitted && Object.keys(r.omitted).length > 0) cut++;
    }
    sizes.sort((a, b) => a - b);
    process.stdout.write(
      `| ${set} | ${detail} | ${sizes.length} | ${kb(at(sizes, 0.5))} | ${kb(at(sizes, 0.9))} | ${kb(sizes.at(-1) as number)} | ${cut} |\n`,
    );
  }
}
