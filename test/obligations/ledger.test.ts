/**
 * The atom ledger (src/obligations/ledger.ts): permanent opaque ids, carried across canon changes by
 * matching (same place and text, moved, edited), minted for new duties and retired, never reused.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Atom, fingerprint } from "../../src/obligations/atoms.ts";
import {
  emptyLedger,
  type Ledger,
  mintId,
  parseLedger,
  serialiseLedger,
  staleness,
  sync,
} from "../../src/obligations/ledger.ts";

const atom = (key: string, text: string, act = "x"): Atom =>
  ({
    key,
    node: key.slice(0, key.indexOf("#")),
    act,
    quoted_text: text,
    fingerprint: fingerprint(text),
  }) as Atom;

const RECORDS = "Manufacturers shall keep records of every widget they place on the market for ten years.";
const NOTIFY = "Manufacturers shall notify serious incidents to the authority within 72 hours.";
const VERIFY = "Importers shall verify the technical documentation before placing a widget on the market.";

function first(): { ledger: Ledger; ids: Map<string, string> } {
  return sync(emptyLedger("x"), [atom("x/art_1#1", RECORDS), atom("x/art_2#1", NOTIFY)], 5);
}

describe("the atom ledger", () => {
  test("ids are opaque, 12 Crockford base32 characters, a function of regime and serial", () => {
    assert.match(mintId("eu", 1), /^atm_[0-9a-hjkmnp-tv-z]{12}$/u);
    assert.equal(mintId("eu", 1), mintId("eu", 1));
    assert.notEqual(mintId("eu", 1), mintId("eu", 2));
    assert.notEqual(mintId("eu", 1), mintId("fixture", 1));
  });

  test("a first sync mints an id per atom and records the rules it matched under", () => {
    const { ledger, ids, report } = sync(
      emptyLedger("x"),
      [atom("x/art_1#1", RECORDS), atom("x/art_2#1", NOTIFY)],
      5,
    );
    assert.deepEqual(report, { kept: 0, moved: 0, edited: 0, minted: 2, retired: 0, reinstated: 0 });
    assert.deepEqual([ledger.next_serial, ledger.extraction, ledger.atoms.length], [3, 5, 2]);
    assert.deepEqual([...ids.values()].sort(), [mintId("x", 1), mintId("x", 2)].sort());
    assert.ok(ledger.atoms.every((e) => e.status === "active"));
  });

  test("same place and text keeps the id; the same text elsewhere in the act moves it", () => {
    const before = first();
    const again = sync(before.ledger, [atom("x/art_1#1", RECORDS), atom("x/art_3#1", NOTIFY)]);
    assert.deepEqual(again.report, { kept: 1, moved: 1, edited: 0, minted: 0, retired: 0, reinstated: 0 });
    assert.equal(again.ids.get("x/art_3#1"), before.ids.get("x/art_2#1"));
    assert.equal(again.ledger.extraction, 5, "the ledger's rules stay when none are given");
  });

  test("text edited in place keeps the id; renumbered and nearly the same keeps it too", () => {
    const before = first();
    const edited = sync(before.ledger, [
      atom("x/art_1#1", RECORDS.replace("ten years", "twelve years")),
      atom("x/art_9#1", NOTIFY.replace("72 hours.", "72 hours ")), // renumbered, its full stop dropped
    ]);
    assert.equal(edited.ids.get("x/art_1#1"), before.ids.get("x/art_1#1"));
    assert.equal(edited.ids.get("x/art_9#1"), before.ids.get("x/art_2#1"));
    assert.equal(edited.report.minted, 0);
  });

  test("a new duty is minted a fresh serial; a duty gone is retired, never deleted; read again, it takes its id back", () => {
    const before = first();
    const after = sync(before.ledger, [atom("x/art_1#1", RECORDS), atom("x/art_4#1", VERIFY)]);
    assert.deepEqual(after.report, { kept: 1, moved: 0, edited: 0, minted: 1, retired: 1, reinstated: 0 });
    assert.equal(after.ids.get("x/art_4#1"), mintId("x", 3));
    const retired = after.ledger.atoms.find((e) => e.status === "retired");
    assert.equal(retired?.id, before.ids.get("x/art_2#1"));
    const back = sync(after.ledger, [
      atom("x/art_1#1", RECORDS),
      atom("x/art_4#1", VERIFY),
      atom("x/art_2#1", NOTIFY),
    ]);
    assert.equal(back.ids.get("x/art_2#1"), before.ids.get("x/art_2#1"), "the same duty, the same id");
    assert.deepEqual(back.report, { kept: 2, moved: 0, edited: 0, minted: 0, retired: 0, reinstated: 1 });
    assert.equal(back.ledger.atoms.filter((e) => e.status === "retired").length, 0);
    assert.equal(back.ledger.next_serial, 4, "no serial is spent on it");
    const elsewhere = sync(after.ledger, [atom("x/art_9#1", NOTIFY), atom("x/art_9#2", NOTIFY)]);
    assert.equal(elsewhere.report.reinstated, 1, "one retired entry is one duty: the second is new");
    assert.equal(elsewhere.report.minted, 1);
  });

  test("a text in another act is not the same duty", () => {
    const before = first();
    const other = sync(before.ledger, [atom("y/art_2#1", NOTIFY, "y")]);
    assert.deepEqual([other.report.minted, other.report.retired], [1, 2]);
  });

  test("a duty extracted twice that becomes one atom: the retired id names the one that stays", () => {
    const twice = sync(emptyLedger("x"), [atom("x/art_1#1", RECORDS), atom("x/art_1#2", RECORDS)]);
    const once = sync(twice.ledger, [atom("x/art_1#1", RECORDS)]);
    const retired = once.ledger.atoms.find((e) => e.status === "retired");
    assert.equal(retired?.merged_into, twice.ids.get("x/art_1#1"));
  });

  test("staleness counts atoms the ledger lacks, holds with other text, or holds no longer", () => {
    const { ledger } = first();
    assert.deepEqual(staleness(ledger, [atom("x/art_1#1", RECORDS), atom("x/art_2#1", NOTIFY)]), {
      missing: 0,
      changed: 0,
      removed: 0,
    });
    assert.deepEqual(staleness(ledger, [atom("x/art_1#1", VERIFY), atom("x/art_5#1", NOTIFY)]), {
      missing: 1,
      changed: 1,
      removed: 1,
    });
  });

  test("a ledger is written one entry per line and reads back the same", () => {
    const { ledger } = sync(first().ledger, [atom("x/art_1#1", RECORDS)]);
    const text = serialiseLedger(ledger);
    assert.equal(text.split("\n").length, ledger.atoms.length + 3);
    assert.match(text, /^\{"schema_version":1,"regime":"x","extraction":5,"next_serial":3,"atoms":\[\n/u);
    assert.deepEqual(parseLedger(text, "atoms.lock"), ledger);
  });

  test("a file that is not JSON, or not a ledger, is refused naming it", () => {
    assert.throws(
      () => parseLedger("{", "regimes/x/atoms.lock"),
      /^Error: regimes\/x\/atoms\.lock: not valid JSON: /u,
    );
    assert.throws(
      () => parseLedger('{"schema_version":2,"atoms":[],"next_serial":1}', "regimes/x/atoms.lock"),
      {
        message: "regimes/x/atoms.lock: not an atom ledger (schema_version 1 with atoms and next_serial)",
      },
    );
  });
});
