/**
 * The extractor against the atom labels (eval/atoms/README.md): 240 atoms drawn at random and labelled
 * from the text by readers who never saw the extractor's output. Items 121-240 are the dev half (rules 3,
 * 4 and 6 were tuned on them), items 1-120 the test half. Targets: modality ≥ 97 %, addressee ≥ 95 %, actor
 * ≥ 95 %, on each half.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { readLabels, type Score, score } from "../../eval/atoms/score.ts";
import { inWorkingTree } from "../../src/canon/reader.ts";
import { readObligationsCanon } from "../../src/obligations/canon.ts";
import { releaseAtoms } from "../../src/obligations/release-atoms.ts";
import { ActorMap } from "../../src/obligations/taxonomy.ts";
import { loadRelease } from "../../src/release/load.ts";
import { newestBuilt, releaseDir } from "../../src/release/releases.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const labels = readLabels(join(ROOT, "eval", "atoms", "labels.json"));

/** Why each half does not yet meet the targets (docs/obligations.md, "Atom quality"). */
const SHORTFALL =
  "test half 83.3 % modality, 78.3 % addressee, 96.9 % actor under extraction rules 9, which read a document's contents as its author's duties as the labelling brief and the readers of the later samples do (the engine scores 92.5 %, 86.8 %, 96.8 % on the 106 items both readings of the test half agree on, as under rules 8: the change moved only items the two readings split on); dev half 90.0 %, 85.8 %, 90.5 % under rules 9; before them, test half 87.5 % modality, 82.5 % addressee, 96.9 % actor under extraction rules 8 (86.7 %, 81.7 %, 96.9 % under rules 6 and 7); dev half 95.8 %, 91.7 %, 91.5 %; second dev set 94.7 %, 88.0 %, 91.8 % (91.0 % actor before the fifth session read a pronoun after a conditional clause as that clause's party; the test half, scored after it and at the fifth session's end, unchanged) (85.3 %, 79.3 %, 90.2 % before rules 8 and the keepers were tuned on it; 92.0 %, 85.3 %, 91.0 % before the fourth session's readings of rules, disclosures and transfers of responsibilities, which left the test half where it was) (rules 6: under rules 4-5 test 81.7 %, 77.5 %, 95.8 %, dev 87.5 %, 83.3 %, 86.3 %): notified bodies the readers count as authorities, instruments' purposes and certificates' contents the readers call no duty, impersonal and interview duties whose holder the readers name more narrowly than the engine; a second pair of readers of the test half agrees with the first on 89.2 % of modalities and 89.2 % of addressees, and the engine scores 92.5 %, 86.8 %, 96.8 % on the 106 items both readings agree on (docs/obligations.md, 'Two readers of the same text')";

/** Why the annex items (eighth session) do not meet them. */
const ANNEX_SHORTFALL =
  "annex items first scored 93.8 % modality, 60.0 % addressee, 92.0 % actor (95.0 %, 61.3 %, 92.1 % after the list reading was completed; 95.0 %, 63.7 %, 94.7 % once Annex VI's UDI-DI changes were the manufacturer's); 23 of the addressee differences are notified bodies, whose duties the reader labels an authority's under the brief's convention and the engine a regulated party's (88.8 % with them set aside); the rest are thing-subject duties without a party and UN R155's approval authority";

/** Why the second annex sample (ninth session, held out: scored once, its misses not read) does not meet them. */
const ANNEX2_SHORTFALL =
  "second annex sample (100 atoms, seed 20261129, none of the first's; the brief now holds notified bodies regulated parties) first and only scored 98.0 % modality, 92.0 % addressee, 86.9 % actor; held out, its misses are not read; 98.0 % / 93.0 % / 88.9 % at the twelfth session's end, as a side effect of rules read on the pt, lu and nl-investment-firm registers (nothing read on it)";

/** Why the second test sample (thirteenth session, held out: scored, its misses not read) does not meet them. */
const TEST2_SHORTFALL =
  "second test sample (200 atoms, seed 20261130, read twice under the stated brief: the readings agree on 98.5 % of modalities and 99.0 % of addressees) first scored 84.5 % modality, 79.5 % addressee, 88.1 % actor under rules 8; 89.5 %, 85.0 %, 88.8 % under rules 9's document-contents reading, tuned on the fourth dev sample read under the same brief (84.0 %, 78.5 %, 89.4 % under rules 8; 94.0 %, 86.0 %, 89.2 % under rules 9); 89.5 %, 85.5 %, 88.8 % at the session's end, after the grants and legal effects read on dev4 (98.0 %, 90.5 %, 89.2 %) and the fifth dev sample (91.5 %, 90.0 %, 90.7 % before tuning on it; 96.5 %, 92.5 %, 90.7 % after): those readings fit the items they were read on";

