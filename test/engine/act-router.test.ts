/**
 * The act router (src/engine/query/act-router.ts) over the fixture's two acts, which share their text:
 * only the router's question counts tell them apart, so an act whose questions used a question's words
 * leads; the other keeps a positive weight, only lower; sharper routers separate more.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ActRouter } from "../../src/engine/query/act-router.ts";
import { ROUTER_FORMAT, type RouterFile } from "../../src/search/act-router.ts";
import { fixtureEngine } from "../helpers/fixture-release.ts";

const router = (sharpness: number): RouterFile => ({
  format: ROUTER_FORMAT,
  trained_on: "test",
  question_weight: 0.5,
  sharpness,
  acts: { gadgets: { questions: 4, terms: { recal: 3, gadget: 5 } } },
});
const e = fixtureEngine({ twoActs: true, router: router(1) });

describe("the act router", () => {
  test("a release with a router file gets one", () => {
    assert.ok(e.router instanceof ActRouter);
  });

  test("no terms, no weights", () => {
    assert.equal(e.router?.weights([]), null);
  });

  test("the act asked about in training leads with weight 1; the other is reachable, at less", () => {
    const [widgets, gadgets] = [...(e.router?.weights(["recal", "gadget"]) ?? [])];
    assert.equal(gadgets, 1);
    assert.ok((widgets as number) > 0 && (widgets as number) < 1, String(widgets));
  });

  test("words no training question used still separate the acts by their prior alone", () => {
    const [widgets, gadgets] = [...(e.router?.weights(["manufactur"]) ?? [])];
    assert.equal(gadgets, 1);
    assert.ok((widgets as number) < 1);
  });

  test("a sharper router separates the acts more", () => {
    const sharp = new ActRouter(router(4), e.release.index, e.actOrder, e.docAct);
    const soft = new ActRouter(router(0.5), e.release.index, e.actOrder, e.docAct);
    const w = (r: ActRouter) => r.weights(["recal", "gadget"])?.[0] as number;
    assert.ok(w(sharp) < w(soft), `${w(sharp)} < ${w(soft)}`);
  });
});
