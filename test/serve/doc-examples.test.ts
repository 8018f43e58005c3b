/**
 * Every example query in README.md and docs/ returns, at rank 1, the unit it is there to show (issue 14).
 * Each example is checked to still be written in its file, so a changed example fails here until its
 * expected unit is updated too. The README's register example shows what the served release answers.
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

describe("the README's register example", () => {
  const server = servedEu();
  test("the counts, page and first duty it prints are what /v1/obligations answers", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const at = readme.indexOf("/v1/obligations -H");
    assert.ok(at > 0, "the README has its /v1/obligations example");
    const request = /-d '(\{[^']*\})'/u.exec(readme.slice(at))?.[1] as string;
    const printed = /```json\n([\s\S]*?)\n```/u.exec(readme.slice(at))?.[1] as string;
    const res = await server().post("/v1/obligations", JSON.parse(request));
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      counts: Record<string, unknown>;
      page: unknown;
      applicable: { provision: string; actor: string }[];
    };
    // What the README's jq filter keeps: counts without by_act, the page, the first duty's provision and actor.
    const { by_act: _byAct, ...counts } = body.counts;
    const first = body.applicable[0] as { provision: string; actor: string };
    assert.deepEqual(JSON.parse(printed), {
      counts,
      page: body.page,
      first: { provision: first.provision, actor: first.actor },
    });
  });
});
