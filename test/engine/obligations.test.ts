/**
 * POST /v1/obligations' payload (src/engine/obligations.ts) on the fixture release: the register of a
 * profile on a date, lifted and undetermined duties with their reasons, paging that always advances,
 * and the refusal of an unknown profile.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createEngine } from "../../src/engine/context.ts";
import { ServiceError } from "../../src/engine/errors.ts";
import { obligations, register } from "../../src/engine/obligations.ts";
import { fixtureEngine, fixtureRelease, STAMPS } from "../helpers/fixture-release.ts";

const e = fixtureEngine();
const list = (profile: string, as_of = "2101-08-01") =>
  obligations(e, { entity_profile: profile, as_of }, "2101-08-01");

describe("the obligations register", () => {
  test("a small maker: its duties in force apply; paragraph 3, which paragraph 4 lifts for microenterprises, is excluded", () => {
    const r = list("small-widget-maker");
    assert.deepEqual(
      [r.entity_profile, r.entity_type, r.binds],
      ["small-widget-maker", "manufacturer", ["economic_operator", "manufacturer"]],
    );
    assert.deepEqual(
      r.applicable.map((x) => x.unit_eid),
      ["art_3__para_1", "art_3__para_2"],
    );
    // Rules 9: the points (a) to (c), what the notification contains, are the manufacturers' duties;
    // paragraph 4 lifts all of paragraph 3, its points with it.
    assert.deepEqual(
      r.excluded.map((x) => x.unit_eid),
      [
        "art_3__para_3__point_a",
        "art_3__para_3__point_b",
        "art_3__para_3__point_c",
        "art_3__para_3__subpara_2",
      ],
    );
    const x = r.excluded.at(-1);
    assert.deepEqual(
      [x?.derogation?.derogating_node, x?.reasons.facts, x?.addressee],
      ["widgets/art_3__para_4", ["staff_headcount < 10"], "regulated_party"],
    );
    assert.equal(x?.provision, "Article 3(3), second subparagraph WSR");
    assert.deepEqual(r.counts, {
      applicable: 2,
      excluded: 4,
      undetermined: 0,
      by_act: { widgets: { applicable: 2, excluded: 4, undetermined: 0 } },
    });
    assert.equal("page" in r, false, "without offset or limit the register is complete");
  });

  test("a maker of unstated size: what the derogation decides is undetermined, naming the fact", () => {
    const r = list("widget-maker-size-unknown");
    assert.equal(r.undetermined.length, 4);
    assert.deepEqual(r.undetermined.at(-1)?.reasons.undetermined_by, {
      provision: "widgets/art_3__para_4",
      facts: ["staff_headcount < 10"],
    });
  });

  test("before the article applies, its duties are not in the register", () => {
    assert.deepEqual(list("small-widget-maker", "2100-06-01").counts.applicable, 0);
  });

  test("pages hold at most limit items, in the order applicable, excluded, undetermined, and say where to go on", () => {
    const first = obligations(
      e,
      { entity_profile: "small-widget-maker", as_of: "2101-08-01", limit: 2 },
      "2101-08-01",
    );
    assert.ok("page" in first);
    assert.deepEqual(first.page, { offset: 0, limit: 2, items: 2, total: 6, next_offset: 2 });
    assert.deepEqual([first.applicable.length, first.excluded.length], [2, 0]);
    const next = obligations(
      e,
      { entity_profile: "small-widget-maker", as_of: "2101-08-01", offset: 2 },
      "2101-08-01",
    );
    assert.ok("page" in next);
    assert.deepEqual(next.page, { offset: 2, limit: 1000, items: 4, total: 6, next_offset: null });
    assert.deepEqual(
      next.excluded.map((x) => x.unit_eid),
      [
        "art_3__para_3__point_a",
        "art_3__para_3__point_b",
        "art_3__para_3__point_c",
        "art_3__para_3__subpara_2",
      ],
    );
  });

  test("an unknown profile is refused, listing the profiles there are", () => {
    assert.throws(
      () => list("nobody"),
      (err: Error) =>
        err instanceof ServiceError &&
        err.code === "unknown_profile" &&
        err.message ===
          'no entity profile "nobody" in fixture@2100.1 (profiles: small-widget-maker, widget-maker-size-unknown)',
    );
  });

  test("a directive's duties bind through national law from its date of application, by its transposition deadline", () => {
    const release = fixtureRelease();
    const act = release.acts[0];
    assert.ok(act);
    act.type = "dir";
    act.transposition = { date: "2100-06-30", provision: "art_7" };
    const dir = createEngine(release, STAMPS);
    const profile = dir.release.profiles.find((p) => p.id === "small-widget-maker");
    assert.ok(profile);
    const [first] = register(dir, profile, "2101-08-01").applicable;
    assert.deepEqual(first?.reasons.through_national_law, {
      directive: first?.atom.node,
      national_law_from: "2100-01-01",
      provision: "widgets/art_7__subpara_2",
      transposition_deadline: "2100-06-30",
      transposition_provision: "widgets/art_7",
    });
  });
});
