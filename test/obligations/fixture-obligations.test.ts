/**
 * The obligations engine on the fictional fixture regime, driven through the real CLI: atoms, the
 * ledger, the diff manifest's classifications, and applicability with a derogation.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { acquis } from "../helpers/cli.ts";
import { FIXTURE_SOURCES, type FixtureRepo, fixtureRepo } from "../helpers/fixture-repo.ts";

interface AtomJson {
  id: string;
  node: string;
  modality: string;
  actor: string;
  addressee: string;
  applies_to: string[];
  quoted_text: string;
  char_start: number;
  char_end: number;
  executable_name: string | null;
  executable_unit: string | null;
  executable_value: number | string | null;
}

interface Change {
  kind: string;
  atom?: string;
  change: string;
  classification?: string;
  classification_basis?: string;
  citation?: { node: string };
}

const build = (repo: FixtureRepo, tag: string) =>
  acquis(["build", "fixture", "--root", repo.root, "--sources", FIXTURE_SOURCES, "--tag", tag]);
const readJson = (repo: FixtureRepo, tag: string, file: string) =>
  JSON.parse(readFileSync(join(repo.root, "regimes", "fixture", "releases", tag, file), "utf8"));
const coverage = (repo: FixtureRepo, profile: string, asOf: string) => {
  const r = acquis([
    "coverage",
    "--profile",
    profile,
    "--release",
    "fixture@t2",
    "--as-of",
    asOf,
    "--format",
    "json",
    "--root",
    repo.root,
  ]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};
const ledgerIds = (repo: FixtureRepo) =>
  JSON.parse(readFileSync(join(repo.root, "regimes", "fixture", "atoms.lock"), "utf8")).atoms as {
    id: string;
    status: string;
  }[];

describe("obligations on the fixture regime", () => {
  let repo: FixtureRepo;
  let atoms1: AtomJson[];
  let atoms2: AtomJson[];
  let manifest: { changes: Change[] };
  let ledger1: { id: string; status: string }[];
  let units: Map<string, { own_text: string }>;

  before(() => {
    repo = fixtureRepo();
    repo.commitRevision(1);
    ledger1 = ledgerIds(repo);
    const r1 = build(repo, "t1");
    assert.equal(r1.status, 0, r1.stderr);
    atoms1 = readJson(repo, "t1", "atoms.json").atoms;
    units = new Map(
      readJson(repo, "t1", "corpus.json").units.map((u: { node: string; own_text: string }) => [u.node, u]),
    );
    repo.commitRevision(2);
    const r2 = build(repo, "t2");
    assert.equal(r2.status, 0, r2.stderr);
    atoms2 = readJson(repo, "t2", "atoms.json").atoms;
    manifest = readJson(repo, "t2", "t2.diff.json");
  });

  test("a duty with a deadline is an obligation atom of its actor with an executable constant", () => {
    const a = atoms1.find((x) => x.node === "widgets/art_3__para_2");
    assert.ok(a);
    assert.equal(a.modality, "obligation");
    assert.equal(a.actor, "Manufacturers");
    assert.deepEqual(a.applies_to, ["manufacturer"]);
    assert.equal(a.executable_value, 72);
    assert.equal(a.executable_unit, "hours");
    assert.equal(a.executable_name, "widgets_art_3_para_2_deadline_hours");
  });

  test("the quoted text is exactly the span of the unit's text it names", () => {
    for (const a of atoms1) {
      const own = units.get(a.node)?.own_text ?? "";
      assert.equal(own.slice(a.char_start, a.char_end), a.quoted_text, a.id);
    }
  });

  test("a sentence with two duties yields two atoms; 'shall not' is a prohibition", () => {
    const art4 = atoms1.filter((x) => x.node === "widgets/art_4");
    assert.deepEqual(art4.map((x) => x.modality).sort(), ["obligation", "prohibition"]);
  });

  test("what a notification contains is its author's duty, point by point (extraction rules 9), and a fine's amount is read", () => {
    // "The notification referred to in paragraph 2 shall contain: (a) … (c) …" says what the
    // manufacturers' notification (paragraph 2, their duty) holds: each point is the manufacturers'
    // requirement; the paragraph's other duty stays.
    const points = atoms1.filter((x) => x.node.startsWith("widgets/art_3__para_3__point_"));
    assert.equal(points.length, 3);
    for (const p of points) {
      assert.equal(p.modality, "obligation", p.node);
      assert.deepEqual([p.addressee, p.applies_to], ["regulated_party", ["manufacturer"]], p.node);
    }
    assert.ok(
      atoms1.some((x) => x.node.startsWith("widgets/art_3__para_3") && /keep records/u.test(x.quoted_text)),
    );
    const fine = atoms1.find((x) => x.node === "widgets/art_5");
    assert.equal(fine?.executable_value, 20000000);
    assert.equal(fine?.executable_unit, "EUR");
  });

  test("a provision about provisions states no duty", () => {
    assert.equal(atoms1.filter((x) => x.node === "widgets/art_3__para_4").length, 0);
  });

  test("a changed quantity is substantive, a punctuation fix editorial, a dropped duty removed", () => {
    const atomChanges = manifest.changes.filter((c) => c.kind === "atom");
    const of = (node: string) => atomChanges.find((c) => c.citation?.node === node);
    assert.equal(of("widgets/art_3__para_2")?.classification, "substantive");
    assert.equal(of("widgets/art_3__para_2")?.classification_basis, "executable value 72 -> 48 hours");
    const punctuation = atomChanges.find((c) => c.classification_basis === "whitespace and punctuation only");
    assert.ok(punctuation, "the comma fix in the distributors' duty is editorial");
    assert.equal(punctuation.classification, "editorial");
    const removed = atomChanges.filter((c) => c.change === "removed");
    assert.equal(removed.length, 1);
    assert.equal(removed[0]?.citation?.node, "widgets/art_4__subpara_2");
    assert.ok(
      atomChanges.some((c) => c.change === "added" && c.citation?.node === "widgets/art_4"),
      "the importers' new duty is added",
    );
    assert.equal(of("widgets/art_3__para_1"), undefined, "an unchanged atom is not listed");
  });

  test("ids survive an article renumbering", () => {
    const fine1 = atoms1.find((x) => x.node === "widgets/art_5");
    const fine2 = atoms2.find((x) => x.node === "widgets/art_6");
    assert.ok(fine1 && fine2);
    assert.equal(fine2.id, fine1.id, "Article 5 became Article 6 and kept its atom id");
    const prohibition1 = atoms1.find((x) => x.node === "widgets/art_4" && x.modality === "prohibition");
    const prohibition2 = atoms2.find((x) => x.node === "widgets/art_5" && x.modality === "prohibition");
    assert.equal(prohibition2?.id, prohibition1?.id, "renumbered and re-punctuated, same id");
  });

  test("ids are never reused: a retired id is not given to a new atom", () => {
    const ledger2 = ledgerIds(repo);
    const retired = ledger2.filter((e) => e.status === "retired").map((e) => e.id);
    assert.ok(retired.length >= 1);
    const active = new Set(ledger2.filter((e) => e.status === "active").map((e) => e.id));
    for (const id of retired) assert.ok(!active.has(id));
    const old = new Set(ledger1.map((e) => e.id));
    const minted = atoms2.filter((a) => !old.has(a.id));
    assert.equal(minted.length, 1, "only the importers' duty is new");
    assert.equal(new Set(ledger2.map((e) => e.id)).size, ledger2.length, "every id appears once");
  });

  test("syncing again and rebuilding keeps every id", () => {
    const r = acquis(["atoms", "sync", "fixture", "--root", repo.root, "--sources", FIXTURE_SOURCES]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /0 minted, 0 reinstated, 0 retired/u);
    const again = acquis([
      "build",
      "fixture",
      "--root",
      repo.root,
      "--sources",
      FIXTURE_SOURCES,
      "--tag",
      "t2",
      "--force",
    ]);
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(
      readJson(repo, "t2", "atoms.json").atoms.map((a: AtomJson) => a.id),
      atoms2.map((a) => a.id),
    );
  });

  test("the build refuses a stale ledger and names the command that fixes it", () => {
    const stale = fixtureRepo();
    stale.commitRevision(1);
    stale.commitRevision(2, { sync: false });
    const r = build(stale, "t2");
    assert.notEqual(r.status, 0);
    const line = r.stderr.split("\n").find((l) => l.startsWith("acquis:")) ?? "";
    assert.match(line, /atoms\.lock is out of date .*run `acquis atoms sync fixture`/u);
  });

  test("coverage excludes the duties a derogation lifts, naming the derogating provision", () => {
    const report = coverage(repo, "small-widget-maker", "2102-01-01");
    assert.ok(report.excluded.length > 0);
    for (const e of report.excluded) {
      assert.equal(e.derogation.derogating_eid, "art_3__para_4");
      assert.equal(e.derogation.disapplied_eid, "art_3__para_3");
    }
    assert.ok(report.applicable.some((a: { unit_eid: string }) => a.unit_eid === "art_3__para_2"));
    assert.deepEqual(report.binds, ["economic_operator", "manufacturer"]);
  });

  test("a duty a derogation lifts only on an unstated fact is undetermined, naming the fact and the provision", () => {
    const report = coverage(repo, "widget-maker-size-unknown", "2102-01-01");
    assert.equal(report.excluded.length, 0);
    assert.ok(report.undetermined.length > 0, "the Art 3(3) duty is neither applicable nor dropped");
    for (const d of report.undetermined) {
      assert.equal(d.status, "undetermined");
      assert.deepEqual(d.reasons.undetermined_by, {
        provision: "widgets/art_3__para_4",
        facts: ["staff_headcount < 10"],
      });
    }
    assert.ok(!report.applicable.some((a: { unit_eid: string }) => a.unit_eid === "art_3__para_3"));
    assert.equal(report.counts.undetermined, report.undetermined.length);
  });

  test("a duty not yet applicable on the date is not listed as binding", () => {
    const report = coverage(repo, "small-widget-maker", "2100-06-01");
    assert.ok(
      !report.applicable.some((a: { unit_eid: string }) => a.unit_eid.startsWith("art_3")),
      "Article 3 applies from 2101-07-01",
    );
  });

  test("impact lists the atom changes that bind a profile; an unknown profile is refused in one line", () => {
    const r = acquis(["impact", "fixture@t2", "--profile", "small-widget-maker", "--root", repo.root]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /executable value 72 -> 48 hours/u);
    assert.doesNotMatch(
      r.stdout,
      /widgets\/art_4__subpara_2/u,
      "the distributors' dropped duty does not bind a manufacturer",
    );
    const bad = acquis(["impact", "fixture@t2", "--profile", "nobody", "--root", repo.root]);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /^acquis: no entity profile "nobody" in fixture@t2/mu);
  });
});
