/**
 * Point in time (src/canon/validity.ts): each unit's valid_from/valid_to from its act's schedule, the
 * defects of a schedule that names what the text lacks, and the dates a provision states at its head.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ActCanon, Unit } from "../../src/canon/model.ts";
import { QualityLog } from "../../src/canon/quality.ts";
import { resolveValidity } from "../../src/canon/validity.ts";

function unit(eid: string, kind: Unit["kind"], parent: string | null, own = "Text."): Unit {
  return {
    node: `x/${eid}`,
    act: "x",
    eid,
    kind,
    num: null,
    heading: null,
    parent: parent && `x/${parent}`,
    own_text: own,
    text: own,
    citation: eid,
    eli: eid,
    valid_from: "",
    valid_to: null,
  };
}

function canon(over: Partial<ActCanon> = {}): ActCanon {
  return {
    id: "x",
    source: "x.json",
    sha256: "0".repeat(64),
    short_name: "X",
    aliases: [],
    title: "Regulation X",
    number: "2099/9",
    type: "reg",
    celex: "32099R0009",
    jurisdiction: "EU",
    language: "en",
    entry_into_force: { date: "2099-12-21", provision: "art_9" },
    application: { date: "2100-01-01", provision: "art_9" },
    schedule: [],
    caveats: [],
    amended_by: [],
    ...over,
  };
}

function units(): Unit[] {
  return [
    unit("rec_1", "recital", null),
    unit("chp_I", "chapter", null),
    unit("art_1", "article", "chp_I"),
    unit("art_2", "article", "chp_I", ""),
    unit("art_2__para_1", "paragraph", "art_2"),
    unit("art_2__para_2", "paragraph", "art_2"),
    unit("art_9", "article", null),
  ];
}

function resolve(c: ActCanon, us = units(), parser = 1) {
  const log = new QualityLog("x");
  resolveValidity(c, us, log, parser);
  const at = (eid: string) => us.find((u) => u.eid === eid) as Unit;
  return { at, log, defects: log.defects.map((d) => d.kind), repairs: log.repairs.map((r) => r.kind) };
}

describe("validity", () => {
  test("units apply from the act's date of application; recitals from its entry into force", () => {
    const { at, defects } = resolve(canon());
    assert.equal(at("art_1").valid_from, "2100-01-01");
    assert.equal(at("art_1").valid_to, null);
    assert.equal(at("rec_1").valid_from, "2099-12-21");
    assert.deepEqual(defects, []);
  });

  test("a schedule step covers the units below the eId it names, unless it excepts them", () => {
    const { at } = resolve(
      canon({
        schedule: [
          { from: "2101-07-01", scope: ["chp_I"], except: ["art_2__para_2"], provision: "art_9" },
          { from: "2102-01-01", scope: ["art_2__para_2"], provision: "art_9" },
        ],
      }),
    );
    assert.equal(at("art_1").valid_from, "2101-07-01");
    assert.equal(at("art_2__para_1").valid_from, "2101-07-01");
    assert.equal(at("art_2__para_2").valid_from, "2102-01-01");
    assert.equal(at("art_9").valid_from, "2100-01-01");
  });

  test("of several steps naming one eId the earliest governs; an until ends the unit, naming the provision", () => {
    const { at } = resolve(
      canon({
        schedule: [
          { from: "2103-01-01", scope: ["art_1"], provision: "art_9" },
          { from: "2101-01-01", scope: ["art_1"], until: "2104-01-01", provision: "other/art_43" },
        ],
      }),
    );
    assert.equal(at("art_1").valid_from, "2101-01-01");
    assert.equal(at("art_1").valid_to, "2104-01-01");
    assert.equal(at("art_1").ended_by, "other/art_43");
  });

  test("a schedule naming units the text lacks, caveats and a lost date are reported as defects", () => {
    const { defects } = resolve(
      canon({
        schedule: [
          { from: "2101-01-01", scope: ["art_77"], provision: "art_78", source_defect: "the date is lost" },
        ],
        caveats: ["Article 3 was deleted by a later act."],
        amended_by: [
          {
            celex: "32100R0001",
            title: "Regulation Y",
            published: "2100-02-01",
            provision: "Art 1",
            changes: "c",
            amends_text: ["art_55"],
          },
        ],
      }),
    );
    assert.deepEqual(defects, [
      "schedule_scope_unresolved",
      "schedule_provision_unresolved",
      "source_lost_date",
      "canon_caveat",
      "amendment_unit_unresolved",
    ]);
  });

  test("a directive's provisions bind through national law by its transposition deadline; without one it is a defect", () => {
    const withDeadline = resolve(
      canon({ type: "dir", transposition: { date: "2101-06-30", provision: "art_9" } }),
    );
    assert.equal(withDeadline.at("art_1").binding, "through national law");
    assert.equal(withDeadline.at("art_1").transposition_deadline, "2101-06-30");
    assert.equal(withDeadline.at("rec_1").binding, undefined);
    assert.deepEqual(resolve(canon({ type: "dir" })).defects, ["transposition_missing"]);
    assert.deepEqual(
      resolve(canon({ type: "dir", transposition: { date: "2101-06-30", provision: "art_99" } })).defects,
      ["transposition_provision_unresolved"],
    );
  });

  test("an amending act outside the corpus is named on the units whose date or text it changed", () => {
    const amending = {
      celex: "32100L0001",
      title: "Directive Y",
      published: "2100-02-01",
      provision: "Art 1",
      changes: "c",
    };
    const { at } = resolve(
      canon({
        amended_by: [{ ...amending, amends_text: ["art_2"] }],
        schedule: [
          {
            from: "2102-01-01",
            scope: ["art_1"],
            provision: "art_9",
            set_by: { celex: "32100L0001", provision: "Art 1(2)", original_from: "2101-01-01" },
          },
        ],
      }),
    );
    assert.deepEqual(at("art_1").amended_by, [
      { celex: "32100L0001", title: "Directive Y", what: "date", provision: "Art 1(2)" },
    ]);
    assert.deepEqual(at("art_2__para_1").amended_by, [
      { celex: "32100L0001", title: "Directive Y", what: "text", provision: "Art 1" },
    ]);
    assert.equal(at("art_9").amended_by, undefined);
  });

  test("parser 3: 'From <date>,' at a provision's head defers it; 'from A to B' also ends it after B", () => {
    const us = units();
    (us[4] as Unit).own_text = "From 1 March 2102, importers shall verify.";
    (us[5] as Unit).own_text = "From 1 March 2102 to 31 December 2103, distributors shall check.";
    (us[2] as Unit).own_text = "From 1 March 2099, nothing earlier than the act counts.";
    const older = resolve(canon(), units(), 2);
    assert.equal(older.at("art_2__para_1").valid_from, "2100-01-01");
    const { at, repairs } = resolve(canon(), us, 3);
    assert.equal(at("art_2__para_1").valid_from, "2102-03-01");
    assert.equal(at("art_2__para_2").valid_to, "2104-01-01");
    assert.equal(at("art_2__para_2").ended_by, "art_2__para_2");
    assert.equal(at("art_1").valid_from, "2100-01-01", "a date before the act's own is the act's business");
    assert.deepEqual(repairs, ["date_in_text", "date_in_text", "date_in_text"]);
  });

  test("parser 4: 'Until <date>,' ends a transitional provision the day after", () => {
    const us = units();
    (us[2] as Unit).own_text = "Until 30 June 2101, manufacturers may use the old label.";
    assert.equal(resolve(canon(), structuredClone(us), 3).at("art_1").valid_to, null);
    assert.equal(resolve(canon(), us, 4).at("art_1").valid_to, "2101-07-01");
  });
});
