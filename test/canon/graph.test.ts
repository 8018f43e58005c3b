/**
 * The citation graph (src/canon/graph.ts) of a two-act made-up corpus: containment, references inside
 * an act resolved to units, references to the other act by number or name, amendments and repeals,
 * definition uses, and the references that resolve to nothing, counted.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildGraph } from "../../src/canon/graph.ts";
import type { Act, Corpus, Unit } from "../../src/canon/model.ts";

function unit(
  act: string,
  eid: string,
  kind: Unit["kind"],
  parent: string | null,
  own: string,
  extra: Partial<Unit> = {},
): Unit {
  return {
    node: `${act}/${eid}`,
    act,
    eid,
    kind,
    num: null,
    heading: null,
    parent: parent && `${act}/${parent}`,
    own_text: own,
    text: own,
    citation: eid,
    eli: eid,
    valid_from: "2100-01-01",
    valid_to: null,
    ...extra,
  };
}

const act = (id: string, number: string, short_name: string, aliases: string[] = []) =>
  ({ id, number, short_name, aliases, work_iri: `http://example.invalid/${id}` }) as Act;

function corpus(): Corpus {
  return {
    regime: "x",
    acts: [act("a", "2099/1", "WSR", ["Widget Safety Regulation"]), act("b", "2099/2", "GSR")],
    units: [
      unit("a", "art_1", "article", null, "For the purposes of this Regulation:"),
      unit("a", "art_1__point_1", "point", "art_1", "‘widget’ means any device;", { defines: "widget" }),
      unit("a", "art_2", "article", null, ""),
      unit("a", "art_2__para_1", "paragraph", "art_2", "Manufacturers shall keep records of each widget."),
      unit(
        "a",
        "art_2__para_2",
        "paragraph",
        "art_2",
        "The records referred to in paragraph 1 and in point (a) of Article 3 shall meet Annex I.",
      ),
      unit("a", "art_3", "article", null, "Importers shall verify Article 2(1) and Articles 4 to 5."),
      unit("a", "art_3__point_a", "point", "art_3", "the label;"),
      unit(
        "a",
        "art_4",
        "article",
        null,
        "As set out in Article 7 of Regulation (EU) 2099/2 and Article 9 of Directive 2000/31/EC.",
      ),
      unit(
        "a",
        "art_5",
        "article",
        null,
        "Regulation (EU) 2099/2 is hereby repealed. The Gadget rules apply until then.",
      ),
      unit(
        "a",
        "art_6",
        "article",
        null,
        "Regulation (EU) 2099/2 is amended as follows: Article 19a is inserted.",
        { heading: "Amendments to Regulation (EU) 2099/2" },
      ),
      unit("a", "anx_I", "annex", null, "Requirements of the GSR (three letters name no act)."),
      unit("b", "art_7", "article", null, "The Widget Safety Regulation and Article 8 apply."),
    ],
  };
}

const edges = (kind: string) =>
  buildGraph(corpus())
    .edges.filter((e) => e.kind === kind)
    .map((e) => `${e.from} -> ${e.to}${e.text ? ` (${e.text})` : ""}`);

describe("the citation graph", () => {
  test("containment follows parent links", () => {
    assert.deepEqual(edges("contains"), [
      "a/art_1 -> a/art_1__point_1",
      "a/art_2 -> a/art_2__para_1",
      "a/art_2 -> a/art_2__para_2",
      "a/art_3 -> a/art_3__point_a",
    ]);
  });

  test("references inside an act resolve to its units: articles, ranges, paragraphs, points, annexes", () => {
    assert.deepEqual(edges("refers_to"), [
      "a/art_2__para_2 -> a/art_3 (Article 3)",
      "a/art_2__para_2 -> a/art_3__point_a (point (a) of Article 3)",
      "a/art_2__para_2 -> a/art_2__para_1 (paragraph 1)",
      "a/art_2__para_2 -> a/anx_I (Annex I)",
      "a/art_3 -> a/art_2__para_1 (Article 2(1))",
      "a/art_3 -> a/art_4 (Articles 4 to 5)",
      "a/art_3 -> a/art_5 (Articles 4 to 5)",
      "a/art_4 -> b/art_7 (Article 7)",
    ]);
  });

  test("another act of the corpus is reached by number or by name (once per unit); amendments and repeals are read", () => {
    assert.deepEqual(edges("refers_to_act"), [
      "a/art_4 -> http://example.invalid/b (Regulation (EU) 2099/2)",
      "a/art_5 -> http://example.invalid/b (Regulation (EU) 2099/2)",
      "a/art_6 -> http://example.invalid/b (Regulation (EU) 2099/2)",
      "b/art_7 -> http://example.invalid/a (Widget Safety Regulation)",
    ]);
    assert.deepEqual(edges("repeals"), ["a/art_5 -> http://example.invalid/b (Regulation (EU) 2099/2)"]);
    assert.deepEqual(edges("amends"), ["a/art_6 -> http://example.invalid/b (Regulation (EU) 2099/2)"]);
  });

  test("a unit using a term its act defines links to the definition", () => {
    assert.deepEqual(edges("uses_definition"), ["a/art_2__para_1 -> a/art_1__point_1 (widget)"]);
  });

  test("references that resolve to nothing are listed with the reason, and their share is counted", () => {
    const g = buildGraph(corpus());
    assert.deepEqual(g.unresolved, [{ from: "b/art_7", text: "Article 8", reason: "b: no art_8" }]);
    assert.ok(g.unresolved_share > 0 && g.unresolved_share < 0.2, String(g.unresolved_share));
    assert.deepEqual(Object.keys(g.counts), [
      "amends",
      "contains",
      "refers_to",
      "refers_to_act",
      "repeals",
      "uses_definition",
    ]);
    assert.equal(g.counts.contains, 4);
  });

  test("an empty corpus has no edges and an unresolved share of 0", () => {
    assert.deepEqual(buildGraph({ regime: "x", acts: [], units: [] }), {
      edges: [],
      unresolved: [],
      counts: {},
      unresolved_share: 0,
    });
  });
});
