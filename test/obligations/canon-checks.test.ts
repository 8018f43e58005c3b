/**
 * Bad canon is refused when it is read, naming the file, the key and what is allowed: a profile with an
 * unknown entity type, an unknown fact or a fact of the wrong type, and a derogation whose condition has
 * an unknown operator (which once made `holds()` return true and silently exempted a firm).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { inWorkingTree } from "../../src/canon/reader.ts";
import { decide } from "../../src/obligations/applicability.ts";
import { readObligationsCanon } from "../../src/obligations/canon.ts";

const TAXONOMY = `entity_types:
  - { id: undertaking, label: undertaking, parents: [], defined_in: w/art_1 }
  - { id: manufacturer, label: manufacturer, parents: [undertaking], defined_in: w/art_2 }
  - { id: microenterprise, label: microenterprise, parents: [undertaking], defined_in: w/art_2 }
  - { id: small_enterprise, label: small enterprise, parents: [undertaking], defined_in: w/art_2 }
  - { id: member_state, label: Member State, parents: [], defined_in: w/art_5, addressee: member_state }
`;
const FACTS = `facts:
  staff_headcount: { type: integer, about: "persons employed" }
  annual_turnover_eur: { type: number, about: "turnover" }
  balance_sheet_total_eur: { type: number, about: "balance sheet" }
  has_partner_or_linked_enterprises: { type: boolean, about: "partners" }
  enterprise_size: { type: enum, values: [micro, small, medium, large], derived: true, about: "size" }
  jurisdiction: { type: enum, values: [AT, DE], about: "where" }
`;
const GOOD_PROFILE = `id: p
entity_types: [manufacturer]
facts: { staff_headcount: 5, annual_turnover_eur: 1000000, jurisdiction: AT, has_partner_or_linked_enterprises: false }
`;
const DEROGATION = (condition: string) => `derogations:
  - id: d
    derogating: w/art_3__para_4
    disapplies: [w/art_3__para_3]
    exempts: { entity_types: [manufacturer], when: [${condition}] }
    from: 2020-01-01
    until: null
    text: "Paragraph 3 shall not apply to microenterprises."
`;

function canon(files: Record<string, string>): () => ReturnType<typeof readObligationsCanon> {
  const root = mkdtempSync(join(tmpdir(), "acquis-canon-"));
  const dir = join(root, "regimes", "x");
  mkdirSync(join(dir, "profiles"), { recursive: true });
  const all = { "taxonomy.yaml": TAXONOMY, "actors.yaml": "actors: []\n", "facts.yaml": FACTS, ...files };
  for (const [name, text] of Object.entries(all)) writeFileSync(join(dir, name), text);
  return () => readObligationsCanon(inWorkingTree(root), "x");
}

describe("canon checks", () => {
  test("a good canon reads, and the firm's size is derived from its figures", () => {
    const c = canon({
      "profiles/p.yaml": GOOD_PROFILE,
      "derogations.yaml": DEROGATION("{ fact: enterprise_size, eq: micro }"),
    })();
    const atom = {
      id: "atm_1",
      node: "w/art_3__para_3",
      act: "w",
      unit_eid: "art_3__para_3",
      modality: "obligation" as const,
      actor: "manufacturers",
      action: "do",
      quoted_text: "Manufacturers shall do.",
      char_start: 0,
      char_end: 22,
      effective: "2020-01-01",
      expires: null,
      applies_to: ["manufacturer"],
    };
    const r = decide(c.profiles[0] as never, "2021-01-01", [atom], c.taxonomy, c.derogations);
    assert.equal(r.counts.excluded, 1, "micro by staff 5 and turnover EUR 1m, no partners");
    assert.ok(r.binds.includes("microenterprise"));
  });

  test("an unknown entity type is refused with the file, the key and where the types are listed", () => {
    const read = canon({ "profiles/p.yaml": GOOD_PROFILE.replace("[manufacturer]", "[manufacturor]") });
    assert.throws(
      read,
      /regimes\/x\/profiles\/p\.yaml: entity_types: unknown entity type "manufacturor"; did you mean one of manufacturer/u,
    );
  });

  test("an unknown fact is refused, listing the known facts", () => {
    const read = canon({
      "profiles/p.yaml": `${GOOD_PROFILE.trimEnd().slice(0, -1)}, staf_headcount: 3 }\n`,
    });
    assert.throws(
      read,
      /profiles\/p\.yaml: facts: unknown fact "staf_headcount"; known facts: annual_turnover_eur, .*staff_headcount/u,
    );
  });

  test("a fact of the wrong type is refused with what is allowed", () => {
    assert.throws(
      canon({ "profiles/p.yaml": GOOD_PROFILE.replace("staff_headcount: 5", 'staff_headcount: "five"') }),
      /facts: fact staff_headcount is "five" \(string\); allowed: a whole number ≥ 0/u,
    );
    assert.throws(
      canon({ "profiles/p.yaml": GOOD_PROFILE.replace("jurisdiction: AT", "jurisdiction: Austria") }),
      /fact jurisdiction is "Austria" \(string\); allowed: one of AT, DE/u,
    );
  });

  test("a stated size the figures contradict is refused", () => {
    const read = canon({
      "profiles/p.yaml": GOOD_PROFILE.replace("jurisdiction: AT", "jurisdiction: AT, enterprise_size: large"),
    });
    assert.throws(read, /facts\.enterprise_size is "large" but the figures make it micro/u);
  });

  test("a condition with an unknown operator, or on an unknown fact, is refused when the canon is read", () => {
    assert.throws(
      canon({ "derogations.yaml": DEROGATION("{ fact: staff_headcount, lte: 10 }") }),
      /derogation d when: condition on staff_headcount has operator\(s\) \["lte"\]; exactly one of lt, le, gt, ge, eq, in is allowed/u,
    );
    assert.throws(
      canon({ "derogations.yaml": DEROGATION("{ fact: headcount, lt: 10 }") }),
      /condition on unknown fact "headcount"/u,
    );
    assert.throws(
      canon({ "derogations.yaml": DEROGATION('{ fact: staff_headcount, lt: "ten" }') }),
      /staff_headcount lt needs a number/u,
    );
  });

  test("a State type cannot be a profile's type", () => {
    const read = canon({ "profiles/p.yaml": GOOD_PROFILE.replace("[manufacturer]", "[member_state]") });
    assert.throws(read, /member_state is a member_state, not a regulated party/u);
  });
});
