/**
 * The regime canon, one file per act, checked against its JSON Schema: the eu canon reads, mistakes are
 * refused with file, line and key, and the schemas editors use (docs/schemas/) are the ones the code
 * checks with. `ACQUIS_WRITE_SCHEMAS=1 node --test test/canon/canon-schema.test.ts` rewrites them.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ActFile, RegimeFile } from "../../src/canon/canon-schema.ts";
import { inWorkingTree, type Reader } from "../../src/canon/reader.ts";
import { CanonError, readRegimeCanon } from "../../src/canon/regime.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const SCHEMAS: [string, unknown][] = [
  ["act-canon.schema.json", ActFile],
  ["regime-canon.schema.json", RegimeFile],
];

/** The eu canon with one file replaced (or removed, with null). */
function withFile(path: string, text: string | null): Reader {
  const tree = inWorkingTree(ROOT);
  return {
    read: (p) => (p === path ? text : tree.read(p)),
    list: (d) => {
      const names = tree.list(d);
      const dir = path.slice(0, path.lastIndexOf("/"));
      const name = path.slice(path.lastIndexOf("/") + 1);
      if (d !== dir) return names;
      return [...new Set([...names, name])].filter((n) => n !== name || text !== null).sort();
    },
  };
}

const GDPR = "regimes/eu/acts/gdpr.yaml";
const gdpr = readFileSync(join(ROOT, GDPR), "utf8");
const lineOf = (needle: string) => gdpr.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("regime canon: one file per act", () => {
  test("the eu canon reads as 49 acts, one file each, in file-name order", () => {
    const canon = readRegimeCanon(inWorkingTree(ROOT), "eu");
    assert.equal(canon.acts.length, 49);
    assert.equal(canon.parser, 5);
    const ids = canon.acts.map((a) => a.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => (`${a}.yaml` < `${b}.yaml` ? -1 : 1)),
    );
  });

  const refused: [string, string, RegExp][] = [
    [
      "an unknown key",
      gdpr.replace("short_name: GDPR", "short_name: GDPR\nshortname: GDPR"),
      new RegExp(`^${GDPR}:${lineOf("short_name: GDPR") + 1}: shortname: unknown key "shortname"$`, "u"),
    ],
    [
      "a date that is not YYYY-MM-DD",
      gdpr.replace("date: 2018-05-25", "date: 25 May 2018"),
      new RegExp(
        `^${GDPR}:${lineOf("date: 2018-05-25")}: application\\.date: "25 May 2018" does not match a date, YYYY-MM-DD$`,
        "u",
      ),
    ],
    [
      "an act type that does not exist",
      gdpr.replace("type: reg", "type: regulation"),
      new RegExp(
        `^${GDPR}:${lineOf("type: reg")}: type: "regulation" is not one of reg, dir, reg_del, reg_impl, un_reg$`,
        "u",
      ),
    ],
    [
      "a missing key",
      gdpr.replace(/^celex: .*\n/mu, ""),
      new RegExp(`^${GDPR}:\\d+: missing key "celex"$`, "u"),
    ],
    [
      "a schedule step with an unknown key",
      gdpr.replace(
        "schedule: []",
        "schedule:\n  - from: 2018-05-25\n    scope: [art_1]\n    provision: art_99\n    when: always",
      ),
      new RegExp(`^${GDPR}:${lineOf("schedule: []") + 4}: schedule\\[0\\]\\.when: unknown key "when"$`, "u"),
    ],
    [
      "an id that is not the file's name",
      gdpr.replace("id: gdpr", "id: gdpr2"),
      /gdpr\.yaml: id "gdpr2" does not match the file name/u,
    ],
    ["YAML that does not parse", `${gdpr}\n  bad: [`, new RegExp(`^${GDPR}:\\d+: not valid YAML`, "u")],
  ];
  for (const [what, text, message] of refused)
    test(`${what} is refused with file, line and key`, () => {
      assert.throws(
        () => readRegimeCanon(withFile(GDPR, text), "eu"),
        (e: Error) => e instanceof CanonError && message.test(e.message),
      );
    });

  test("a parser version that does not exist is refused in regime.yaml", () => {
    const file = "regimes/eu/regime.yaml";
    const text = readFileSync(join(ROOT, file), "utf8").replace("parser: 5", "parser: 9");
    assert.throws(
      () => readRegimeCanon(withFile(file, text), "eu"),
      (e: Error) => /^regimes\/eu\/regime\.yaml:\d+: parser: 9 is not one of 1, 2, 3, 4, 5$/u.test(e.message),
    );
  });

  test("a regime without act files is refused, naming the folder", () => {
    const empty: Reader = { read: (p) => inWorkingTree(ROOT).read(p), list: () => [] };
    assert.throws(() => readRegimeCanon(empty, "eu"), /regimes\/eu\/acts\/: no act files/u);
  });

  test("docs/schemas holds the schemas the canon is checked with", () => {
    for (const [name, schema] of SCHEMAS) {
      const path = join(ROOT, "docs", "schemas", name);
      const text = `${JSON.stringify(schema, null, 2)}\n`;
      if (process.env.ACQUIS_WRITE_SCHEMAS === "1") writeFileSync(path, text);
      assert.equal(
        readFileSync(path, "utf8"),
        text,
        `${name} is out of date: rerun with ACQUIS_WRITE_SCHEMAS=1`,
      );
    }
  });
});