/** Why the sixth dev sample and the third test sample (fourteenth session) do not meet them. */
const TEST3_SHORTFALL =
  "third test sample (200 atoms, seed 20261204, read twice under the stated brief and held out: scored once, at the session's end, its misses not read) scored 92.5 % modality, 91.0 % addressee, 94.7 % actor under rules 10 (92.0 %, 90.5 %, 93.6 % under rules 9, scored afterwards for comparison); the sixth dev sample (seed 20261203, read twice) scored 91.0 %, 91.5 %, 93.9 % before tuning on it and 96.5 %, 94.0 %, 93.5 % after; test2 moved from 89.5 %, 85.5 %, 88.8 % (rules 9) to 89.5 %, 85.0 %, 88.8 % (rules 10): of the readings taken from the dev samples, only a little carries to the held-out ones";

/** Why the seventh dev sample (fifteenth session) and the held-out samples under rules 11 do not meet them. */
const DEV7_SHORTFALL =
  "seventh dev sample (200 atoms, seed 20261205, read twice: the readings agree on every modality and 99 % of addressees) scored 95.5 % modality, 90.0 % addressee, 91.1 % actor before tuning on it and 98.5 %, 92.0 %, 92.7 % after rules 11; the held-out samples (figures only, misses unread): test3 92.5 %, 91.5 %, 95.2 % (92.5 %, 91.0 %, 94.7 % under rules 10), test2 89.5 %, 85.0 %, 89.3 % (89.5 %, 85.0 %, 88.8 %); the eighth dev sample (seed 20261206, read twice, labels committed before scoring) scored once under the final rules 11, nothing tuned on it yet: 92.0 %, 89.0 %, 92.9 %: modality and addressee still short of the targets on every sample the rules were not read on";

/** Why the ninth dev sample (sixteenth session) and the held-out samples under rules 12 do not meet them. */
const DEV9_SHORTFALL =
  "ninth dev sample (200 atoms, seed 20261207, read twice: the readings agree on 99 % of modalities and 99 % of addressees; labels committed before scoring) scored 94.0 % modality, 90.5 % addressee, 91.7 % actor under the first rules 12 readings (read on dev8) and 98.0 %, 94.5 %, 93.2 % after the rest of rules 12 was read on it; the eighth dev sample moved from 92.0 %, 89.0 %, 92.9 % (rules 11, unread) to 95.5 %, 91.5 %, 93.0 %; the held-out samples (figures only, misses unread): test3 93.5 %, 91.5 %, 95.2 % (92.5 %, 91.5 %, 95.2 % under rules 11), test2 91.5 %, 86.5 %, 88.4 % (89.5 %, 85.0 %, 89.3 %): addressee, and modality on every held-out sample, still short of the targets";

/** Why the tenth dev sample (seventeenth session) does not meet them. */
const DEV10_SHORTFALL =
  "tenth dev sample (200 atoms, seed 20261208, read twice: the readings agree on 99.5 % of modalities and 99.5 % of addressees; labels committed before scoring) scored 93.0 % modality, 88.5 % addressee, 91.3 % actor under rules 12, before its misses were read, and 98.0 %, 95.0 %, 93.0 % after rules 13 were read on it; the held-out samples (figures only, misses unread): test3 94.0 %, 92.0 %, 95.2 % (93.5 %, 91.5 %, 95.2 % under rules 12), test2 91.5 %, 86.5 %, 88.4 % (unchanged): addressee and modality on every held-out sample, and actor on test2, still short of the targets";

/** Why the eleventh dev sample (eighteenth session) does not meet them. */
const DEV11_SHORTFALL =
  "eleventh dev sample (200 atoms, seed 20261209, read twice: the readings agree on 99.0 % of modalities and 98.0 % of addressees; labels committed before scoring) scored 93.5 % modality, 92.0 % addressee, 89.7 % actor under rules 13, before its misses were read, and 99.0 %, 96.5 %, 93.0 % after rules 14 were read on it; the held-out samples (figures only, misses unread) did not move: test3 94.0 %, 92.0 %, 95.2 %, test2 91.5 %, 86.5 %, 88.4 %: addressee and modality on every held-out sample, and actor here and on test2, still short of the targets";

/** Why the twelfth dev sample (nineteenth session) does not meet them. */
const DEV12_SHORTFALL =
  "twelfth dev sample (200 atoms, seed 20261210, read twice: the readings agree on 98.5 % of modalities and 97.0 % of addressees; labels committed before scoring) scored 94.5 % modality, 87.5 % addressee, 87.9 % actor under rules 14, before its misses were read, and 98.0 %, 93.5 %, 89.1 % after rules 15 were read on it; the held-out samples (figures only, misses unread): test3 94.0 %, 92.0 %, 95.2 % (unchanged), test2 91.0 %, 86.0 %, 88.9 % (91.5 %, 86.5 %, 88.4 % under rules 14): addressee and modality on every held-out sample, and actor here and on test2, still short of the targets";

