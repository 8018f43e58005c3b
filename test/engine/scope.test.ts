/**
 * Which instruments a question names (src/engine/scope.ts): the release's acts by number, CELEX, ELI,
 * short name, alias or title; instruments it does not hold by number or by name; proposals and other
 * statutes; and the question with every name blanked out.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Act } from "../../src/canon/model.ts";
import { parseInstruments, ScopeReader } from "../../src/engine/scope.ts";

const act = (
  id: string,
  number: string,
  celex: string,
  short_name: string,
  title: string,
  aliases: string[] = [],
) => ({ id, number, celex, short_name, title, aliases }) as Act;
const ACTS = [
  act(
    "gdpr",
    "2016/679",
    "32016R0679",
    "GDPR",
    "Regulation (EU) 2016/679 of 27 April 2016 on the protection of natural persons with regard to the processing of personal data (General Data Protection Regulation)",
  ),
  act(
    "nis2",
    "2022/2555",
    "32022L2555",
    "NIS2",
    "Directive (EU) 2022/2555 of 14 December 2022 on measures for a high common level of cybersecurity across the Union",
    ["NIS 2 Directive"],
  ),
  act(
    "ai",
    "2024/1689",
    "32024R1689",
    "AI Act",
    "Regulation (EU) 2024/1689 of 13 June 2024 laying down harmonised rules on artificial intelligence (Artificial Intelligence Act)",
  ),
];
const scope = new ScopeReader(ACTS, [
  { name: "UK GDPR", source: "s" },
  { name: "CRR", aliases: ["Capital Requirements Regulation"], number: "575/2013", source: "s" },
  { name: "Listed anyway", number: "2016/679", source: "s" },
]);
const read = (q: string) => {
  const s = scope.read(q);
  return { acts: s.acts, foreign: s.foreign };
};

describe("the scope of a question", () => {
  test("an act of the release by short name, alias, number, CELEX, ELI or the name in its title", () => {
    assert.deepEqual(read("What does the GDPR say?").acts, ["gdpr"]);
    assert.deepEqual(read("the NIS 2 Directive").acts, ["nis2"]);
    assert.deepEqual(read("Regulation (EU) 2016/679 Article 33").acts, ["gdpr"]);
    assert.deepEqual(read("Directive 2022/2555/EU").acts, ["nis2"]);
    assert.deepEqual(read("CELEX 32024R1689").acts, ["ai"]);
    assert.deepEqual(read("http://data.europa.eu/eli/reg/2016/679/oj").acts, ["gdpr"]);
    assert.deepEqual(read("under the General Data Protection Regulation").acts, ["gdpr"]);
    assert.deepEqual(read("the Artificial Intelligence Act").acts, ["ai"]);
    assert.deepEqual(
      read("the Directive on measures for a high common level of cybersecurity across the Union").acts,
      ["nis2"],
    );
    assert.deepEqual(read("GDPR and the AI Act").acts, ["ai", "gdpr"]);
  });

  test("instruments the release does not hold are named as written, and the UK GDPR is not the GDPR", () => {
    assert.deepEqual(read("UK GDPR breach reporting"), { acts: [], foreign: ["UK GDPR"] });
    assert.deepEqual(read("capital under the Capital Requirements Regulation"), {
      acts: [],
      foreign: ["Capital Requirements Regulation"],
    });
    assert.deepEqual(read("Regulation (EU) No 1025/2012 and the GDPR"), {
      acts: ["gdpr"],
      foreign: ["Regulation (EU) No 1025/2012"],
    });
    assert.deepEqual(read("CELEX 32019R0881").foreign, ["32019R0881"]);
    assert.deepEqual(read("data.europa.eu/eli/reg/2019/881").foreign, ["data.europa.eu/eli/reg/2019/881"]);
  });

  test("an instrument the list names by a number the release holds is the release's act", () => {
    assert.deepEqual(read("Listed anyway"), { acts: [], foreign: [] });
  });

  test("proposals and other countries' statutes are foreign; a sentence's own words are not a name", () => {
    assert.deepEqual(read("the proposed ePrivacy Regulation").foreign, ["proposed ePrivacy Regulation"]);
    assert.deepEqual(read("the Online Safety Act 2023").foreign, ["Online Safety Act 2023"]);
    assert.deepEqual(read("Does the Act apply?").foreign, []);
  });

  test("mentions say where each act is named, in order; the rest keeps its length with names blanked", () => {
    const q = "NIS2 or GDPR: which applies?";
    const s = scope.read(q);
    assert.deepEqual(s.mentions, [
      { act: "nis2", start: 0, end: 4 },
      { act: "gdpr", start: 8, end: 12 },
    ]);
    assert.equal(s.rest, "     or     : which applies?");
    assert.equal(s.rest.length, q.length);
  });

  test("an instruments file reads as its list, numbers as text; an empty file as none", () => {
    assert.deepEqual(
      parseInstruments(
        "instruments:\n  - { name: CRR, number: 575/2013, source: s }\n  - { name: X, number: 2013, source: s }\n",
      ),
      [
        { name: "CRR", number: "575/2013", source: "s" },
        { name: "X", number: "2013", source: "s" },
      ],
    );
    assert.deepEqual(parseInstruments(""), []);
    assert.deepEqual(new ScopeReader([], []).read("GDPR"), {
      acts: [],
      foreign: [],
      mentions: [],
      rest: "GDPR",
    });
  });
});
