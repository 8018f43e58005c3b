/**
 * One `eu` build in a fresh process, so its peak RSS is its own. Prints a JSON line:
 * { build_ms, max_rss_mib }. bench/run.ts measures the baseline (reading the sources) itself.
 */
import { build } from "../src/release/build.ts";

const root = process.argv[2] as string;
const t0 = performance.now();
build({ root, regime: "eu", force: true });
const ms = performance.now() - t0;
process.stdout.write(
  `${JSON.stringify({ build_ms: Math.round(ms), max_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
);
