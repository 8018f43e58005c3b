/**
 * `npm run bench`: build time and peak memory of the full `eu` release, and the time to load a release
 * with every digest checked. Each figure sits beside a baseline measured in the same run (these
 * machines are noisy; ratios travel, seconds do not). Results go in docs/benchmarks.md.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { sha256 } from "../src/canon/compile.ts";
import { loadRelease } from "../src/release/load.ts";
import { newestBuilt } from "../src/release/releases.ts";
import { benchColdFloor } from "./cold-floor.ts";
import { benchFeed } from "./feed.ts";
import { benchMcp } from "./mcp.ts";
import { benchServe } from "./serve.ts";

const root = join(import.meta.dirname, "..");
const runs = Number(process.env.BENCH_RUNS ?? 3);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Baseline: read, hash and parse the same 49 sources without compiling them (the I/O floor of a build). */
function sourcesBaseline(): number {
  const dir = join(root, "..", "shared", "corpus", "eu");
  const t0 = performance.now();
  for (const f of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, f));
    sha256(bytes);
    JSON.parse(bytes.toString("utf8"));
  }
  return performance.now() - t0;
}

const builds: { build_ms: number; baseline_ms: number; max_rss_mib: number }[] = [];
for (let i = 0; i < runs; i++) {
  // The heap cap bin/acquis gives a build (see there and docs/benchmarks.md), so this measures what users get.
  const args = ["--max-old-space-size=448", join(import.meta.dirname, "build-once.ts"), root];
  const out = execFileSync(process.execPath, args, {
    encoding: "utf8",
  });
  builds.push({ ...JSON.parse(out.trim().split("\n").pop() as string), baseline_ms: sourcesBaseline() });
  process.stderr.write(`build ${i + 1}/${runs}: ${builds[i]?.build_ms} ms\n`);
}

const record = newestBuilt(root, "eu");
if (!record) throw new Error("no eu release built");
const dir = join(root, "regimes", "eu", "releases", record.tag);
const loads: number[] = [];
const parses: number[] = [];
for (let i = 0; i < runs + 2; i++) {
  // Baseline: read and JSON.parse the same two files with no digest check and no text composition.
  const p0 = performance.now();
  JSON.parse(readFileSync(join(dir, "corpus.json"), "utf8"));
  JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
  parses.push(performance.now() - p0);
  const t0 = performance.now();
  loadRelease(dir);
  loads.push(performance.now() - t0);
}

const b = median(builds.map((x) => x.build_ms));
const base = median(builds.map((x) => x.baseline_ms));
const result = {
  machine: `${cpus().length} cores, ${cpus()[0]?.model ?? "unknown cpu"}, node ${process.version}`,
  eu_build_ms_median: b,
  eu_build_baseline_ms_median: base,
  eu_build_over_baseline: Math.round((b / base) * 10) / 10,
  eu_build_peak_rss_mib_max: Math.max(...builds.map((x) => x.max_rss_mib)),
  release_load_ms_median: Math.round(median(loads)),
  release_parse_baseline_ms_median: Math.round(median(parses)),
  release_load_over_baseline: Math.round((median(loads) / median(parses)) * 10) / 10,
};
process.stderr.write("serving under load (cache on, then off)\n");
const serving = {
  cached: await benchServe(64),
  uncached: await benchServe(0),
  uncached_engine_per_core: await benchServe(0, cpus().length),
};
process.stderr.write("the floor under the cold-answer and ready targets\n");
const coldFloor = await benchColdFloor();
process.stderr.write("search_regulation over MCP stdio beside REST\n");
const mcp = await benchMcp();
process.stderr.write("publishing the eu release to subscriptions over SQLite and PostgreSQL\n");
const feed = await benchFeed();
process.stdout.write(`${JSON.stringify({ ...result, serving, coldFloor, mcp, feed }, null, 2)}\n`);