/** The targets: modality ≥ 97 %, addressee ≥ 95 %, actor ≥ 95 %. */
function meetsTargets(s: Score): void {
  assert.ok(s.modality / s.items >= 0.97, `modality ${s.modality}/${s.items}`);
  assert.ok(s.addressee / s.items >= 0.95, `addressee ${s.addressee}/${s.items}`);
  assert.ok(s.actor / s.actor_items >= 0.95, `actor ${s.actor}/${s.actor_items}`);
}

describe("atoms against labels written from the text", () => {
  const scores = new Map<string, Score>();
  before(() => {
    const record = newestBuilt(ROOT, "eu");
    assert.ok(record, "npm test builds eu first");
    const release = loadRelease(releaseDir(ROOT, "eu", record.tag));
    const canon = readObligationsCanon(inWorkingTree(ROOT), "eu");
    const { atoms } = releaseAtoms(release.units, canon, "eu", true);
    const map = new ActorMap(canon.taxonomy);
    scores.set(
      "test",
      score(
        labels.filter((l) => l.n <= 120),
        atoms,
        map,
      ),
    );
    for (const file of [
      "labels-annex.json",
      "labels-annex2.json",
      "labels-test2.json",
      "labels-dev4.json",
      "labels-dev5.json",
      "labels-dev6.json",
      "labels-test3.json",
      "labels-dev7.json",
      "labels-dev8.json",
      "labels-dev9.json",
      "labels-dev10.json",
      "labels-dev11.json",
      "labels-dev12.json",
    ])
      scores.set(file, score(readLabels(join(ROOT, "eval", "atoms", file)), atoms, map));
    scores.set(
      "dev",
      score(
        labels.filter((l) => l.n > 120),
        atoms,
        map,
      ),
    );
  });

  test("240 labels, each on a node of the release, every value from the documented sets", () => {
    assert.deepEqual(
      labels.map((l) => l.n),
      Array.from({ length: 240 }, (_, i) => i + 1),
    );
    for (const l of labels) {
      assert.ok(["obligation", "prohibition", "permission", "none"].includes(l.modality), `#${l.n}`);
      assert.ok(
        ["regulated_party", "member_state", "public_authority", "union_body", "none"].includes(l.addressee),
        `#${l.n}`,
      );
    }
  });

  test("the second reading of the test half labels the same 120 sentences, from the documented sets", () => {
    const second = readLabels(join(ROOT, "eval", "atoms", "labels-test-r2.json"));
    assert.deepEqual(
      second.map((l) => [l.n, l.node, l.sentence]),
      labels.filter((l) => l.n <= 120).map((l) => [l.n, l.node, l.sentence]),
    );
    for (const l of second) {
      assert.ok(["obligation", "prohibition", "permission", "none"].includes(l.modality), `#${l.n}`);
      assert.ok(
        ["regulated_party", "member_state", "public_authority", "union_body", "none"].includes(l.addressee),
        `#${l.n}`,
      );
    }
  });

  // The annex samples: every label numbered in order, scored with the others' targets.
  for (const [name, file, count, why] of [
    ["the annex items rules 8 read (eval/atoms/README.md)", "labels-annex.json", 80, ANNEX_SHORTFALL],
    ["the second annex sample, held out", "labels-annex2.json", 100, ANNEX2_SHORTFALL],
    ["the second test sample, read twice and held out", "labels-test2.json", 200, TEST2_SHORTFALL],
    ["the fourth dev sample, read twice", "labels-dev4.json", 200, TEST2_SHORTFALL],
    ["the fifth dev sample, read twice", "labels-dev5.json", 200, TEST2_SHORTFALL],
    ["the sixth dev sample, read twice", "labels-dev6.json", 200, TEST3_SHORTFALL],
    ["the third test sample, read twice and held out", "labels-test3.json", 200, TEST3_SHORTFALL],
    ["the seventh dev sample, read twice", "labels-dev7.json", 200, DEV7_SHORTFALL],
    ["the eighth dev sample, read twice", "labels-dev8.json", 200, DEV9_SHORTFALL],
    ["the ninth dev sample, read twice", "labels-dev9.json", 200, DEV9_SHORTFALL],
    ["the tenth dev sample, read twice", "labels-dev10.json", 200, DEV10_SHORTFALL],
    ["the eleventh dev sample, read twice", "labels-dev11.json", 200, DEV11_SHORTFALL],
    ["the twelfth dev sample, read twice", "labels-dev12.json", 200, DEV12_SHORTFALL],
  ] as const) {
    test(`${name}: ${count} labels, scored with the others' targets`, { todo: why }, () => {
      const annex = readLabels(join(ROOT, "eval", "atoms", file));
      assert.deepEqual(
        annex.map((l) => l.n),
        Array.from({ length: count }, (_, i) => i + 1),
      );
      const s = scores.get(file) as Score;
      meetsTargets(s);
    });
  }

  for (const half of ["test", "dev"]) {
    test(`${half} half: modality ≥ 97 %, addressee ≥ 95 %, actor ≥ 95 %`, { todo: SHORTFALL }, () => {
      meetsTargets(scores.get(half) as Score);
    });
  }
});
