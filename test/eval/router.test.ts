/**
 * The act router is trained on the dev split alone and the committed counts are what training writes:
 * a held-out question cannot leak into it, and a change to the questions or the analyser that would
 * change the router fails here until `node eval/train-router.ts` is run and its result committed.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { loadQuestions } from "../../eval/questions.ts";
import { splitOf } from "../../eval/split.ts";
import { bootOurs } from "../../eval/systems.ts";
import { routerJson, TRAINING_SET, trainRouter } from "../../eval/train-router.ts";
import { releaseDirectory } from "../../src/serve/boot.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("the act router's canon", () => {
  const { engine, scope } = bootOurs(ROOT, releaseDirectory({ root: ROOT }));
  const trained = trainRouter(engine, scope, join(ROOT, TRAINING_SET));

  test("regimes/eu/act-router.json is exactly what eval/train-router.ts writes", () => {
    const committed = readFileSync(join(ROOT, "regimes", "eu", "act-router.json"), "utf8");
    assert.equal(committed, routerJson(trained), "run: node eval/train-router.ts");
  });

  test("it counts dev questions only", () => {
    const all = loadQuestions(join(ROOT, TRAINING_SET), {
      name: "eu",
      has: (n) => engine.release.byNode.has(n),
    }).filter((q) => !q.out_of_scope);
    const dev = all.filter((q) => splitOf(q.id) === "dev");
    assert.ok(dev.length < all.length, "the set has a held-out split");
    const counted = Object.values(trained.acts).reduce((n, a) => n + a.questions, 0);
    const goldActs = (q: (typeof all)[number]) => new Set(q.gold.map((g) => g.slice(0, g.indexOf("/")))).size;
    assert.equal(
      counted,
      dev.reduce((n, q) => n + goldActs(q), 0),
    );
    assert.match(trained.trained_on, new RegExp(`${dev.length} in-scope questions`, "u"));
  });

  test("the release serves with the router it was built with", () => {
    assert.ok(engine.router, "the built eu release carries the router");
    assert.deepEqual(engine.release.index.file.router, trained);
  });
});
