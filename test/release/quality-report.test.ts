/**
 * The quality report of a real build over a source with one defect of each class planted in it
 * (test/fixtures/regime/sources/fixture/widgets-planted.json, canon planted.yaml, parser 4):
 *
 *   Art 1: no title field, its title as the first line;  Arts 1-2: before Chapter II with no Chapter I
 *   Art 2: a consolidation marker in its title;           Art 4: an empty point, a footnote parsed as a
 *   point, paragraph 2 missing, "From 1 January 2103,";  Art 5: correlation-table scraps for its text;
 *   Art 6: missing;  Art 7: an annex footnote, ELI, ISSN and JavaScript lines;  last recital: the
 *   enacting formula.
 *
 * Each must show in quality.json, as a repair the parser made or as a finding of a check; and with a
 * baseline that allows nothing, `acquis build` must refuse the release and name every finding.
 */
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { acquis } from "../helpers/cli.ts";
import { FIXTURE_SOURCES, type FixtureRepo, fixtureRepo } from "../helpers/fixture-repo.ts";

const PLANTED = join(import.meta.dirname, "..", "fixtures", "regime", "canon", "planted.yaml");

interface Quality {
  acts: { act: string; repairs: { kind: string; eid: string | null }[]; defects: { kind: string }[] }[];
  checks?: { check: string; count: number; examples: { node: string; detail: string }[] }[];
}

describe("the quality report finds every planted defect", () => {
  let repo: FixtureRepo;
  let quality: Quality;

  const commitCanon = (baseline: string, message: string) => {
    const dir = join(repo.root, "regimes", "fixture");
    copyFileSync(PLANTED, join(dir, "regime.yaml"));
    writeFileSync(join(dir, "quality-baseline.yaml"), baseline);
    const sync = acquis(["atoms", "sync", "fixture", "--root", repo.root, "--sources", FIXTURE_SOURCES]);
    assert.equal(sync.status, 0, sync.stderr);
    repo.git("add", "-A");
    repo.git("commit", "-q", "-m", message);
  };
  const build = (tag: string) =>
    acquis(["build", "fixture", "--root", repo.root, "--sources", FIXTURE_SOURCES, "--tag", tag]);

  before(() => {
    repo = fixtureRepo();
    repo.commitRevision(2);
    // A baseline that allows what the planted source holds, so the first build succeeds and writes the report.
    const generous = ["checks:", "defects:"]
      .map((s) => `${s}\n`)
      .join("")
      .replace(
        "checks:\n",
        `checks:\n${["article_numbering_gap", "paragraph_numbering_gap", "lost_in_source", "footnote_as_unit"].map((c) => `  ${c}: { count: 5, why: planted }\n`).join("")}`,
      )
      .replace(
        "defects:\n",
        `defects:\n${["article_lost_in_source", "empty_point", "missing_recitals"].map((k) => `  ${k}: { count: 5, why: planted }\n`).join("")}`,
      );
    commitCanon(generous, "planted defects, generous baseline");
    const r = build("p1");
    assert.equal(r.status, 0, r.stderr);
    quality = JSON.parse(
      readFileSync(join(repo.root, "regimes", "fixture", "releases", "p1", "quality.json"), "utf8"),
    ) as Quality;
  });

  const repaired = (kind: string, eid: string) =>
    quality.acts.some((a) => a.repairs.some((r) => r.kind === kind && r.eid === eid));
  const found = (check: string, node: string) =>
    quality.checks?.find((c) => c.check === check)?.examples.some((e) => e.node === node) ?? false;

  test("the report lists every check, with a count and examples", () => {
    assert.ok(quality.checks, "quality.json has checks when the canon has a baseline");
    assert.ok(quality.checks.length >= 13);
    for (const c of quality.checks) assert.equal(c.count >= c.examples.length, true, c.check);
  });

  test("defects the parser repairs show as repairs at the planted unit", () => {
    assert.ok(repaired("title_in_text", "art_1"), "title stood as text");
    assert.ok(repaired("first_heading_lost", "chp_I"), "first chapter lost");
    assert.ok(repaired("consolidation_marker_stripped", "art_2"), "marker in a title");
    assert.ok(repaired("date_in_text", "art_4__para_1"), "date stated in the provision");
    assert.ok(repaired("page_furniture_removed", "art_7"), "ELI, ISSN, JavaScript");
    assert.ok(repaired("footnotes_split", "anx_I"), "footnote in an annex");
    assert.ok(repaired("enacting_formula_split", "rec_4"), "enacting formula in a recital");
  });

  test("defects the parser cannot repair show as findings at the planted unit", () => {
    assert.ok(found("lost_in_source", "widgets/art_5"), "article replaced by scraps");
    assert.ok(found("lost_in_source", "widgets/art_4__para_1__point_a"), "point with no text");
    assert.ok(found("lost_in_source", "widgets/chp_I"), "chapter heading lost");
    assert.ok(found("article_numbering_gap", "widgets/art_6"), "article missing");
    assert.ok(found("paragraph_numbering_gap", "widgets/art_4"), "paragraph missing");
    assert.ok(found("footnote_as_unit", "widgets/art_4__para_1__point_b__point_1"), "footnote as a point");
  });

  test("a baseline that allows nothing refuses the release, names every finding, and leaves nothing behind", () => {
    commitCanon("checks: {}\ndefects: {}\n", "planted defects, empty baseline");
    const r = build("p2");
    assert.notEqual(r.status, 0);
    for (const what of [
      "check lost_in_source: 3 (baseline 0)",
      "check article_numbering_gap: 1 (baseline 0)",
      "check paragraph_numbering_gap: 1 (baseline 0)",
      "check footnote_as_unit: 1 (baseline 0)",
      "defect empty_point: 1 (baseline 0)",
      "widgets/art_5",
    ])
      assert.ok(r.stderr.includes(what), `stderr names "${what}":\n${r.stderr}`);
    assert.match(r.stderr, /quality-baseline\.yaml/u);
    assert.equal(existsSync(join(repo.root, "regimes", "fixture", "releases", "p2")), false);
    assert.doesNotMatch(readFileSync(join(repo.root, "regimes", "fixture", "releases.yaml"), "utf8"), /p2/u);
  });
});
