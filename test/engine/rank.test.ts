/**
 * Ranking with roll-up to provisions (src/engine/query/rank.ts) over the fixture release's scores: the
 * best unit of each provision first, provisions diverse, ties on corpus order; a focus provision's units
 * first; acts alternated when several are named; plain score order without roll-up.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Engine } from "../../src/engine/context.ts";
import { type RankOptions, rank } from "../../src/engine/query/rank.ts";
import { fixtureEngine } from "../helpers/fixture-release.ts";

const e = fixtureEngine({ twoActs: true });
const docs = e.release.index.file.docs;
const scoreOf = (q: string, levels = true) =>
  e.release.index.score(e.release.index.analyser.terms(q), levels ? [e.provisionLevel, e.actLevel] : []);

function ranked(q: string, over: Partial<RankOptions> = {}, engine: Engine = e): string[] {
  const scored = scoreOf(q);
  const o: RankOptions = {
    requested: 6,
    admit: () => true,
    taken: new Set(),
    takenGroups: new Set(),
    recitalWeight: 0.6,
    spread: false,
    focus: null,
    rollUp: true,
    groupScore: scored.levels[0] ?? null,
    actScore: scored.levels[1] ?? null,
    actGate: null,
    ...over,
  };
  return rank(engine, scored, o).docs.map((d) => docs[d] as string);
}
const group = (node: string) => e.groupOf.get(node) as number;

describe("ranking", () => {
  test("each provision gives its best unit before any gives a second; ties go to corpus order", () => {
    const r = ranked("manufacturers records notification", { requested: 4 });
    const tops = r.map((n) => n.slice(0, n.indexOf("__") < 0 ? undefined : n.indexOf("__")));
    assert.equal(new Set(tops).size, tops.length, `provisions repeat: ${r.join(", ")}`);
    // The two acts hold the same text, so their provisions tie: the earlier act's comes first.
    assert.ok(
      r.indexOf("widgets/art_3__para_3__subpara_2") < r.indexOf("gadgets/art_3__para_3__subpara_2"),
      r.join(", "),
    );
  });

  test("the requested count caps the result; taken nodes and provisions are skipped", () => {
    assert.equal(ranked("serious incident", { requested: 2 }).length, 2);
    const free = ranked("serious incident", { requested: 3 });
    const [first] = free;
    assert.ok(first);
    const provision = e.docGroup[e.docOf.get(first) as number] as number;
    const without = ranked("serious incident", {
      requested: 3,
      taken: new Set([first]),
      takenGroups: new Set([provision]),
    });
    assert.ok(!without.includes(first));
    assert.ok(
      without.every((n) => e.docGroup[e.docOf.get(n) as number] !== provision),
      without.join(", "),
    );
  });

  test("only admitted units are ranked, and how many were admitted is counted", () => {
    const scored = scoreOf("serious incident");
    const onlyGadgets = (d: number) => (docs[d] as string).startsWith("gadgets/");
    const r = rank(e, scored, {
      requested: 10,
      admit: onlyGadgets,
      taken: new Set(),
      takenGroups: new Set(),
      recitalWeight: 1,
      spread: false,
      focus: null,
      rollUp: true,
      groupScore: null,
      actScore: null,
      actGate: null,
    });
    assert.ok(r.docs.every((d) => onlyGadgets(d)));
    assert.equal(r.admitted, [...scored.docs].filter(onlyGadgets).length);
  });

  test("a focus provision's units come first, best first", () => {
    const r = ranked("manufacturers", { focus: group("widgets/art_3"), requested: 4 });
    assert.ok(
      r.slice(0, 3).every((n) => n.startsWith("widgets/art_3")),
      r.join(", "),
    );
  });

  test("with several acts named, provisions alternate between the acts", () => {
    const r = ranked("manufacturers serious incident", { spread: true, requested: 4 });
    assert.deepEqual(
      r.map((n) => n.slice(0, n.indexOf("/"))),
      ["widgets", "gadgets", "widgets", "gadgets"],
    );
  });

  test("an act gate scales an act's provisions down", () => {
    const gate = Float64Array.from([0.01, 1]);
    const r = ranked("serious incident", { actGate: gate, requested: 3 });
    assert.ok(
      r.every((n) => n.startsWith("gadgets/")),
      r.join(", "),
    );
  });

  test("without roll-up, units come by score alone, recitals at their weight", () => {
    const plain = ranked("safety widgets", { rollUp: false, requested: 3, recitalWeight: 1 });
    const demoted = ranked("safety widgets", { rollUp: false, requested: 3, recitalWeight: 0 });
    assert.ok(
      plain.some((n) => n.includes("/rec_")),
      plain.join(", "),
    );
    assert.ok(!demoted.slice(0, 2).some((n) => n.includes("/rec_")), demoted.join(", "));
  });

  test("the same question ranks the same way twice", () => {
    assert.deepEqual(ranked("manufacturers notify"), ranked("manufacturers notify"));
  });
});
