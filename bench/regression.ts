/**
 * The serving load benchmark (bench/serve.ts) of this checkout beside an earlier commit, in one run:
 * `node bench/regression.ts [--base <rev>] [--rounds N]` (default base HEAD~1, 2 rounds). The base is
 * checked out as a git worktree beside this checkout (so `../shared` is its sources too), shares this
 * checkout's node_modules, and builds its own release with its own engine. The two servers are then
 * measured in alternation (base, head, base, head, ...), so drift of a noisy machine falls on both
 * sides; the figure is the ratio of medians. Removes the worktree afterwards.
 */
import { execFileSync } from "node:child_process";
import { existsSync, rmSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const root = resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: { base: { type: "string", default: "HEAD~1" }, rounds: { type: "string", default: "2" } },
});
const say = (m: string) => process.stderr.write(`${m}\n`);
const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim();

const baseCommit = git("rev-parse", "--verify", `${values.base}^{commit}`);
const headCommit = git("rev-parse", "HEAD");
const tree = join(root, "..", `.acquis-bench-${baseCommit.slice(0, 12)}`);

interface ServeFigures {
  ready_ms: number;
  rss_after_warmup_mib: number;
  mix: { requests_per_s: number; p99_ms: number };
  answer_only: { requests_per_s: number; p50_ms: number; p99_ms: number };
  throughput_vs_bare: number;
}
type Run = { cached: ServeFigures; uncached: ServeFigures };

function measure(checkout: string): Run {
  const out = execFileSync(process.execPath, [join(checkout, "bench", "serve.ts")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out) as Run;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

try {
  if (!existsSync(tree)) {
    say(`checking out ${baseCommit.slice(0, 12)} in ${tree}`);
    git("worktree", "add", "--detach", tree, baseCommit);
    symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
  }
  say("building the base release with the base engine");
  execFileSync(process.execPath, [join(tree, "bin", "acquis"), "build", "eu"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  say("building this checkout's release");
  execFileSync(process.execPath, [join(root, "bin", "acquis"), "build", "eu"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const runs: { base: Run[]; head: Run[] } = { base: [], head: [] };
  for (let r = 0; r < Number(values.rounds); r++) {
    say(`round ${r + 1}: base`);
    runs.base.push(measure(tree));
    say(`round ${r + 1}: head`);
    runs.head.push(measure(root));
  }
  const figure = (pick: (x: Run) => number) => {
    const base = median(runs.base.map(pick));
    const head = median(runs.head.map(pick));
    return { base, head, head_over_base: Math.round((head / base) * 1000) / 1000 };
  };
  const result = {
    base: baseCommit,
    head: headCommit,
    rounds: Number(values.rounds),
    cached: {
      ready_ms: figure((x) => x.cached.ready_ms),
      answer_p99_ms: figure((x) => x.cached.answer_only.p99_ms),
      answer_requests_per_s: figure((x) => x.cached.answer_only.requests_per_s),
      mix_requests_per_s: figure((x) => x.cached.mix.requests_per_s),
      mix_throughput_vs_bare: figure((x) => x.cached.throughput_vs_bare),
      rss_after_warmup_mib: figure((x) => x.cached.rss_after_warmup_mib),
    },
    uncached: {
      answer_p99_ms: figure((x) => x.uncached.answer_only.p99_ms),
      answer_requests_per_s: figure((x) => x.uncached.answer_only.requests_per_s),
      mix_requests_per_s: figure((x) => x.uncached.mix.requests_per_s),
      mix_throughput_vs_bare: figure((x) => x.uncached.throughput_vs_bare),
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  if (existsSync(tree)) {
    git("worktree", "remove", "--force", tree);
    rmSync(tree, { recursive: true, force: true });
  }
}
