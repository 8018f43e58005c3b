/**
 * The change feed rendered offline (`acquis feed`) from the fixture regime's second release, checked by
 * independent parsers: JSON Feed 1.1 against its schema with Ajv and through feedsmith; RSS 2.0 through
 * rss-parser and feedsmith.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { Ajv } from "ajv";
import { parseJsonFeed, parseRssFeed } from "feedsmith";
import Parser from "rss-parser";
import { acquis } from "../helpers/cli.ts";
import { type FixtureRepo, fixtureWithReleases } from "../helpers/fixture-repo.ts";

// biome-ignore lint/suspicious/noExplicitAny: feed documents are read field by field and asserted on
type Loose = any;

describe("acquis feed", () => {
  let repo: FixtureRepo;
  const feed = (...args: string[]): string => {
    const r = acquis(["feed", "fixture@t2", "--root", repo.root, ...args]);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const items = (...filters: string[]): number =>
    (JSON.parse(feed(...filters.flatMap((f) => ["--filter", f]))) as Loose).items.length;

  before(() => {
    repo = fixtureWithReleases();
  });

  test("a JSON Feed 1.1 that the schema and an independent parser accept", () => {
    const doc: Loose = JSON.parse(feed());
    const schema = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "fixtures", "jsonfeed-1.1.schema.json"), "utf8"),
    );
    const validate = new Ajv({ strict: false, validateFormats: false }).compile(schema);
    const valid = validate(structuredClone(doc));
    assert.ok(valid, JSON.stringify(validate.errors));
    assert.equal(parseJsonFeed(doc).items?.length, doc.items.length);
    assert.deepEqual(doc._service, {
      filter: { entity_type: [], jurisdiction: [], regime: [], topic: [] },
      schema_version: 1,
    });
    const manifest: Loose = JSON.parse(
      readFileSync(join(repo.root, "regimes", "fixture", "releases", "t2", "t2.diff.json"), "utf8"),
    );
    const atomChanges = manifest.changes.filter((c: Loose) => c.kind === "atom");
    assert.equal(doc.items.length, atomChanges.length, "every atom change, and no unit change");
    for (const item of doc.items) {
      assert.match(item.id, /^service:fixture@t2:atm_[0-9a-z]{12}$/u);
      assert.equal(
        item.url,
        `http://127.0.0.1:8787/releases/fixture/t2/diff.json#${item._service.change.atom}`,
      );
      assert.equal(item.date_published, item._service.release.built_at, "dated by the release's built_at");
      const original = atomChanges.find((c: Loose) => c.atom === item._service.change.atom);
      assert.equal(
        item._service.change.classification,
        original.classification,
        "copied verbatim from the manifest",
      );
      assert.deepEqual(item._service.change.citation, original.citation);
    }
  });

  test("an RSS 2.0 document with an Atom self-link that rss-parser and feedsmith read", async () => {
    const xml = feed("--format", "rss");
    assert.match(
      xml,
      /<atom:link href="http:\/\/127\.0\.0\.1:8787\/feed\.xml" rel="self" type="application\/rss\+xml"\/>/u,
    );
    const count = (JSON.parse(feed()) as Loose).items.length;
    const parsed = await new Parser().parseString(xml);
    assert.equal(parsed.items.length, count);
    for (const item of parsed.items) {
      assert.match(item.guid ?? "", /^service:fixture@t2:/u);
      assert.match(
        item.pubDate ?? "",
        /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/u,
        "RFC 822",
      );
    }
    const smith = parseRssFeed(xml);
    assert.equal(smith.items?.length, count);
    assert.ok(
      smith.items?.every((i) => i.guid?.isPermaLink === false),
      "guids are not permalinks",
    );
  });

  test("filters: an AND of ORs; entity types reach narrower subscriptions, not broader ones; topic matches nothing", () => {
    const all = items();
    const manufacturer = items("entity_type=manufacturer");
    const distributor = items("entity_type=distributor");
    const economic = items("entity_type=economic_operator");
    assert.ok(all > 0 && manufacturer > 0 && distributor > 0);
    assert.ok(
      economic < manufacturer,
      "a duty of manufacturers does not reach a subscription for economic operators in general",
    );
    const either = items("entity_types=manufacturer,distributor");
    assert.ok(
      either >= Math.max(manufacturer, distributor) && either <= manufacturer + distributor,
      "terms of one dimension are ORed",
    );
    assert.equal(items("jurisdiction=EU"), all);
    assert.equal(items("jurisdiction=UNECE"), 0);
    assert.equal(
      items("regime=fixture", "jurisdiction=EU", "entity_type=manufacturer"),
      manufacturer,
      "dimensions are ANDed",
    );
    assert.equal(items("topic=breach"), 0);
  });

  test("an unknown filter dimension is refused in one line", () => {
    const r = acquis(["feed", "fixture@t2", "--root", repo.root, "--filter", "sector=energy"]);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /^acquis: unknown filter dimension "sector"/mu);
  });
});
