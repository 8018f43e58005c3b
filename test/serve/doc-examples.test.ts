/**
 * Every example query in README.md and docs/ returns, at rank 1, the unit it is there to show (issue 14).
 * Each example is checked to still be written in its file, so a changed example fails here until its
 * expected unit is updated too.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { servedEu } from "../helpers/server.ts";

const ROOT = join(import.meta.dirname, "..", "..");

const EXAMPLES: { file: string; query: string; rank1: string }[] = [
  {
    file: "README.md",
    query: "When must a controller notify a personal data breach?",
    rank1: "gdpr/art_33__para_1",
  },
  { file: "README.md", query: "Article 33(1) GDPR", rank1: "gdpr/art_33__para_1" },
  { file: "README.md", query: "Art. 33(1) GDPR", rank1: "gdpr/art_33__para_1" },
  { file: "README.md", query: "point (a) of Article 23(4) NIS2", rank1: "nis2/art_23__para_4__point_a" },
  {
    file: "docs/retrieval.md",
    query: "Article 33 GDPR: what must the notification contain?",
    rank1: "gdpr/art_33",
  },
];

describe("the documentation's example queries", () => {
  const server = servedEu();
  for (const ex of EXAMPLES) {
    test(`${ex.file}: "${ex.query}" → ${ex.rank1} first`, async () => {
      const text = readFileSync(join(ROOT, ex.file), "utf8").replace(/\s+/gu, " ");
      assert.ok(text.includes(ex.query), `the example is in ${ex.file}`);
      const res = await server().post("/v1/answer", { query: ex.query });
      assert.equal(res.status, 200);
      const a = (await res.json()) as { sections: { match: string[] } };
      assert.equal(a.sections.match[0], ex.rank1, a.sections.match.slice(0, 5).join(" "));
    });
  }
});
