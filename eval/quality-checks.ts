/**
 * The release's defect checks (src/canon/checks.ts) over any built release's corpus.json, so the counts
 * of a release built before the checks existed can be compared with today's:
 *
 *   node eval/quality-checks.ts regimes/eu/releases/2026.11.2/corpus.json
 */
import { readFileSync } from "node:fs";
import { runChecks } from "../src/canon/checks.ts";
import type { Act, Unit } from "../src/canon/model.ts";

const file = process.argv[2];
if (!file) {
  process.stderr.write("usage: node eval/quality-checks.ts <release>/corpus.json\n");
  process.exit(2);
}
const corpus = JSON.parse(readFileSync(file, "utf8")) as { acts: Act[]; units: Omit<Unit, "text">[] };
// The checks read own_text only; `text` is not stored in corpus.json.
const units = corpus.units.map((u) => ({ ...u, text: u.own_text }) as Unit);
for (const r of runChecks({ acts: corpus.acts, units }))
  process.stdout.write(
    `${String(r.count).padStart(5)}  ${r.check}${r.examples[0] ? `  e.g. ${r.examples[0].node}` : ""}\n`,
  );
