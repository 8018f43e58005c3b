/**
 * The real `eu` regime: the 49 acts of ../shared/corpus/eu built into a release exactly as `npm start`
 * does, then checked against the facts a user would look up.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse } from "yaml";
import type { Unit } from "../../src/canon/model.ts";
import { type LoadedRelease, loadRelease } from "../../src/release/load.ts";
import { readReleases } from "../../src/release/releases.ts";
import { acquis } from "../helpers/cli.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const SOURCES = join(ROOT, "..", "shared", "corpus");

/** A fresh clone of this checkout with the eu release built in it by this code. */
function builtClone(): { root: string; stdout: string } {
  const root = join(mkdtempSync(join(tmpdir(), "acquis-eu-")), "main");
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", ROOT, root]);
  // The predecessors the newest release is diffed against, as this checkout built them (npm test builds
  // them first); a release missing here is built in the clone.
  const tags = readReleases(ROOT, "eu").map((r) => r.tag);
  for (const tag of tags.slice(0, -1)) {
    const built = join(ROOT, "regimes", "eu", "releases", tag);
    if (existsSync(join(built, "release-meta.yaml")))
      cpSync(built, join(root, "regimes", "eu", "releases", tag), { recursive: true });
  }
  const r = acquis(["build", "eu", "--root", root, "--sources", SOURCES], { timeoutMs: 300_000 });
  assert.equal(r.status, 0, r.stderr);
  return { root, stdout: r.stdout };
}

