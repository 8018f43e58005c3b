/**
 * The quality baseline (src/canon/quality-baseline.ts): how many findings of each check and defect kind
 * a release may have, and why; a count above it is named with its examples; a mistake in the file is
 * refused with the file and line.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BaselineError, excesses, parseBaseline } from "../../src/canon/quality-baseline.ts";

describe("quality baseline", () => {
  const yaml = `checks:\n  lost_in_source:\n    count: 2\n    why: the source lost them\ndefects:\n  empty_point:\n    count: 1\n    why: bare labels\n`;

  test("a count within the baseline passes; one above it is named with its examples", () => {
    const baseline = parseBaseline(yaml, "b.yaml");
    const checks = [
      { check: "lost_in_source", count: 2, examples: [] },
      { check: "title_in_text", count: 1, examples: [{ node: "x/art_1", detail: "title" }] },
    ];
    const defects = [
      { act: "x", kind: "empty_point", eid: "art_1__point_a", detail: "no text" },
      { act: "x", kind: "empty_point", eid: "art_1__point_b", detail: "no text" },
    ];
    assert.deepEqual(
      excesses(baseline, checks, defects).map((e) => [e.what, e.count, e.allowed, e.examples[0]]),
      [
        ["check title_in_text", 1, 0, "x/art_1: title"],
        ["defect empty_point", 2, 1, "x/art_1__point_a: no text"],
      ],
    );
  });

  test("an unknown check, an unknown key, a bad count or a count without why is refused with file and line", () => {
    const bad: [string, RegExp][] = [
      ["checks:\n  no_such_check:\n    count: 0\n", /b\.yaml:2: checks\.no_such_check is not a check/u],
      [
        "checks:\n  lost_in_source:\n    count: 1\n",
        /b\.yaml:2: checks\.lost_in_source: a count above 0 needs why/u,
      ],
      ["checks:\n  lost_in_source:\n    count: -1\n", /count must be a whole number/u],
      ["checks:\n  lost_in_source:\n    count: 0\n    because: x\n", /unknown key "because"/u],
      ["limits: {}\n", /b\.yaml:1: unknown key "limits"/u],
    ];
    for (const [text, message] of bad)
      assert.throws(
        () => parseBaseline(text, "b.yaml"),
        (e: Error) => e instanceof BaselineError && message.test(e.message),
      );
  });
});

describe("quality baseline file", () => {
  test("a baseline reads as allowances by check and by defect kind", () => {
    assert.deepEqual(
      parseBaseline(
        "checks:\n  lost_in_source:\n    count: 2\n    why: the source lost them\ndefects:\n  empty_point:\n    count: 0\n",
        "b.yaml",
      ),
      {
        checks: { lost_in_source: { count: 2, why: "the source lost them" } },
        defects: { empty_point: { count: 0 } },
      },
    );
    assert.deepEqual(parseBaseline("checks: {}\ndefects: {}\n", "b.yaml"), { checks: {}, defects: {} });
  });

  test("an empty section (checks: with nothing under it) allows nothing", () => {
    assert.deepEqual(parseBaseline("checks:\ndefects:\n", "b.yaml"), { checks: {}, defects: {} });
  });

  test("a file that is not YAML, not a mapping, or holds a bad entry is refused", () => {
    const bad: [string, RegExp][] = [
      ["checks: [\n", /^b\.yaml: /u],
      ["- a\n- b\n", /^b\.yaml: expected a mapping with checks: and defects:$/u],
      ["checks: [a]\n", /^b\.yaml:1: checks must be a mapping$/u],
      [
        "defects:\n  empty_point: 3\n",
        /^b\.yaml:2: defects\.empty_point must be a mapping with count: and why:$/u,
      ],
      [
        "defects:\n  empty_point:\n    count: 1\n    why: '  '\n",
        /^b\.yaml:2: defects\.empty_point\.why must be a sentence$/u,
      ],
    ];
    for (const [text, message] of bad)
      assert.throws(
        () => parseBaseline(text, "b.yaml"),
        (e: Error) => e instanceof BaselineError && message.test(e.message),
        text,
      );
  });

  test("nothing found, nothing exceeds; defects beyond five show their first five examples", () => {
    const none = parseBaseline("checks: {}\n", "b.yaml");
    assert.deepEqual(excesses(none, [{ check: "lost_in_source", count: 0, examples: [] }], []), []);
    const defects = Array.from({ length: 7 }, (_, i) => ({
      act: "x",
      kind: "k",
      eid: i ? `art_${i}` : null,
      detail: "d",
    }));
    const [e] = excesses(none, [], defects);
    assert.deepEqual(
      [e?.what, e?.count, e?.allowed, e?.examples.length, e?.examples[0]],
      ["defect k", 7, 0, 5, "x/(act): d"],
    );
  });
});
