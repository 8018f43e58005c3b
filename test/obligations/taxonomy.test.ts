/**
 * Entity types and the actor map (src/obligations/taxonomy.ts): which types a duty's actor names, who
 * holds it (a regulated party or the State side), and the broader types a type sits under.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ActorMap, addresseeOfType, ancestors, parseTaxonomy } from "../../src/obligations/taxonomy.ts";

const TYPES = `entity_types:
  - { id: operator, label: operator, defined_in: x/art_1 }
  - { id: manufacturer, label: manufacturer, parents: [operator], defined_in: x/art_1 }
  - { id: distributor, label: distributor, parents: [operator], defined_in: x/art_1 }
  - { id: member_state, label: Member State, parents: [], defined_in: x/art_9, addressee: member_state }
  - { id: authority, label: authority, parents: [], defined_in: x/art_9, addressee: public_authority }
  - { id: market_authority, label: market authority, parents: [authority], defined_in: x/art_9 }
  - { id: public_operator, label: public operator, parents: [operator, authority], defined_in: x/art_9 }
`;
const ACTORS = `actors:
  - { phrase: manufacturers, types: [manufacturer] }
  - { phrase: manufacturers of toys, types: [manufacturer, distributor] }
  - { phrase: distributors, types: [distributor] }
  - { phrase: Member States, types: [member_state] }
  - { phrase: market surveillance authorities, types: [market_authority] }
  - { phrase: providers, types: [manufacturer], scope: [ai] }
  - { phrase: providers, types: [operator], scope: [ai/chp_V] }
  - { phrase: providers, types: [distributor] }
  - { phrase: personal data, types: [operator], whole: true }
`;

const tax = parseTaxonomy(TYPES, ACTORS, "regimes/x");
const map = new ActorMap(tax);

describe("the taxonomy", () => {
  test("types read with their parents (none when unstated) and the actor phrases", () => {
    assert.deepEqual(tax.types[0], { id: "operator", label: "operator", defined_in: "x/art_1", parents: [] });
    assert.equal(tax.actors.length, 9);
    assert.deepEqual(parseTaxonomy(null, null, "regimes/x"), { types: [], actors: [] });
  });

  test("an unknown parent or an actor mapped to an unknown type is refused, naming it", () => {
    assert.throws(
      () =>
        parseTaxonomy(`${TYPES}  - { id: y, label: y, parents: [nope], defined_in: z }\n`, null, "regimes/x"),
      {
        message: "regimes/x: entity type y names unknown parent nope",
      },
    );
    assert.throws(
      () => parseTaxonomy(TYPES, "actors:\n  - { phrase: importers, types: [importer] }\n", "regimes/x"),
      {
        message: 'regimes/x: actor phrase "importers" maps to unknown type importer',
      },
    );
  });

  test("a type holds duties as a regulated party unless every root above it is on the State side", () => {
    assert.equal(addresseeOfType(tax, "manufacturer"), "regulated_party");
    assert.equal(addresseeOfType(tax, "member_state"), "member_state");
    assert.equal(addresseeOfType(tax, "market_authority"), "public_authority");
    assert.equal(
      addresseeOfType(tax, "public_operator"),
      "regulated_party",
      "a public body that is also an operator",
    );
    assert.equal(addresseeOfType(tax, "unknown"), "regulated_party");
  });

  test("ancestors: the types and every broader type above them, sorted, once each", () => {
    assert.deepEqual(ancestors(tax, ["manufacturer"]), ["manufacturer", "operator"]);
    assert.deepEqual(ancestors(tax, ["public_operator", "distributor"]), [
      "authority",
      "distributor",
      "operator",
      "public_operator",
    ]);
    assert.deepEqual(ancestors(tax, []), []);
  });
});

describe("the actor map", () => {
  test("an actor names the types of the phrase at its head, plurals and articles aside", () => {
    assert.deepEqual(map.typesIn("The manufacturer", "x"), ["manufacturer"]);
    assert.deepEqual(map.typesIn("Distributors of a widget made by manufacturers", "x"), ["distributor"]);
    assert.deepEqual(map.typesIn("Each market surveillance authority", "x"), ["market_authority"]);
    assert.deepEqual(map.typesIn("The Commission", "x"), []);
  });

  test("rules 8: a subject of parties joined by and/or names each; not one phrase spanning the conjunction, nor a qualifier", () => {
    assert.deepEqual(map.typesIn("Manufacturers and distributors", "x", 8), ["distributor", "manufacturer"]);
    assert.deepEqual(map.typesIn("Manufacturers and distributors", "x", 7), ["manufacturer"]);
    assert.deepEqual(map.typesIn("Manufacturers or the Member States", "x", 8), [
      "manufacturer",
      "member_state",
    ]);
    // "manufacturers of toys" runs past nothing; a qualifier after a relative clause is not a second party.
    assert.deepEqual(map.typesIn("A manufacturer that is a distributor or a Member State", "x", 8), [
      "manufacturer",
    ]);
    assert.deepEqual(map.typesIn("Manufacturers and their personal data", "x", 8), ["manufacturer"]);
  });

  test("rules 8: a party that is an infinitive's object in the subject names no holder; a party after 'to' alone still does", () => {
    assert.deepEqual(map.typesIn("Guards designed to protect manufacturers against the hazards", "x", 8), []);
    assert.deepEqual(map.typesIn("Guards designed to protect manufacturers against the hazards", "x", 7), [
      "manufacturer",
    ]);
    assert.deepEqual(map.typesIn("Requests to the manufacturer", "x", 8), ["manufacturer"]);
    assert.deepEqual(map.typesIn("The obligation to inform the manufacturer", "x", 8), []);
  });

  test("the longest phrase wins where phrases start at one place", () => {
    assert.deepEqual(map.typesIn("manufacturers of toys", "x"), ["manufacturer", "distributor"]);
  });

  test("a phrase scoped to acts counts only in them, before the general one", () => {
    assert.deepEqual(map.typesIn("Providers", "ai"), ["manufacturer"]);
    assert.deepEqual(map.typesIn("Providers", "other"), ["distributor"]);
  });

  test("a phrase scoped to a part of an act counts only there, before the act's own", () => {
    assert.deepEqual(map.typesIn("Providers", "ai/chp_V"), ["operator"]);
    assert.deepEqual(map.typesIn("Providers", "ai/chp_IV"), ["manufacturer"]);
    assert.deepEqual(map.typesIn("Providers", "ai"), ["manufacturer"]);
  });

  test("a whole-actor phrase matches only an actor that is that phrase and nothing more", () => {
    assert.deepEqual(map.typesIn("Personal data", "x"), ["operator"]);
    assert.deepEqual(map.typesIn("Personal data of manufacturers", "x"), ["manufacturer"]);
    assert.deepEqual(map.allTypesIn("personal data", "x"), []);
  });

  test("every type a text names, and the first-named types", () => {
    assert.deepEqual(map.allTypesIn("ensure that distributors and manufacturers keep records", "x"), [
      "distributor",
      "manufacturer",
    ]);
    assert.deepEqual(map.firstTypesIn("ensure that distributors and manufacturers keep records", "x"), [
      "distributor",
    ]);
    assert.deepEqual(map.firstTypesIn("nobody in particular", "x"), []);
  });

  test("a Member State's duty to ensure conduct also applies to the entities its action names", () => {
    assert.deepEqual(map.appliesTo("Member States", "ensure that manufacturers keep records", "x"), [
      "manufacturer",
      "member_state",
    ]);
    assert.deepEqual(map.appliesTo("Member States", "designate an authority", "x"), ["member_state"]);
    assert.deepEqual(map.appliesTo("Distributors", "ensure that manufacturers keep records", "x"), [
      "distributor",
    ]);
  });

  test("rules 10: a party named inside a longer party's name, or again after a demonstrative, is no party of its own", () => {
    const action = "ensure that manufacturers of toys keep records which those distributors hold";
    assert.deepEqual(map.appliesTo("Member States", action, "x", 9), [
      "distributor",
      "manufacturer",
      "member_state",
    ]);
    // "manufacturers of toys" names manufacturers and distributors; "manufacturers" inside it adds nothing, and
    // "those distributors" is a party named again.
    assert.deepEqual(
      map.appliesTo("Member States", "ensure that manufacturers of toys keep records", "x", 10),
      ["distributor", "manufacturer", "member_state"],
    );
    assert.deepEqual(
      map.appliesTo(
        "Member States",
        "ensure that manufacturers keep records which those distributors hold",
        "x",
        10,
      ),
      ["manufacturer", "member_state"],
    );
    // "that" opens a clause: the party after it is named.
    assert.deepEqual(map.appliesTo("Member States", "ensure that distributors keep records", "x", 10), [
      "distributor",
      "member_state",
    ]);
  });

  test("rules 15: punctuation is no part of a word, a comma list names each party, and a party's noun heads no thing", () => {
    const map = new ActorMap(tax);
    // Until rules 15 "manufacturers," matched no phrase and the next party named stood for the subject.
    assert.deepEqual(map.typesIn("Manufacturers, on behalf of their suppliers, or distributors", "x", 14), [
      "distributor",
    ]);
    assert.deepEqual(map.typesIn("Manufacturers, on behalf of their suppliers, or distributors", "x", 15), [
      "distributor",
      "manufacturer",
    ]);
    assert.deepEqual(map.typesIn("Any manufacturer, distributor or Member State", "x", 14), ["distributor"]);
    assert.deepEqual(map.typesIn("Any manufacturers, distributors or Member States", "x", 15), [
      "distributor",
      "manufacturer",
      "member_state",
    ]);
    // A clause set off in the list is skipped, not the end of it.
    assert.deepEqual(map.typesIn("the manufacturers or, where applicable, the distributors", "x", 15), [
      "distributor",
      "manufacturer",
    ]);
    // A phrase written with punctuation in the map still matches the text it is found in.
    const cited = new ActorMap(
      parseTaxonomy(
        TYPES,
        'actors:\n  - { phrase: "operators under Article 2(8)", types: [operator] }\n',
        "regimes/x",
      ),
    );
    assert.deepEqual(cited.typesIn("Operators under Article 2(8) shall report", "x", 15), ["operator"]);
    // "economic operators" names no word of its types' but ends in a party's noun: parties, no thing.
    const operators = new ActorMap(
      parseTaxonomy(
        TYPES,
        "actors:\n  - { phrase: economic operators, types: [manufacturer, distributor] }\n",
        "regimes/x",
      ),
    );
    assert.equal(operators.isThing("The economic operators", "x", 14), true);
    assert.equal(operators.isThing("The economic operators", "x", 15), false);
  });
});
