/** The data-quality log (src/canon/quality.ts): every repair and defect recorded, counted by kind. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { countByKind, QualityLog } from "../../src/canon/quality.ts";

describe("the quality log", () => {
  test("repairs and defects are kept apart, in the order logged, and serialise as the act's report", () => {
    const log = new QualityLog("widgets");
    log.repair("title_removed_from_text", "art_1", "title repeated");
    log.defect("missing_recitals", null, "recitals missing: 3");
    log.repair("signature_split", "art_7", "signature dropped");
    assert.deepEqual(JSON.parse(JSON.stringify(log)), {
      act: "widgets",
      repairs: [
        { kind: "title_removed_from_text", eid: "art_1", detail: "title repeated" },
        { kind: "signature_split", eid: "art_7", detail: "signature dropped" },
      ],
      defects: [{ kind: "missing_recitals", eid: null, detail: "recitals missing: 3" }],
    });
  });

  test("counts by kind come sorted by kind; no entries count nothing", () => {
    const e = (kind: string) => ({ kind, eid: null, detail: "" });
    assert.deepEqual(Object.entries(countByKind([e("z"), e("a"), e("z"), e("m")])), [
      ["a", 1],
      ["m", 1],
      ["z", 2],
    ]);
    assert.deepEqual(countByKind([]), {});
  });
});
