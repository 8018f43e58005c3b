/**
 * Amendments as canon data (issue 16): a date an amending act moved names that act, and the canon
 * refuses an amendment it cannot trace, naming the file and the key.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { inWorkingTree, type Reader } from "../../src/canon/reader.ts";
import { CanonError, readRegimeCanon } from "../../src/canon/regime.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const EUDR = "regimes/eu/acts/eudr.yaml";
const text = readFileSync(join(ROOT, EUDR), "utf8");
const tree = inWorkingTree(ROOT);
/** The eu canon with EUDR's file reading `eudr`. */
const withEudr = (eudr: string): Reader => ({
  read: (p) => (p === EUDR ? eudr : tree.read(p)),
  list: tree.list,
});
const parseRegime = (eudr: string, _file?: string) => readRegimeCanon(withEudr(eudr), "eu");
const FILE = EUDR;

describe("amending acts in the canon", () => {
  test("every moved date names an amending act the act lists, and keeps the adopted date", () => {
    const canon = parseRegime(text, FILE);
    const eudr = canon.acts.find((a) => a.id === "eudr");
    assert.ok(eudr);
    const moved = eudr.schedule.filter((s) => s.set_by);
    assert.deepEqual(
      moved.map((s) => [s.set_by?.original_from, s.from]),
      [
        ["2024-12-30", "2026-12-30"],
        ["2025-06-30", "2027-06-30"],
      ],
    );
    for (const a of canon.acts)
      for (const by of [a.application.set_by, ...a.schedule.map((s) => s.set_by)])
        if (by)
          assert.ok(
            a.amended_by.some((m) => m.celex === by.celex),
            `${a.id}: ${by.celex}`,
          );
  });

  test("a set_by naming an act the canon does not list is refused, with the key", () => {
    const broken = text.replace("set_by: { celex: 32025R2650,", "set_by: { celex: 32099R9999,");
    assert.throws(
      () => parseRegime(broken, FILE),
      (e: unknown) =>
        e instanceof CanonError &&
        /eudr\.yaml \(eudr\)\.schedule\[0\]\.set_by\.celex: 32099R9999 is not one of/u.test(e.message),
    );
  });

  test("every directive of the canon names its transposition deadline and the article that sets it", () => {
    const canon = parseRegime(text, FILE);
    const directives = canon.acts.filter((a) => a.type === "dir");
    assert.ok(directives.length >= 12);
    for (const d of directives) {
      assert.match(d.transposition?.date ?? "", /^\d{4}-\d{2}-\d{2}$/u, d.id);
      assert.match(d.transposition?.provision ?? "", /^art_\d+/u, d.id);
    }
  });

  test("a malformed CELEX and an unknown key are refused", () => {
    assert.throws(
      () => parseRegime(text.replace("- celex: 32024R3234", "- celex: 2024/3234"), FILE),
      /eudr\.yaml:\d+: amended_by\[0\]\.celex: "2024\/3234" does not match CELEX of an act/u,
    );
    assert.throws(
      () =>
        parseRegime(
          text.replace(
            '    provision: Art 1\n    changes: "Art 38(2)',
            '    provision: Art 1\n    article: Art 1\n    changes: "Art 38(2)',
          ),
          FILE,
        ),
      /eudr\.yaml:\d+: amended_by\[0\]\.article: unknown key "article"/u,
    );
  });
});
