/**
 * Reading a regime's canon (src/canon/regime.ts) in the form written before one file per act (every act
 * under `acts:` in regime.yaml), which recorded releases still rebuild from. The one-file-per-act form
 * and its schema errors are tested against the eu canon in canon-schema.test.ts.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Reader } from "../../src/canon/reader.ts";
import { CanonError, parseRegime, readRegimeCanon } from "../../src/canon/regime.ts";
import { FIXTURE } from "../helpers/fixture-release.ts";

const REV1 = readFileSync(join(FIXTURE, "canon", "rev1.yaml"), "utf8");
const FILE = "regimes/fixture/regime.yaml";

/** rev1 with one line replaced, parsed; returns the error message (or "parsed"). */
function refusal(from: string, to: string): string {
  assert.ok(REV1.includes(from), from);
  try {
    parseRegime(REV1.replace(from, to), FILE);
    return "parsed";
  } catch (e) {
    assert.ok(e instanceof CanonError, String(e));
    return e.message;
  }
}

describe("legacy regime canon", () => {
  test("the fixture's regime.yaml reads as one act with its dates and schedule; parser defaults to 1", () => {
    const canon = parseRegime(REV1, FILE);
    assert.equal(canon.regime, "fixture");
    assert.equal(canon.as_of, "2100-06-01");
    assert.equal(canon.parser, 1);
    assert.deepEqual(canon.licence, {
      corpus: "CC-BY-4.0",
      attribution: "Fictional text written for the acquis test suite.",
    });
    const [act] = canon.acts;
    assert.equal(act?.id, "widgets");
    assert.equal(act?.celex, "32099R0001", "a number YAML reads as a number stands for its digits");
    assert.deepEqual(act?.application, { date: "2100-01-01", provision: "art_6__subpara_2" });
    assert.deepEqual(act?.schedule, [
      { from: "2101-07-01", scope: ["art_3"], provision: "art_6__subpara_3" },
    ]);
    assert.deepEqual([act?.caveats, act?.amended_by, act?.aliases], [[], [], ["Widget Safety Regulation"]]);
  });

  test("readRegimeCanon reads the legacy form through a reader, and names a regime it cannot find", () => {
    const reader: Reader = { read: (p) => (p === FILE ? REV1 : null), list: () => [] };
    assert.equal(readRegimeCanon(reader, "fixture").acts.length, 1);
    assert.throws(() => readRegimeCanon(reader, "nope"), {
      message: 'no canon for regime "nope": regimes/nope/regime.yaml does not exist',
    });
  });

  test("mistakes are refused naming the file, the act and the key", () => {
    const at = `${FILE}: acts[0] (widgets)`;
    assert.equal(
      refusal("type: reg", "type: regulation"),
      `${at}.type: "regulation" is not one of reg, dir, reg_del, reg_impl, un_reg`,
    );
    assert.equal(refusal("sha256: ca59", "sha256: CA59"), `${at}.sha256: not a lowercase hex SHA-256`);
    assert.equal(
      refusal("    eli: http://data.europa.eu/eli/reg/2099/1/oj\n", ""),
      `${at}.eli: required for an EU act`,
    );
    assert.equal(
      refusal("as_of: 2100-06-01", "as_of: 1 June 2100"),
      `${FILE}: as_of: "1 June 2100" is not a YYYY-MM-DD date`,
    );
    assert.equal(
      refusal("title: Fictional", "titel: Fictional"),
      `${FILE}: unknown key "titel" (known: regime, title, as_of, licence, parser, acts)`,
    );
    assert.equal(
      refusal("as_of: 2100-06-01", "as_of: 2100-06-01\nparser: 9"),
      `${FILE}: parser: 9 is not one of the parser versions 1, 2, 3, 4, 5`,
    );
    assert.equal(
      refusal(
        "application: { date: 2100-01-01, provision: art_6__subpara_2 }",
        "application: { date: 2100-01-01 }",
      ),
      `${at}.application: name the provision that states the date, or its basis`,
    );
    assert.equal(
      refusal("        scope: [art_3]\n", "        scope: art_3\n"),
      `${at}.schedule[0].scope: expected a list`,
    );
    assert.equal(
      refusal("    short_name: WSR", '    short_name: ""'),
      `${at}.short_name: expected a non-empty string`,
    );
    assert.equal(
      refusal("licence:\n", "licence: none\nx:\n"),
      `${FILE}: unknown key "x" (known: regime, title, as_of, licence, parser, acts)`,
    );
    assert.match(
      refusal("regime: fixture", "regime: [fixture"),
      /^regimes\/fixture\/regime\.yaml: not valid YAML: /u,
    );
  });

  test("an act listed twice is refused", () => {
    const acts = REV1.slice(REV1.indexOf("  - id: widgets"));
    assert.throws(() => parseRegime(`${REV1}${acts}`, FILE), {
      message: `${FILE}: act id "widgets" appears twice`,
    });
  });

  test("an amended date must name one of the act's amending acts, whose CELEX is checked", () => {
    const setBy =
      "application: { date: 2100-01-01, provision: art_6__subpara_2, set_by: { celex: 32100R0001, provision: Art 1, original_from: 2099-06-01 } }";
    assert.equal(
      refusal("application: { date: 2100-01-01, provision: art_6__subpara_2 }", setBy),
      `${FILE}: acts[0] (widgets).application.set_by.celex: 32100R0001 is not one of the act's amended_by (none)`,
    );
    const amended = `${setBy}\n    amended_by:\n      - { celex: "32100R0001", title: Regulation Y, published: 2100-02-01, provision: Art 1, changes: moved the date }`;
    assert.equal(
      refusal("application: { date: 2100-01-01, provision: art_6__subpara_2 }", amended),
      "parsed",
    );
    assert.equal(
      refusal(
        "application: { date: 2100-01-01, provision: art_6__subpara_2 }",
        amended.replace('"32100R0001", title', '"2100/1", title'),
      ),
      `${FILE}: acts[0] (widgets).amended_by[0].celex: "2100/1" is not the CELEX number of an act (3YYYYLNNNN)`,
    );
  });

  test("a UN regulation needs no ELI; optional keys are kept when given", () => {
    const un = parseRegime(
      REV1.replace("type: reg", "type: un_reg")
        .replace(
          "    eli: http://data.europa.eu/eli/reg/2099/1/oj\n",
          "    published: 2099-12-01\n    notes: fictional\n",
        )
        .replace(
          "    schedule:",
          "    transposition: { date: 2101-01-01, basis: none }\n    caveats: [read with care]\n    schedule:",
        ),
      FILE,
    );
    const [act] = un.acts;
    assert.equal(act?.eli, undefined);
    assert.equal(act?.published, "2099-12-01");
    assert.equal(act?.notes, "fictional");
    assert.deepEqual(act?.transposition, { date: "2101-01-01", basis: "none" });
    assert.deepEqual(act?.caveats, ["read with care"]);
  });
});
