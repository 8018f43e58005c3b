/**
 * The fidelity fixture (eval/fidelity, issue 16): 80 provisions drawn at random from the sources and
 * read by a person from the act texts. Every unit's eId, first words and dates must match the fixture,
 * except the differences eval/fidelity/disagreements.yaml lists with the side the text supports; a listed
 * difference that no longer exists fails too, so the list stays true.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { parse } from "yaml";
import type { Unit } from "../../src/canon/model.ts";
import { type LoadedRelease, loadRelease } from "../../src/release/load.ts";
import { newestBuilt, releaseDir } from "../../src/release/releases.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const DIR = join(ROOT, "eval", "fidelity");

interface Entry {
  n: number;
  node: string;
  text_start: string | null;
  valid_from: string | Date;
  valid_to: string | Date | null;
  note?: string;
}
type Field = "node" | "text_start" | "valid_from" | "valid_to";

const day = (d: string | Date | null) => (d instanceof Date ? d.toISOString().slice(0, 10) : d);
const words = (s: string) => s.replace(/\s+/gu, " ").trim();
/** A unit's text as the fixture quotes it: without the label it is printed with ("1. ", "(a) "). */
const body = (s: string) => words(s).replace(/^(?:\d+(?:\.\d+)*[a-z]?\.|\([a-z0-9]+\))\s+/u, "");

describe("the fidelity fixture", () => {
  const fixture = parse(readFileSync(join(DIR, "fixture.yaml"), "utf8"), { schema: "core" }) as Entry[];
  const known = parse(readFileSync(join(DIR, "disagreements.yaml"), "utf8")) as {
    n: number;
    field: Field;
    reason: string;
  }[];
  let release: LoadedRelease;
  before(() => {
    const record = newestBuilt(ROOT, "eu");
    assert.ok(record, "npm test builds eu first");
    release = loadRelease(releaseDir(ROOT, "eu", record.tag));
  });

  /** Each difference between the release and the fixture, as "n field". */
  const differences = (): string[] => {
    const out: string[] = [];
    for (const e of fixture) {
      const u: Unit | undefined = release.byNode.get(e.node);
      if (e.text_start === null) {
        // The fixture says this is no provision at all (a scrape artefact): the release must not have it.
        if (u) out.push(`${e.n} node`);
        continue;
      }
      if (!u) {
        out.push(`${e.n} node`);
        continue;
      }
      if (!body(u.text).startsWith(words(e.text_start))) out.push(`${e.n} text_start`);
      if (day(e.valid_from) !== u.valid_from) out.push(`${e.n} valid_from`);
      if (day(e.valid_to) !== u.valid_to) out.push(`${e.n} valid_to`);
    }
    return out;
  };

  test("at least 60 distinct provisions and 25 dates, drawn at random", () => {
    const distinct = new Set(fixture.filter((e) => e.text_start !== null).map((e) => e.node));
    assert.ok(distinct.size >= 60, `${distinct.size} provisions`);
    assert.ok(fixture.filter((e) => e.valid_from).length >= 25);
  });

  test("every provision matches the fixture but the differences listed with their reason", () => {
    const listed = known.map((k) => `${k.n} ${k.field}`);
    for (const k of known) assert.ok(k.reason.length > 40, `${k.n}: a reason a reviewer can check`);
    assert.deepEqual(
      differences().filter((d) => !listed.includes(d)),
      [],
      "differences not in eval/fidelity/disagreements.yaml",
    );
    assert.deepEqual(
      listed.filter((d) => !differences().includes(d)),
      [],
      "listed differences that no longer differ: remove them",
    );
  });
});
