/**
 * `npm run eval`: retrieval quality of acquis beside two baselines, measured in the same run on the same
 * questions and the same release. Tables go to stdout, progress to stderr. Exits 0 whether or not the
 * targets are met (it measures, it does not gate), 1 when the questions are invalid or the release
 * does not load, 2 on a usage error.
 */
import { join, relative, resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { releaseDirectory } from "../src/serve/boot.ts";
import { bm25System } from "./baselines/bm25.ts";
import { fts5System } from "./baselines/fts5.ts";
import { articleOf, type Outcome, type Ranking, rankedArticles, scoreRanking, summarise } from "./metrics.ts";
import { loadQuestions, type Question, TYPES } from "./questions.ts";
import { checkTargets, type ReleaseHeader, renderSplit, type SplitResult } from "./report.ts";
import { SPLIT_RULE, type Split, splitOf } from "./split.ts";
import { AS_OF, acquisSystem, bootOurs, type System } from "./systems.ts";
import { loadUnanswerable, noMatchRates, type Unanswerable } from "./unanswerable.ts";

const IN_SCOPE_TYPES = TYPES.filter((t) => t !== "out-of-scope");
type SplitName = SplitResult["split"];

interface Options {
  split?: SplitName;
  failures?: boolean;
  json?: boolean;
  questions: string;
  unanswerable: string;
  release?: string;
  path?: string;
  root: string;
}

/** A misuse of the flags: exit 2, as commander does for its own usage errors. */
class UsageError extends Error {}

const say = (message: string) => process.stderr.write(`${message}\n`);

const program = new Command("eval")
  .description("Evaluate retrieval on eval/questions/*.yaml: acquis beside FTS5 and plain-BM25 baselines.")
  .addOption(
    new Option("--split <split>", "print only this split (default: dev, held-out and all)").choices([
      "dev",
      "held-out",
      "all",
    ]),
  )
  .option("--failures", "list the dev questions acquis misses at hit@5, with its top 3 articles")
  .option("--json", "print the whole result as JSON instead of tables")
  .option("--questions <dir>", "question folder", join(import.meta.dirname, "questions"))
  .option(
    "--unanswerable <dir>",
    "folder of questions the release cannot answer, for saying no",
    join(import.meta.dirname, "unanswerable"),
  )
  .option("--release <regime@tag>", "release to evaluate (default: the newest built eu release)")
  .option("--path <dir>", "evaluate the release in this directory instead")
  .option("--root <dir>", "repository root", join(import.meta.dirname, ".."))
  .exitOverride()
  .configureOutput({
    outputError: (str, write) => write(`eval: ${str.replace(/^error: /u, "").trimEnd()}\n`),
  })
  .addHelpText(
    "after",
    `
Systems (each returns up to 10 ranked items per question):
  acquis      answer() as POST /v1/answer runs it, matches 10, as of ${AS_OF}; ranked = sections.match;
              out of scope = status "out-of-scope"
  fts5        SQLite FTS5 (porter unicode61) bm25() over whole articles, recitals and annexes; the
              question's words quoted and OR-ed; out of scope = no row
  bm25-units  plain BM25 (k1 1.2, b 0.75) over each unit's heading + own text, Porter-stemmed, no stop
              words, no citation or act-name handling; out of scope = no match

Metrics, at article level: every ranked unit and every gold node is lifted to its nearest article,
recital or annex (itself if none); a ranking becomes its distinct articles in first-seen order.
Over in-scope questions, overall and per type:
  hit@1, hit@5   share of questions with a gold article among the first 1 / 5 ranked articles
  recall@10      mean share of a question's gold articles among the first 10 ranked articles
  MRR            mean of 1/rank of the first gold article within the first 10 (0 if none)
Over all questions: out-of-scope precision and recall of the system's "out of scope" calls against
the questions of type out-of-scope; 0/0 prints as n/a and fails a target.
Saying no, over the --unanswerable questions and the in-scope questions together: a system refuses a
question when it returns no match or calls it out of scope. No-match precision = unanswerable questions
refused / all refusals; recall = unanswerable questions refused / unanswerable questions.

Split: ${SPLIT_RULE}.
Fixed by the id alone, so adding questions never moves an existing one. Dev questions are for looking at
failures and tuning; held-out questions are looked at only to report, so --failures lists dev only and
--json carries per-question rows for dev only.

Targets checked per printed split (reported, never enforced; exit 0 either way): acquis beats both
baselines on every overall metric; hit@5 >= 0.90; MRR >= 0.75; citation hit@1 >= 0.98; out-of-scope
precision and recall >= 0.9; no-match precision >= 0.95.
`,
  );

/** One question with its side of the split and each system's article-level outcome. */
interface Asked {
  q: Question;
  side: Split;
  by: Record<string, Outcome>;
  refused: Record<string, boolean>;
}

/** A ranking that says no: no match, or the question called out of scope. */
const refuses = (r: Ranking) => r.outOfScope || r.units.length === 0;

/** One unanswerable question with its side of the split and, per system, whether it was refused. */
interface AskedUnanswerable {
  u: Unanswerable;
  side: Split;
  refused: Record<string, boolean>;
}

function askUnanswerable(
  questions: readonly Unanswerable[],
  systems: readonly System[],
): AskedUnanswerable[] {
  return questions.map((u) => ({
    u,
    side: splitOf(u.id),
    refused: Object.fromEntries(systems.map((s) => [s.name, refuses(s.rank(u.query))])),
  }));
}

/** Every question through every system. */
function ask(
  questions: readonly Question[],
  systems: readonly System[],
  toArticle: (node: string) => string,
): Asked[] {
  const asked: Asked[] = questions.map((q) => ({ q, side: splitOf(q.id), by: {}, refused: {} }));
  for (const s of systems) {
    const t0 = performance.now();
    for (const a of asked) {
      let ranking: Ranking;
      try {
        ranking = s.rank(a.q.query);
      } catch (e) {
        throw new Error(`${s.name} failed on question "${a.q.id}" (${a.q.file}): ${(e as Error).message}`);
      }
      a.by[s.name] = {
        type: a.q.type,
        outOfScope: a.q.out_of_scope,
        gold: [...new Set(a.q.gold.map(toArticle))],
        articles: rankedArticles(ranking.units, toArticle).slice(0, 10),
        predictedOutOfScope: ranking.outOfScope,
      };
      a.refused[s.name] = refuses(ranking);
    }
    say(`${s.name}: ${asked.length} questions in ${Math.round(performance.now() - t0)} ms`);
  }
  return asked;
}

const inSplit = (asked: readonly Asked[], split: SplitName) =>
  asked.filter((a) => split === "all" || a.side === split);

function splitResult(
  asked: readonly Asked[],
  unanswerable: readonly AskedUnanswerable[],
  split: SplitName,
  systems: readonly string[],
): SplitResult {
  const these = inSplit(asked, split);
  const cannot = unanswerable.filter((a) => split === "all" || a.side === split);
  const noMatch = Object.fromEntries(
    systems.map((n) => [
      n,
      noMatchRates(
        cannot.map((a) => ({ kind: a.u.kind, refused: a.refused[n] as boolean })),
        these.filter((a) => !a.q.out_of_scope).map((a) => a.refused[n] as boolean),
      ),
    ]),
  );
  const summaries = Object.fromEntries(
    systems.map((n) => [
      n,
      summarise(
        these.map((a) => a.by[n] as Outcome),
        IN_SCOPE_TYPES,
      ),
    ]),
  );
  const acts = new Set(these.flatMap((a) => a.q.gold.map((g) => g.slice(0, g.indexOf("/")))));
  const oos = these.filter((a) => a.q.out_of_scope).length;
  return {
    split,
    questions: these.length,
    in_scope: these.length - oos,
    out_of_scope: oos,
    gold_acts: acts.size,
    summaries,
    no_match: noMatch,
    targets: checkTargets(summaries, systems, noMatch),
  };
}

/** Dev questions only: what ours misses at hit@5 (with its top 3), and its wrong out-of-scope calls. */
function devFailures(asked: readonly Asked[], citationOf: (node: string) => string) {
  const dev = inSplit(asked, "dev");
  const cite = (node: string) => ({ node, citation: citationOf(node) });
  const misses = dev
    .filter((a) => {
      const o = a.by.acquis as Outcome;
      return !o.outOfScope && scoreRanking(o.articles, new Set(o.gold)).hit5 === 0;
    })
    .map((a) => {
      const o = a.by.acquis as Outcome;
      return {
        id: a.q.id,
        type: a.q.type,
        query: a.q.query,
        file: a.q.file,
        gold: o.gold.map(cite),
        ours_top3: o.articles.slice(0, 3).map(cite),
        called_out_of_scope: o.predictedOutOfScope,
      };
    });
  const wrongScope = dev
    .filter((a) => (a.by.acquis as Outcome).predictedOutOfScope !== a.q.out_of_scope)
    .map((a) => ({ id: a.q.id, query: a.q.query, called_out_of_scope: !a.q.out_of_scope }));
  return {
    in_scope: dev.filter((a) => !a.q.out_of_scope).length,
    misses_at_5: misses,
    wrong_scope: wrongScope,
  };
}

function renderFailures(f: ReturnType<typeof devFailures>): string {
  const lines = [
    `dev failures: ${f.misses_at_5.length} of ${f.in_scope} in-scope dev questions have no gold article in acquis's top 5`,
  ];
  for (const m of f.misses_at_5) {
    const top = m.ours_top3.map((a, k) => `${k + 1}. ${a.node} (${a.citation})`).join("  ");
    lines.push(
      `  ${m.id} [${m.type}] ${m.query}`,
      `    gold: ${m.gold.map((g) => `${g.node} (${g.citation})`).join(", ")}`,
      `    ours: ${m.called_out_of_scope ? "called out of scope" : top || "no match"}`,
    );
  }
  lines.push(`dev out-of-scope calls wrong: ${f.wrong_scope.length}`);
  for (const w of f.wrong_scope)
    lines.push(
      `  ${w.id}: ${w.called_out_of_scope ? "called out of scope, is not" : "is out of scope, answered"}: ${w.query}`,
    );
  return `${lines.join("\n")}\n`;
}

function main(o: Options): void {
  if (o.failures && o.split === "held-out") {
    throw new UsageError(
      "--failures lists dev questions only; it will not list held-out failures: the held-out third is looked at only to report, so that its numbers stay an honest estimate",
    );
  }
  const root = resolve(o.root);
  const dir = releaseDirectory({ release: o.release, path: o.path, root });
  say(`verifying and loading ${dir}`);
  const { engine, scope } = bootOurs(root, dir);
  const release = engine.release;
  const header: ReleaseHeader = {
    name: `${engine.regime}@${engine.tag}`,
    release_meta_sha256: release.metaSha256,
    acts: release.acts.length,
  };
  const questions = loadQuestions(resolve(o.questions), {
    name: header.name,
    has: (node) => release.byNode.has(node),
  });
  say(`${questions.length} questions valid against ${header.name}`);

  const articles = new Map<string, string>();
  const toArticle = (node: string) => {
    let a = articles.get(node);
    if (a === undefined) {
      a = articleOf(node, (n) => release.byNode.get(n));
      articles.set(node, a);
    }
    return a;
  };
  say("indexing the baselines");
  const fts5 = fts5System(release.units);
  const systems = [acquisSystem(engine, scope), fts5, bm25System(release.units)];
  const names = systems.map((s) => s.name);
  const asked = ask(questions, systems, toArticle);
  const cannot = askUnanswerable(loadUnanswerable(resolve(o.unanswerable)), systems);
  say(`${cannot.length} unanswerable questions asked of every system`);
  fts5.close();

  const results = (o.split ? [o.split] : (["dev", "held-out", "all"] as const)).map((s) =>
    splitResult(asked, cannot, s, names),
  );
  const failures = o.failures
    ? devFailures(asked, (node) => release.byNode.get(node)?.citation ?? node)
    : null;
  if (o.json) {
    const dev = inSplit(asked, "dev");
    const body = {
      release: { ...header, dir, verification: engine.stamps.verification },
      as_of: AS_OF,
      split_rule: SPLIT_RULE,
      systems: names,
      questions: { total: asked.length, dev: dev.length, held_out: asked.length - dev.length },
      splits: Object.fromEntries(results.map((r) => [r.split, r])),
      // Per-question rows for dev only: the held-out third is looked at only in aggregate.
      dev_questions: dev.map((a) => ({
        id: a.q.id,
        type: a.q.type,
        query: a.q.query,
        gold_articles: (a.by.acquis as Outcome).gold,
        systems: Object.fromEntries(
          names.map((n) => {
            const out = a.by[n] as Outcome;
            return [n, { articles: out.articles, out_of_scope: out.predictedOutOfScope }];
          }),
        ),
      })),
      ...(failures ? { failures } : {}),
    };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  const trainedOn = engine.release.index.file.router?.trained_on ?? "";
  const inSample = trainedOn.startsWith(`${relative(root, resolve(o.questions))},`)
    ? `note: the release's act router was trained on the dev split of these questions (${trainedOn}); dev figures are in-sample, the held-out split is the estimate\n\n`
    : "";
  process.stdout.write(
    inSample + results.map((r) => renderSplit(header, SPLIT_RULE, r, names, IN_SCOPE_TYPES)).join("\n"),
  );
  if (failures) process.stdout.write(`\n${renderFailures(failures)}`);
}

try {
  program.parse(process.argv);
  main(program.opts<Options>());
} catch (e) {
  // --help exits 0; any other complaint of commander's is a usage error.
  if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
  say(`eval: ${(e as Error).message}`);
  if (process.env.ACQUIS_DEBUG && e instanceof Error) say(`${e.stack}`);
  process.exit(e instanceof UsageError ? 2 : 1);
}