describe("the eu release", () => {
  let release: LoadedRelease;
  let stdout: string;
  let root: string;
  const unit = (act: string, eid: string): Unit | undefined => release.byNode.get(`${act}/${eid}`);

  before(() => {
    // Built in a clone, not in this checkout: other tests serve the checkout's release meanwhile.
    ({ root, stdout } = builtClone());
    const newest = readReleases(root, "eu").at(-1);
    assert.ok(newest, "releases.yaml records an eu release");
    release = loadRelease(join(root, "regimes", "eu", "releases", newest.tag));
  });
  // The clone with its release is 400 MB; left behind by every run, they filled the disk.
  after(() => {
    if (root) rmSync(join(root, ".."), { recursive: true, force: true });
  });

  test("the build prints acts, units by kind, definitions, edges and defects", () => {
    assert.match(stdout, /acts:\s+49\b/u);
    assert.match(stdout, /units:\s+\d+ \(.*article \d+.*paragraph \d+.*\)/u);
    assert.match(stdout, /definitions: \d{3,}/u);
    assert.match(stdout, /edges:\s+\d+ \(.*refers_to \d+.*\)/u);
    assert.match(stdout, /\d+ defects left/u);
  });

  test("every one of the 49 acts has articles", () => {
    assert.equal(release.acts.length, 49);
    for (const act of release.acts) {
      const articles = release.units.filter((u) => u.act === act.id && u.kind === "article");
      assert.ok(articles.length > 0, `${act.id} has articles`);
    }
  });

  test("GDPR Article 33(1) begins with the personal data breach", () => {
    const u = unit("gdpr", "art_33__para_1");
    assert.ok(u);
    assert.ok(u.text.startsWith("In the case of a personal data breach"), u.text.slice(0, 60));
    assert.equal(u.citation, "Article 33(1) GDPR");
    assert.equal(u.eli, "http://data.europa.eu/eli/reg/2016/679/art_33/par_1/oj");
  });

  test("AI Act Annex III is its own unit and Article 113 carries no annex text", () => {
    const annex = unit("ai-act", "anx_III");
    assert.ok(annex);
    assert.match(annex.text, /Biometrics/u);
    const art113 = unit("ai-act", "art_113");
    assert.ok(art113);
    assert.doesNotMatch(art113.text, /ANNEX|Annex III|Biometrics|Done at|METSOLA|OJ C/u);
  });

  test("AI Act staged application: Article 6(1) from 2027-08-02, Chapter I from 2025-02-02", () => {
    assert.equal(unit("ai-act", "art_6__para_1")?.valid_from, "2027-08-02");
    assert.equal(unit("ai-act", "chp_I")?.valid_from, "2025-02-02");
    assert.equal(unit("ai-act", "art_1")?.valid_from, "2025-02-02");
    assert.equal(unit("ai-act", "art_6__para_2")?.valid_from, "2026-08-02");
  });

  test("a provision excepted from one step applies from the step that names it (issue 16)", () => {
    // MiCA Art 149(3): Titles III and IV from 30 June 2024, save the provisions Art 149(4) applies
    // from 29 June 2023, among them Art 17(8).
    assert.equal(unit("mica", "art_17__para_8")?.valid_from, "2023-06-29");
    assert.equal(unit("mica", "art_17__para_8__subpara_2")?.valid_from, "2023-06-29");
    assert.equal(unit("mica", "art_17__para_1")?.valid_from, "2024-06-30");
    assert.equal(unit("mica", "art_59")?.valid_from, "2024-12-30");
    // EHDS Art 105: Chapter IV from 26 March 2029, save Art 51(1)(b) from 2031 and Art 75(5) from 2035.
    assert.equal(unit("ehds", "art_51__para_1__point_b")?.valid_from, "2031-03-26");
    assert.equal(unit("ehds", "art_51__para_1__point_a")?.valid_from, "2029-03-26");
    assert.equal(unit("ehds", "art_75__para_5")?.valid_from, "2035-03-26");
    // CSRD Art 5(2)(d): the third-country reporting of Art 1(14) from financial years starting 2028.
    assert.equal(unit("csrd", "art_1__point_14")?.valid_from, "2028-01-01");
  });

  test("a directive's provisions bind through national law, with the transposition deadline its final provisions set", () => {
    assert.equal(unit("nis2", "art_21__para_1")?.binding, "through national law");
    assert.equal(unit("nis2", "art_21__para_1")?.transposition_deadline, "2024-10-17"); // NIS2 Art 41(1)
    assert.equal(unit("psd2", "art_97__para_1")?.transposition_deadline, "2018-01-13"); // PSD2 Art 115(1)
    // Directive (EU) 2025/794 moved the CSDDD's deadline from 26 July 2026 to 26 July 2027.
    assert.equal(unit("csddd", "art_5")?.transposition_deadline, "2027-07-26");
    assert.equal(unit("nis2", "rec_1")?.binding, undefined, "recitals bind no one");
    assert.equal(unit("gdpr", "art_33__para_1")?.binding, undefined, "a regulation applies directly");
  });

  test("dates an amending act outside the corpus moved are the dates in force, naming the act", () => {
    assert.equal(unit("eudr", "art_3")?.valid_from, "2026-12-30"); // Regulation (EU) 2025/2650
    assert.equal(unit("mdr", "art_10__para_1")?.valid_from, "2021-05-26"); // Regulation (EU) 2020/561
    assert.equal(unit("csddd", "art_5")?.valid_from, "2028-07-26"); // Directive (EU) 2025/794
    assert.deepEqual(
      unit("mdr", "art_120__para_2")?.amended_by?.map((m) => [m.celex, m.what]),
      [
        ["32020R0561", "date"],
        ["32023R0607", "text"],
      ],
    );
    assert.equal(unit("gdpr", "art_33__para_1")?.amended_by, undefined);
  });

  test("an article whose source kept its title in the body gets it as heading, the right eIds and its former eIds as aliases", () => {
    const art19 = unit("gdpr", "art_19");
    assert.equal(
      art19?.heading,
      "Notification obligation regarding rectification or erasure of personal data or restriction of processing",
    );
    assert.match(art19?.own_text ?? "", /^The controller shall communicate any rectification/u);
    assert.deepEqual(art19?.aliases, ["art_19__subpara_2"]);
    assert.equal(
      unit("gdpr", "art_19__subpara_2"),
      undefined,
      "the eId the text had before the repair is gone",
    );
    // An article with numbered paragraphs keeps its eIds; only the heading moves out of its text.
    assert.equal(unit("gdpr", "art_12")?.heading?.startsWith("Transparent information"), true);
    assert.equal(unit("gdpr", "art_12")?.own_text, "");
    assert.equal(unit("gdpr", "art_12")?.aliases, undefined);
  });

  test("a Title nests in its Part, so no two units share a node unless the report says so", () => {
    assert.equal(unit("eecc", "part_II__title_I")?.heading, "MARKET ENTRY AND DEPLOYMENT");
    assert.equal(unit("eecc", "part_III__title_I")?.heading, "UNIVERSAL SERVICE OBLIGATIONS");
    assert.equal(unit("eecc", "part_III__title_I")?.parent, "eecc/part_III");
    const seen = new Map<string, number>();
    for (const u of release.units) seen.set(u.node, (seen.get(u.node) ?? 0) + 1);
    const shared = [...seen].filter(([, n]) => n > 1).map(([node]) => node);
    const quality = JSON.parse(readFileSync(join(release.dir, "quality.json"), "utf8")) as {
      acts: { act: string; defects: { kind: string; eid: string | null }[] }[];
    };
    const reported = quality.acts.flatMap((a) =>
      a.defects.filter((d) => d.kind === "duplicate_node").map((d) => `${a.act}/${d.eid}`),
    );
    assert.deepEqual(shared.sort(), reported.sort(), "every shared node is reported as duplicate_node");
    assert.ok(!shared.some((n) => n.startsWith("eecc/")), shared.join(" "));
  });

  test("a date at the head of a provision governs it when later than its act's (issue 16)", () => {
    // Data Act Art 29(1): "From 12 January 2027, providers of data processing services shall not impose
    // any switching charges"; Art 29(2): reduced charges "From 11 January 2024 to 12 January 2027".
    assert.equal(unit("data-act", "art_29__para_1")?.valid_from, "2027-01-12");
    assert.equal(unit("data-act", "art_29__para_2")?.valid_from, "2025-09-12", "the act's own date is later");
    assert.equal(unit("data-act", "art_29__para_2")?.valid_to, "2027-01-13", "12 January 2027 is included");
    assert.equal(unit("csddd", "art_17__para_1")?.valid_from, "2029-01-01");
    assert.equal(unit("red", "art_5__para_1")?.valid_from, "2018-06-12");
  });

  test("the web page's furniture (JavaScript, the OJ's ISSN and ELI lines) is not in any unit", () => {
    const furnished = release.units.filter((u) =>
      /\$\(document\)|ISSN \d{4}-\d{3}|^ELI: http/mu.test(u.own_text),
    );
    assert.deepEqual(
      furnished.map((u) => u.node),
      [],
    );
  });

  test("the enacting formula ends the preamble: no recital holds it, and the heading glued after it opens the articles", () => {
    assert.deepEqual(
      release.units
        .filter((u) => u.kind === "recital" && /ADOPTED THIS/u.test(u.own_text))
        .map((u) => u.node),
      [],
    );
    assert.equal(unit("dora-rts-ict-risk", "art_1")?.parent, "dora-rts-ict-risk/title_I");
    assert.equal(unit("eucc", "art_1")?.parent, "eucc/chp_I");
  });

  test("definitions are units linked to their term", () => {
    assert.equal(unit("gdpr", "art_4__point_7")?.defines, "controller");
    assert.equal(unit("gdpr", "art_4__point_12")?.defines, "personal data breach");
  });

  test("the quality report accounts for every defect DESIGN.md lists", () => {
    const q = JSON.parse(readFileSync(join(release.dir, "quality.json"), "utf8")) as {
      acts: { act: string; repairs: { kind: string }[]; defects: { kind: string }[] }[];
    };
    const kinds = new Set(q.acts.flatMap((a) => [...a.repairs, ...a.defects].map((e) => e.kind)));
    const listed = {
      "annexes glued onto the last article": "annex_split",
      "signatures glued onto the last article": "signature_split",
      "footnotes glued onto the last article": "footnotes_split",
      "chapter headings glued onto the previous article": "heading_moved",
      "titles in the first line of the text": "title_removed_from_text",
      "consolidation markers": "consolidation_marker_stripped",
      "duplicated lines": "duplicate_line_removed",
      "duplicated recitals": "duplicate_recital_removed",
      "empty points": "empty_point",
      "correlation-table scraps": "correlation_table_scrap",
      "flattened superscripts": "superscript_restored",
      "a date lost from the source": "source_lost_date",
    };
    for (const [defect, kind] of Object.entries(listed))
      assert.ok(kinds.has(kind), `${defect} reported as ${kind}`);
    const ai = q.acts.find((a) => a.act === "ai-act");
    assert.ok(
      ai?.defects.some((d) => d.kind === "empty_point"),
      "AI Act Art 113(b) is reported empty",
    );
    assert.match(unit("ai-act", "art_51__para_2")?.own_text ?? "", /10\^25/u);
  });

  test("the release carries its licences and attribution", () => {
    const meta = parse(readFileSync(join(release.dir, "release-meta.yaml"), "utf8"));
    assert.equal(meta.licence.engine, "Apache-2.0");
    assert.equal(meta.licence.corpus, "CC-BY-4.0");
    assert.match(meta.licence.attribution, /EUR-Lex/u);
    assert.match(meta.licence.attribution, /2011\/833\/EU/u);
  });

  test("a second build in a fresh clone gives byte-identical files", () => {
    const other = builtClone();
    const dir = join(other.root, "regimes", "eu", "releases", release.meta.tag);
    assert.ok(existsSync(dir));
    for (const f of readdirSync(release.dir)) {
      assert.ok(
        readFileSync(join(dir, f)).equals(readFileSync(join(release.dir, f))),
        `${f} is byte-identical`,
      );
    }
  });

  test("GDPR Art 33(1) is the controller's obligation within 72 hours; NIS2 Art 23(4)(a) within 24 hours", () => {
    const gdpr = release.atoms.find((a) => a.node === "gdpr/art_33__para_1" && a.executable_unit === "hours");
    assert.equal(gdpr?.modality, "obligation");
    assert.ok(gdpr?.applies_to.includes("controller"));
    assert.equal(gdpr?.executable_value, 72);
    const nis2 = release.atoms.find((a) => a.node === "nis2/art_23__para_4__point_a");
    assert.equal(nis2?.executable_value, 24);
    assert.equal(nis2?.executable_unit, "hours");
    assert.equal(nis2?.actor, "Member States", "a directive's duty keeps the Member State as actor");
  });

  test("coverage: DORA Arts 5 to 15 are excluded by Art 16 for the microenterprise payment institution", () => {
    const r = acquis([
      "coverage",
      "--profile",
      "lt-micro-payment-institution",
      "--as-of",
      "2026-01-01",
      "--format",
      "json",
      "--root",
      root,
    ]);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    const byArt16 = report.excluded.filter(
      (e: { act: string; derogation: { derogating_eid: string } }) =>
        e.act === "dora" && e.derogation.derogating_eid === "art_16__para_1",
    );
    assert.ok(byArt16.length > 0);
    const articles = new Set<number>(
      byArt16.map((e: { unit_eid: string }) => Number(e.unit_eid.split("__")[0]?.slice(4))),
    );
    for (const n of articles)
      assert.ok(n >= 5 && n <= 15, `Art 16 disapplies only Arts 5 to 15, not Art ${n}`);
    assert.ok(articles.has(5) && articles.has(6), "the ICT risk-management framework duties are among them");
    const stillBinding = report.applicable.filter((a: { act: string; unit_eid: string }) => {
      const n = Number(a.unit_eid.split("__")[0]?.slice(4));
      return a.act === "dora" && n >= 5 && n <= 15 && a.unit_eid.startsWith("art_");
    });
    assert.equal(
      stillBinding.length,
      0,
      "no DORA Art 5-15 duty binding a financial entity is left applicable",
    );
  });
});
