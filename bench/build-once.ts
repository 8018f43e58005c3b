/**
 * One `eu` build in a fresh process, so its peak RSS is its own. Prints a JSON line:
 * { build_ms, max_rss_mib, baseline_ms } where the baseline reads, hashes and parses the same sources
 * without compiling them (the I/O floor of any build).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../src/canon/compile.ts";
import { build } from "../src/release/build.ts";

const root = process.argv[2] as string;
const sources = join(root, "..", "shared", "corpus");
const t0 = performance.now();
for (const f of readdirSync(join(sources, "eu")))
  JSON.parse(readFileSync(join(sources, "eu", f), "utf8")) && sha256(readFileSync(join(sources, "eu", f)));
const baseline = performance.now() - t0;
const t1 = performance.now();
build({ root, regime: "eu", force: true });
const ms = performance.now() - t1;
process.stdout.write(
  `${JSON.stringify({ build_ms: Math.round(ms), max_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
);
