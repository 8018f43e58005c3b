/**
 * Atoms as a release carries them (src/obligations/release-atoms.ts), on the fixture regime: named by the
 * ledger's ids, with the entity types they apply to and how that was decided; a ledger that does not
 * name every atom refuses the build, saying which command brings it up to date.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EXTRACTION_RULES, extractAtoms } from "../../src/obligations/atoms.ts";
import { emptyLedger, sync } from "../../src/obligations/ledger.ts";
import { documentHolders, LedgerOutOfDate, releaseAtoms } from "../../src/obligations/release-atoms.ts";
import { parseScope } from "../../src/obligations/scope.ts";
import { fixtureCorpus, fixtureObligations } from "../helpers/fixture-release.ts";

const corpus = fixtureCorpus();
const canon = fixtureObligations(corpus);
const released = releaseAtoms(corpus.units, canon, "fixture", false);
const byKey = new Map(released.atoms.map((a) => [a.key, a]));

/** The atom a sentence appended to widgets/art_6 makes under a rules number (the article's second). */
function appendedToArticle6(sentence: string, rules: number) {
  const units = corpus.units.map((u) =>
    u.node === "widgets/art_6"
      ? { ...u, own_text: `${u.own_text} ${sentence}`, text: `${u.text} ${sentence}` }
      : u,
  );
  const ledger = sync(emptyLedger("fixture"), extractAtoms(units, rules), rules).ledger;
  return releaseAtoms(units, { ...canon, ledger }, "fixture", false).atoms.find(
    (x) => x.key === "widgets/art_6#2",
  );
}

