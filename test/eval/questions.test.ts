/**
 * The evaluation questions (eval/questions/*.yaml) against the built eu release: they load and
 * validate, there are enough of them across enough acts and every type, and the fixed split holds out
 * about a third. Also: each validation rule fails naming the file and the question.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { loadQuestions, parseFile, type Question, type ReleaseNodes, TYPES } from "../../eval/questions.ts";
import { splitOf } from "../../eval/split.ts";
import { type StoredCorpus, verifyArtifacts } from "../../src/release/load.ts";
import { newestBuilt, releaseDir } from "../../src/release/releases.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * The release's nodes from its digest-checked corpus.json alone: validating questions needs no engine,
 * so this test does not depend on the index format of the moment.
 */
function euNodes(): ReleaseNodes & { tag: string } {
  const newest = newestBuilt(ROOT, "eu");
  assert.ok(newest, "an eu release is built (npm test builds it first)");
  const { files } = verifyArtifacts(releaseDir(ROOT, "eu", newest.tag));
  const corpus = JSON.parse((files.get("corpus.json") as Buffer).toString("utf8")) as StoredCorpus;
  const nodes = new Set(corpus.units.map((u) => u.node));
  return { name: `eu@${newest.tag}`, tag: newest.tag, has: (n) => nodes.has(n) };
}

describe("the evaluation questions", () => {
  let release: ReturnType<typeof euNodes>;
  let questions: Question[];

  before(() => {
    release = euNodes();
    questions = loadQuestions(join(ROOT, "eval", "questions"), release);
  });

  test("there are at least 120, with gold in at least 20 acts", () => {
    assert.ok(questions.length >= 120, `${questions.length} questions`);
    const acts = new Set(questions.flatMap((q) => q.gold.map((g) => g.slice(0, g.indexOf("/")))));
    assert.ok(acts.size >= 20, `gold in ${acts.size} acts: ${[...acts].join(", ")}`);
  });

  test("every type is present", () => {
    const types = new Set(questions.map((q) => q.type));
    for (const t of TYPES) assert.ok(types.has(t), `no question of type ${t}`);
  });

  test("the held-out share is between 25 % and 42 %", () => {
    const held = questions.filter((q) => splitOf(q.id) === "held-out").length;
    const share = held / questions.length;
    assert.ok(share >= 0.25 && share <= 0.42, `held out ${held} of ${questions.length}`);
  });
});

describe("question validation", () => {
  const release: ReleaseNodes = { name: "eu@test", has: (n) => n === "gdpr/art_33" };
  const item = (extra: string) =>
    `- id: q1\n  type: paraphrase\n  query: breach notice\n  gold: [gdpr/art_33]\n  why: because\n${extra}`;
  const rejects = (text: string, pattern: RegExp) =>
    assert.throws(() => parseFile("f.yaml", text, release), pattern);

  test("a valid question loads", () => {
    const [q] = parseFile("f.yaml", item(""), release);
    assert.deepEqual(q, {
      id: "q1",
      type: "paraphrase",
      query: "breach notice",
      gold: ["gdpr/art_33"],
      why: "because",
      out_of_scope: false,
      file: "f.yaml",
    });
  });

  test("each rule names the file and the question", () => {
    rejects(item("  lang: en\n"), /f\.yaml: question "q1": unknown field "lang"/u);
    rejects(item("").replace("paraphrase", "fuzzy"), /f\.yaml: question "q1": unknown type "fuzzy"/u);
    rejects(
      item("").replace("gdpr/art_33", "gdpr/art_999"),
      /"q1": gold node "gdpr\/art_999" is not in eu@test/u,
    );
    rejects(item("").replace("[gdpr/art_33]", "[]"), /"q1": an in-scope question needs at least one gold/u);
    rejects(item("  out_of_scope: true\n"), /"q1": out_of_scope: true on a question of type paraphrase/u);
    const oos = item("").replace("paraphrase", "out-of-scope");
    rejects(`${oos}  out_of_scope: true\n`, /"q1": an out-of-scope question has no gold/u);
    rejects(oos.replace("[gdpr/art_33]", "[]"), /"q1": an out-of-scope question needs out_of_scope: true/u);
  });

  test("a duplicate id across files names the second file and the first", () => {
    const dir = mkdtempSync(join(tmpdir(), "acquis-questions-"));
    writeFileSync(join(dir, "a.yaml"), item(""));
    writeFileSync(join(dir, "b.yaml"), item(""));
    assert.throws(
      () => loadQuestions(dir, release),
      /b\.yaml: question "q1": duplicate id \(first in .*a\.yaml\)/u,
    );
  });
});
