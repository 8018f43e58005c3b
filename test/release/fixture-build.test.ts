import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { parse } from "yaml";
import type { Unit } from "../../src/canon/model.ts";
import { loadRelease, ReleaseIntegrityError } from "../../src/release/load.ts";
import { acquis } from "../helpers/cli.ts";
import { FIXTURE_SOURCES, type FixtureRepo, fixtureRepo } from "../helpers/fixture-repo.ts";

function buildFixture(repo: FixtureRepo, ...args: string[]) {
  return acquis(["build", "fixture", "--root", repo.root, "--sources", FIXTURE_SOURCES, ...args]);
}

function releaseFiles(dir: string): Map<string, Buffer> {
  return new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));
}

describe("acquis build on the fixture regime", () => {
  let repo: FixtureRepo;
  let rev1: string;
  let dir: string;
  let units: Map<string, Unit>;

  before(() => {
    repo = fixtureRepo();
    rev1 = repo.commitRevision(1);
    const r = buildFixture(repo, "--tag", "t1");
    assert.equal(r.status, 0, r.stderr);
    dir = join(repo.root, "regimes", "fixture", "releases", "t1");
    units = new Map(loadRelease(dir).units.map((u) => [u.eid, u]));
  });

  test("prints counts and records the tag against the commit it was built from", () => {
    const again = buildFixture(repo, "--tag", "t1");
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /already built fixture@t1/u);
    assert.match(again.stdout, /acts:\s+1/u);
    assert.match(again.stdout, /definitions: 3/u);
    const releases = parse(readFileSync(join(repo.root, "regimes", "fixture", "releases.yaml"), "utf8"));
    assert.deepEqual(releases.releases, [{ tag: "t1", commit: rev1 }]);
  });

  test("writes every artifact the manifest declares, with the canon commit and its committer date", () => {
    const meta = parse(readFileSync(join(dir, "release-meta.yaml"), "utf8"));
    assert.equal(meta.commit, rev1);
    assert.equal(meta.built_at, "2026-01-01T12:00:00Z");
    assert.equal(meta.licence.corpus, "CC-BY-4.0");
    const names = meta.artifacts.map((a: { name: string }) => a.name).sort();
    assert.deepEqual(names, [
      "atoms.json",
      "corpus.json",
      "graph.json",
      "index.json",
      "obligations.json",
      "provenance.json",
      "quality.json",
      "t1.diff.json",
    ]);
    assert.deepEqual(readdirSync(dir).sort(), [...names, "release-meta.yaml"].sort());
    assert.equal(meta.previous.tag, null);
  });

  test("parses paragraphs, points, definitions, recitals and annexes into eIds", () => {
    assert.match(
      units.get("art_3__para_2")?.own_text ?? "",
      /^Manufacturers shall notify any serious incident/u,
    );
    assert.equal(units.get("art_3__para_3__point_b")?.own_text, "a description of the serious incident;");
    assert.equal(
      units.get("art_3__para_3__subpara_2")?.own_text,
      "Manufacturers shall keep records of notifications for 10 years.",
    );
    assert.equal(units.get("art_2__point_2")?.defines, "manufacturer");
    assert.equal(units.get("art_3__para_2")?.citation, "Article 3(2) WSR");
    assert.equal(
      units.get("art_3__para_3__point_b")?.eli,
      "http://data.europa.eu/eli/reg/2099/1/art_3/par_3/pnt_b/oj",
    );
    assert.ok(units.get("rec_1"));
    assert.ok(units.get("anx_I"), "the annex glued onto the last article is its own unit");
    assert.equal(units.get("anx_I")?.heading, "Safety requirements");
    assert.doesNotMatch(units.get("art_6")?.text ?? "", /Done at|ANNEX|revolutions|OJ C/u);
  });

  test("moves a glued chapter heading to where it belongs", () => {
    const art2 = units.get("art_2");
    assert.equal(art2?.parent, "widgets/chp_II__sec_1");
    assert.equal(units.get("chp_II")?.heading, "OBLIGATIONS OF ECONOMIC OPERATORS");
    assert.doesNotMatch(units.get("art_1")?.text ?? "", /OBLIGATIONS|Section 1/u);
  });

  test("dates each unit from the act's staged application", () => {
    assert.equal(units.get("art_1")?.valid_from, "2100-01-01");
    assert.equal(units.get("art_3")?.valid_from, "2101-07-01");
    assert.equal(units.get("art_3__para_3__point_a")?.valid_from, "2101-07-01");
    assert.equal(units.get("rec_1")?.valid_from, "2099-12-21");
  });

  test("reports every repair and defect in quality.json", () => {
    const q = JSON.parse(readFileSync(join(dir, "quality.json"), "utf8"));
    const kinds = new Set<string>(
      [...q.acts[0].repairs, ...q.acts[0].defects].map((e: { kind: string }) => e.kind),
    );
    for (const k of [
      "signature_split",
      "footnotes_split",
      "annex_split",
      "heading_moved",
      "duplicate_recital_removed",
      "missing_recitals",
    ]) {
      assert.ok(kinds.has(k), `quality.json reports ${k}`);
    }
  });

  test("resolves cross-references and definition uses in the graph", () => {
    const g = JSON.parse(readFileSync(join(dir, "graph.json"), "utf8"));
    const has = (from: string, kind: string, to: string) =>
      g.edges.some(
        (e: { from: string; kind: string; to: string }) => e.from === from && e.kind === kind && e.to === to,
      );
    assert.ok(has("widgets/art_3__para_3", "refers_to", "widgets/art_3__para_2"), "paragraph 2");
    assert.ok(has("widgets/art_3__para_1", "refers_to", "widgets/anx_I"), "Annex I");
    assert.ok(has("widgets/art_4", "refers_to", "widgets/art_3__para_1"), "Article 3(1)");
    assert.ok(has("widgets/art_3__para_2", "uses_definition", "widgets/art_2__point_3"), "serious incident");
    assert.ok(has("widgets/chp_II", "contains", "widgets/chp_II__sec_1"));
  });

  test("the first release's diff manifest lists every unit and every atom as added", () => {
    const diff = JSON.parse(readFileSync(join(dir, "t1.diff.json"), "utf8"));
    assert.equal(diff.from, null);
    const unitChanges = diff.changes.filter((c: { kind: string }) => c.kind === "unit");
    const atomChanges = diff.changes.filter((c: { kind: string }) => c.kind === "atom");
    assert.equal(unitChanges.length, units.size);
    const atoms = JSON.parse(readFileSync(join(dir, "atoms.json"), "utf8")).atoms;
    assert.ok(atoms.length > 0);
    assert.equal(atomChanges.length, atoms.length);
    assert.ok(diff.changes.every((c: { change: string }) => c.change === "added"));
  });

  test("building the same tag again gives byte-identical files", () => {
    const first = releaseFiles(dir);
    const r = buildFixture(repo, "--tag", "t1", "--force");
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(releaseFiles(dir), first);
  });

  test("a second repository built from the same canon gives the same bytes", () => {
    const other = fixtureRepo();
    other.commitRevision(1);
    assert.equal(buildFixture(other, "--tag", "t1").status, 0);
    assert.deepEqual(
      releaseFiles(join(other.root, "regimes", "fixture", "releases", "t1")),
      releaseFiles(dir),
    );
  });

  test("the loader refuses a release with one byte flipped in any artifact, naming it", () => {
    const meta = parse(readFileSync(join(dir, "release-meta.yaml"), "utf8"));
    for (const { name } of meta.artifacts as { name: string }[]) {
      const copy = mkdtempSync(join(tmpdir(), "acquis-flip-"));
      cpSync(dir, copy, { recursive: true });
      const bytes = readFileSync(join(copy, name));
      const at = Math.floor(bytes.length / 2);
      bytes[at] = (bytes[at] as number) ^ 0x01;
      writeFileSync(join(copy, name), bytes);
      assert.throws(
        () => loadRelease(copy),
        (e: unknown) => e instanceof ReleaseIntegrityError && e.artifact === name && e.message.includes(name),
        `flipping a byte of ${name} is refused`,
      );
    }
  });

  test("a source whose SHA-256 differs from the canon's is refused, naming file, expected and found", () => {
    const sources = mkdtempSync(join(tmpdir(), "acquis-sources-"));
    cpSync(FIXTURE_SOURCES, sources, { recursive: true });
    const file = join(sources, "fixture", "widgets-v1.json");
    writeFileSync(file, `${readFileSync(file, "utf8")} `);
    const r = acquis([
      "build",
      "fixture",
      "--root",
      repo.root,
      "--sources",
      sources,
      "--tag",
      "t1",
      "--force",
    ]);
    assert.notEqual(r.status, 0);
    const errors = r.stderr.split("\n").filter((l) => l.startsWith("acquis:"));
    assert.equal(errors.length, 1, "one error line (progress lines aside)");
    const line = errors[0] as string;
    assert.match(
      line,
      /fixture\/widgets-v1\.json: SHA-256 mismatch: expected ca59c4e4[0-9a-f]{56}, found [0-9a-f]{64}/u,
    );
    assert.ok(
      existsSync(join(dir, "release-meta.yaml")),
      "the failed build leaves the existing release in place",
    );
  });

  describe("a second canon revision", () => {
    let dir2: string;
    before(() => {
      repo.commitRevision(2);
      const r = buildFixture(repo, "--tag", "t2");
      assert.equal(r.status, 0, r.stderr);
      dir2 = join(repo.root, "regimes", "fixture", "releases", "t2");
    });

    test("links to its predecessor and diffs against it", () => {
      const meta = parse(readFileSync(join(dir2, "release-meta.yaml"), "utf8"));
      assert.equal(meta.previous.tag, "t1");
      const prevSha = acquisSha(join(dir, "release-meta.yaml"));
      assert.equal(meta.previous.release_meta_sha256, prevSha);
      const diff = JSON.parse(readFileSync(join(dir2, "t2.diff.json"), "utf8"));
      assert.equal(diff.from, "t1");
      const change = (node: string) => diff.changes.find((c: { node: string }) => c.node === node)?.change;
      assert.equal(change("widgets/art_3__para_2"), "changed");
      assert.equal(change("widgets/art_7"), "added");
      assert.equal(change("widgets/art_1"), undefined, "an unchanged unit is not listed");
    });

    test("an older tag rebuilds byte for byte from its own commit", () => {
      const first = releaseFiles(dir);
      const r = buildFixture(repo, "--tag", "t1", "--force");
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(releaseFiles(dir), first);
    });

    test("without --tag the newest recorded release is the one built", () => {
      const r = buildFixture(repo);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /fixture@t2/u);
    });
  });
});

function acquisSha(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}
