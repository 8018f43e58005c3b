/**
 * POST /v1/answer's payload (src/engine/answer.ts) on the fixture release: the matched units and their
 * closure (article, definitions, derogations, duties), the status and notes a reader relies on, the
 * applicability section for a profile, the compact budget, and the refusals with their codes.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { AnswerRequest } from "../../src/contract/schemas.ts";
import { answer, COMPACT_MATCHES, corpusStamp, DEFAULT_MATCHES } from "../../src/engine/answer.ts";
import { createEngine } from "../../src/engine/context.ts";
import { ServiceError } from "../../src/engine/errors.ts";
import { fixtureEngine, fixtureRelease, fixtureScope, STAMPS } from "../helpers/fixture-release.ts";

const e = fixtureEngine();
const scope = fixtureScope(e);
const ask = (req: AnswerRequest, asOf = "2101-08-01") => answer(e, scope, req, asOf);
const refusal = (req: AnswerRequest) => {
  try {
    ask(req);
  } catch (err) {
    assert.ok(err instanceof ServiceError, String(err));
    return [err.code, err.message];
  }
  return ["answered"];
};

describe("answers", () => {
  test("a cited provision is matched with its article, the definitions it uses and the duties written in it", () => {
    const a = ask({ query: "Article 3(2) WSR", detail: "full" });
    assert.equal(a.status, "answered");
    assert.equal(a.in_force, true);
    assert.deepEqual(a.sections.match, ["widgets/art_3__para_2"]);
    assert.deepEqual(
      a.sections.ancestor,
      ["widgets/art_3", "widgets/chp_II"],
      "the article and the chapter it sits in",
    );
    assert.equal(
      a.blocks.find((b) => b.id === "widgets/chp_II")?.text,
      "Chapter II WSR: OBLIGATIONS OF ECONOMIC OPERATORS",
    );
    assert.ok(a.sections.definition.includes("widgets/art_2__point_3"), "serious incident");
    const duty = a.blocks.find((b) => b.role === "obligation");
    assert.equal(duty?.attached_to, "widgets/art_3__para_2");
    assert.equal(duty?.detail?.executable_unit, "hours");
    assert.deepEqual(a.retrieval, {
      mode: "auto",
      matches: 1,
      requested: DEFAULT_MATCHES,
      considered: 1,
      admitted: 1,
    });
    assert.equal(a.request.detail, "full");
    assert.equal(a.request.as_of_defaulted, true);
  });

  test("a provision a derogation disapplies brings the derogating provision", () => {
    const a = ask({ query: "Article 3(3) WSR", detail: "full" });
    const d = a.blocks.find((b) => b.role === "derogation");
    assert.equal(d?.id, "widgets/art_3__para_4");
    assert.equal(d?.detail?.derogation, "widgets-art-3-4-microenterprises");
  });

  test("a provision not yet applying on the date is answered with a note", () => {
    const a = ask({ query: "Article 4 WSR", as_of: "2101-08-01" });
    assert.equal(a.in_force, false);
    assert.deepEqual(a.notes, ["Article 4 WSR does not apply on 2101-08-01: it applies from 2102-01-01."]);
  });

  test("questions the release cannot answer: out of scope, no match", () => {
    const out = ask({ query: "UK GDPR breach notification" });
    assert.deepEqual(
      [out.status, out.out_of_scope, out.blocks],
      ["out-of-scope", ["UK GDPR breach notification"], []],
    );
    assert.match(out.notes[0] ?? "", /holds none of the instruments the question names: UK GDPR\.$/u);
    const partly = ask({ query: "WSR and CRR notification" });
    assert.deepEqual([partly.status, partly.out_of_scope], ["answered", ["CRR"]]);
    assert.ok(partly.notes.includes("Not in this release, so not answered: CRR."), partly.notes.join(" | "));
    const none = ask({ query: "banana bread recipe" });
    assert.equal(none.status, "no-match");
  });

  test("compact answers match five units and keep the closure within the budget", () => {
    const a = ask({ query: "manufacturers serious incident notification records" });
    assert.equal(a.retrieval.requested, COMPACT_MATCHES);
    assert.equal(a.request.detail, "compact");
    assert.ok(a.sections.match.length <= COMPACT_MATCHES);
    assert.deepEqual(a.omitted, {});
  });

  test("with a profile, applicability is decided over the profile's whole register, marking what was retrieved", () => {
    const a = ask({ query: "Article 3(3) WSR", entity_profile: "small-widget-maker", detail: "full" });
    assert.equal(a.applicability.decided, true);
    assert.equal(a.applicability.entity_profile, "small-widget-maker");
    const excluded = a.applicability.atoms.filter((x) => x.status === "excluded");
    assert.ok(excluded.length > 0 && excluded.every((x) => x.retrieved));
    assert.deepEqual(
      a.applicability.disapplied,
      excluded.map((x) => x.atom),
    );
    assert.ok(
      a.applicability.atoms.some((x) => !x.retrieved),
      "duties outside the answer are decided too",
    );
    const without = ask({ query: "Article 3(3) WSR", detail: "full" });
    assert.deepEqual(without.applicability.atoms, []);
    assert.deepEqual(without.blocks, a.blocks, "naming a profile never removes content");
  });

  test("filters admit units by eId and by the entity types their duties apply to", () => {
    const byEid = ask({ query: "manufacturers", filters: { eids: ["art_3"] }, detail: "full" });
    assert.ok(
      byEid.sections.match.length > 0 && byEid.sections.match.every((n) => n.startsWith("widgets/art_3")),
    );
    const byType = ask({ query: "market", filters: { entity_types: ["distributor"] }, detail: "full" });
    assert.deepEqual(byType.sections.match, ["widgets/art_5"]);
    const otherJurisdiction = ask({ query: "manufacturers", filters: { jurisdictions: ["UK"] } });
    assert.equal(otherJurisdiction.status, "no-match");
  });

  test("an unknown profile, or two profiles that disagree, is refused", () => {
    assert.deepEqual(refusal({ query: "records", entity_profile: "nobody" }), [
      "unknown_profile",
      'no entity profile "nobody" in fixture@2100.1',
    ]);
    assert.deepEqual(
      refusal({
        query: "records",
        entity_profile: "small-widget-maker",
        filters: { entity_profile: "widget-maker-size-unknown" },
      }),
      [
        "invalid_request",
        'entity_profile "small-widget-maker" and filters.entity_profile "widget-maker-size-unknown" disagree',
      ],
    );
    assert.deepEqual(refusal({ query: "records", release: "other@1" }), [
      "release_mismatch",
      'this instance serves fixture@2100.1, not "other@1"',
    ]);
  });

  test("every answer is stamped with the release it comes from", () => {
    const stamp = corpusStamp(e);
    assert.deepEqual(stamp, {
      release: "fixture@2100.1",
      regime: "fixture",
      tag: "2100.1",
      commit: "0".repeat(40),
      release_as_of: "2100-06-01",
      schema_version: "1",
      first_in_force: "2099-12-21",
      last_in_force: null,
      units: e.release.units.length,
      release_meta_sha256: "f".repeat(64),
    });
    const a = ask({ query: "records" });
    assert.deepEqual(
      [a.corpus, a.disclaimer, a.verification],
      [stamp, e.stamps.disclaimer, e.stamps.verification],
    );
  });

  test("the same request gives the same answer", () => {
    assert.deepEqual(ask({ query: "manufacturers notify" }), ask({ query: "manufacturers notify" }));
  });

  test("an act amended by another of the release: the amending provision, and from it, the act it amends", () => {
    const release = fixtureRelease({ twoActs: true });
    const gsr = release.acts.find((x) => x.id === "gadgets");
    assert.ok(gsr);
    release.edges.push({
      from: "widgets/art_6",
      kind: "amends",
      to: gsr.work_iri,
      text: "Regulation 2099/2",
    });
    const two = createEngine(release, STAMPS);
    const ask2 = (query: string) => answer(two, fixtureScope(two), { query, detail: "full" }, "2101-08-01");
    const amending = ask2("Article 1 GSR").blocks.find((b) => b.role === "amendment");
    assert.deepEqual(
      [amending?.id, amending?.attached_to, amending?.detail?.kind],
      ["widgets/art_6", "gadgets/art_1", "amends"],
    );
    const amended = ask2("Article 6 WSR").blocks.find((b) => b.role === "amended");
    assert.deepEqual(
      [amended?.id, amended?.text, amended?.citation.label, amended?.citation.node],
      [gsr.work_iri, gsr.title, "GSR", null],
    );
  });
});