describe("released atoms", () => {
  test("every atom carries the id the ledger gives its key", () => {
    const ids = new Map(canon.ledger?.atoms.map((e) => [e.key, e.id]));
    // Rules 9: the three points listing what the notification contains are its author's duties again
    // (rules 6 to 8 read them as no one's: nine atoms).
    assert.equal(released.atoms.length, 12);
    for (const a of released.atoms) assert.equal(a.id, ids.get(a.key), a.key);
  });

  test("the actor map decides who a duty applies to; a Member State's duty is the State's", () => {
    const m = byKey.get("widgets/art_3__para_2#1");
    assert.deepEqual(
      [m?.applies_to, m?.applies_to_basis, m?.addressee],
      [["manufacturer"], "actor", "regulated_party"],
    );
    const d = byKey.get("widgets/art_5#1");
    assert.deepEqual([d?.modality, d?.applies_to], ["prohibition", ["distributor"]]);
    const s = byKey.get("widgets/art_6#1");
    assert.deepEqual(
      [s?.applies_to, s?.addressee, s?.through_national_law],
      [["member_state"], "member_state", null],
    );
  });

  test("a duty whose subject is a thing takes the types of the preceding duty in its article", () => {
    // Under rules 5, where the notification's contents are still duties (rules 6 read them as contents).
    const rules5 = sync(emptyLedger("fixture"), extractAtoms(corpus.units, 5), 5).ledger;
    const p = releaseAtoms(corpus.units, { ...canon, ledger: rules5 }, "fixture", false).atoms.find(
      (x) => x.key === "widgets/art_3__para_3__point_a#1",
    );
    assert.equal(p?.actor, "The notification referred to in paragraph 2");
    assert.deepEqual(
      [p?.applies_to, p?.applies_to_basis, p?.lead_in],
      [["manufacturer"], "preceding duty", "widgets/art_3__para_3"],
    );
  });

  test("with nothing before it, a thing's duty applies to no one, unless the act's scope names a holder", () => {
    const a = byKey.get("widgets/anx_I#2");
    assert.deepEqual([a?.applies_to, a?.applies_to_basis, a?.addressee], [[], "none", "none"]);
    const scope = parseScope(
      "acts:\n  - { act: widgets, provision: widgets/art_1, reason: r, holder: manufacturer, reaches: [{ types: [manufacturer] }] }\n",
      "scope.yaml",
      null,
      new Set(canon.taxonomy.types.map((t) => t.id)),
    );
    // An act with a holder keeps its documents' contents as duties (rules 6): the ledger names them too.
    const ledger = sync(
      emptyLedger("fixture"),
      extractAtoms(corpus.units, EXTRACTION_RULES, documentHolders({ scope })),
      EXTRACTION_RULES,
    ).ledger;
    const held = releaseAtoms(corpus.units, { ...canon, scope, ledger }, "fixture", false).atoms.find(
      (x) => x.key === "widgets/anx_I#2",
    );
    assert.deepEqual(
      [held?.applies_to, held?.applies_to_basis, held?.addressee],
      [["manufacturer"], "act's holder", "regulated_party"],
    );
  });

  test("rules 7: a party whose interests a passive weighs is not its holder; the article's duty before is", () => {
    const sentence =
      "The specific interests and needs of manufacturers shall be taken into account when setting the penalties.";
    const holderUnder = (rules: number) => {
      const a = appendedToArticle6(sentence, rules);
      return [a?.actor, a?.applies_to, a?.applies_to_basis, a?.addressee];
    };
    const actor = "The specific interests and needs of manufacturers";
    assert.deepEqual(holderUnder(6), [actor, ["manufacturer"], "actor", "regulated_party"]);
    assert.deepEqual(holderUnder(7), [actor, ["member_state"], "preceding duty", "member_state"]);
  });

  test("rules 8: a party a passive without agent acts upon is not its holder; the article's duty before is", () => {
    const holderUnder = (sentence: string, rules: number) => {
      const a = appendedToArticle6(sentence, rules);
      return [a?.applies_to, a?.applies_to_basis, a?.addressee];
    };
    const informed = "Manufacturers shall be informed of the penalties without delay.";
    assert.deepEqual(holderUnder(informed, 7), [["manufacturer"], "actor", "regulated_party"]);
    assert.deepEqual(holderUnder(informed, 8), [["member_state"], "preceding duty", "member_state"]);
    // A procedural right stays its holder's, and an agent named in the passive holds the duty.
    const heard = "Manufacturers shall be given the opportunity to be heard.";
    assert.deepEqual(holderUnder(heard, 8), [["manufacturer"], "actor", "regulated_party"]);
    const paid = "The fees shall be paid by manufacturers within 30 days.";
    assert.deepEqual(holderUnder(paid, 8), [["manufacturer"], "actor", "regulated_party"]);
  });

  test("rules 15: a leading 'For' that names a party holds its thing's duty, not the article's duty before", () => {
    const sentence = "For distributors, the records shall be kept for ten years.";
    const holderUnder = (rules: number) => {
      const a = appendedToArticle6(sentence, rules);
      return [a?.actor, a?.applies_to, a?.addressee];
    };
    assert.deepEqual(holderUnder(14), ["the records", ["member_state"], "member_state"]);
    assert.deepEqual(holderUnder(15), ["the records", ["distributor"], "regulated_party"]);
  });

  test("stats count atoms by act and modality, and the actors of obligations no type maps", () => {
    assert.deepEqual(released.stats, {
      atoms: 12,
      byAct: { widgets: { obligation: 10, prohibition: 2, permission: 0 } },
      obligations: 10,
      obligationsMapped: 9,
      unmappedActors: [{ actor: "Widgets", count: 1 }],
    });
  });

  test("a ledger missing or out of date refuses the build, naming the sync command", () => {
    assert.throws(
      () => releaseAtoms(corpus.units, { ...canon, ledger: null }, "fixture", false),
      (e: Error) =>
        e instanceof LedgerOutOfDate &&
        e.message === "regimes/fixture/atoms.lock is missing: run `acquis atoms sync fixture` and commit it",
    );
    const old = sync(
      emptyLedger("fixture"),
      extractAtoms(fixtureCorpus({ rev: 1 }).units, EXTRACTION_RULES),
      EXTRACTION_RULES,
    ).ledger;
    assert.throws(
      () => releaseAtoms(corpus.units, { ...canon, ledger: old }, "fixture", false),
      (e: Error) =>
        e instanceof LedgerOutOfDate &&
        /^regimes\/fixture\/atoms\.lock is out of date \(\d+ new, \d+ changed, \d+ removed atoms\): run `acquis atoms sync fixture`/u.test(
          e.message,
        ),
    );
  });

  test("a tag recorded before the ledger existed rebuilds without atoms", () => {
    assert.deepEqual(releaseAtoms(corpus.units, { ...canon, ledger: null }, "fixture", true).atoms, []);
  });
});
