/**
 * The feed store over PostgreSQL (`pg`), for several service processes over one database. Due
 * deliveries are claimed with `FOR UPDATE SKIP LOCKED` and a lease written in the same statement, so
 * two workers never attempt the same delivery: the row lock keeps them apart while claiming, the lease
 * (renewed while the worker is still at it) until the attempt is recorded, and an attempt is recorded
 * only by the worker that still holds the claim. Versioned migrations as for SQLite.
 */
import pg from "pg";
import type { Taxonomy } from "../obligations/taxonomy.ts";
import { changeBlocks, unpackBlock } from "./change-blocks.ts";
import type { Change, ReleaseRef } from "./changes.ts";
import type { Published } from "./render.ts";
import type {
  Attempt,
  Delivery,
  FeedStore,
  Lease,
  Owed,
  Publication,
  Recorded,
  Subscription,
} from "./store.ts";
import type { DeliveryBasis } from "./webhook.ts";

export const PG_MIGRATIONS: string[] = [
  `CREATE TABLE subscriptions (
     serial BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, endpoint TEXT NOT NULL,
     filter TEXT NOT NULL, active BOOLEAN NOT NULL, created_at TEXT NOT NULL, secret TEXT NOT NULL);
   CREATE TABLE publications (
     regime TEXT NOT NULL, tag TEXT NOT NULL, ref TEXT NOT NULL, published_at TEXT NOT NULL, changes INTEGER NOT NULL,
     seq BIGSERIAL, PRIMARY KEY (regime, tag));
   CREATE TABLE changes (id TEXT PRIMARY KEY, regime TEXT NOT NULL, tag TEXT NOT NULL, body TEXT NOT NULL);
   CREATE TABLE deliveries (
     id TEXT PRIMARY KEY, body TEXT NOT NULL, payload TEXT NOT NULL, state TEXT NOT NULL, next_attempt_at TEXT,
     claimed_until TEXT, seq BIGSERIAL);
   CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at);
   CREATE TABLE attempts (seq BIGSERIAL PRIMARY KEY, body TEXT NOT NULL);`,
  `CREATE TABLE taxonomies (regime TEXT PRIMARY KEY, body TEXT NOT NULL);`,
  `ALTER TABLE deliveries ADD COLUMN claimed_by TEXT;`,
  // A delivery stores what its bytes are built from, not the bytes (an empty payload); a baseline
  // publication is flagged.
  `ALTER TABLE publications ADD COLUMN baseline BOOLEAN NOT NULL DEFAULT FALSE;
   ALTER TABLE deliveries ADD COLUMN basis TEXT;
   CREATE TABLE payload_templates (key TEXT PRIMARY KEY, body TEXT NOT NULL);`,
  // A publication's changes in compressed blocks (change-blocks.ts): TOAST's own compression of 45 MB
  // of rows took seconds per release.
  `CREATE TABLE change_blocks (
     regime TEXT NOT NULL, tag TEXT NOT NULL, block INTEGER NOT NULL, body BYTEA NOT NULL,
     PRIMARY KEY (regime, tag, block));`,
];

export class PgStore implements FeedStore {
  private readonly pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  static async open(url: string): Promise<PgStore> {
    const store = new PgStore(new pg.Pool({ connectionString: url, max: 4 }));
    await store.migrate();
    return store;
  }

  private async tx<T>(f: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query("BEGIN");
      const r = await f(c);
      await c.query("COMMIT");
      return r;
    } catch (e) {
      await c.query("ROLLBACK");
      throw e;
    } finally {
      c.release();
    }
  }

  private async migrate(): Promise<void> {
    await this.tx(async (c) => {
      // One migrator at a time across processes.
      await c.query("SELECT pg_advisory_xact_lock(8787)");
      await c.query("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)");
      const done = new Set(
        (await c.query<{ version: number }>("SELECT version FROM schema_migrations")).rows.map(
          (r) => r.version,
        ),
      );
      for (const [i, sql] of PG_MIGRATIONS.entries()) {
        if (done.has(i + 1)) continue;
        await c.query(sql);
        await c.query("INSERT INTO schema_migrations (version) VALUES ($1)", [i + 1]);
      }
    });
  }

  async subscriptions(): Promise<Subscription[]> {
    const r = await this.pool.query(
      "SELECT id, name, endpoint, filter, active, created_at FROM subscriptions ORDER BY serial",
    );
    return r.rows.map((x) => ({
      id: x.id,
      name: x.name,
      endpoint: x.endpoint,
      filter: JSON.parse(x.filter),
      active: x.active,
      created_at: x.created_at,
    }));
  }

  async addSubscription(s: Subscription, secret: string): Promise<void> {
    await this.pool.query(
      "INSERT INTO subscriptions (id, name, endpoint, filter, active, created_at, secret) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [s.id, s.name, s.endpoint, JSON.stringify(s.filter), s.active, s.created_at, secret],
    );
  }

  async removeSubscription(id: string): Promise<boolean> {
    return ((await this.pool.query("DELETE FROM subscriptions WHERE id = $1", [id])).rowCount ?? 0) > 0;
  }

  async secretOf(id: string): Promise<string | null> {
    return (
      (await this.pool.query("SELECT secret FROM subscriptions WHERE id = $1", [id])).rows[0]?.secret ?? null
    );
  }

  async secrets(): Promise<Map<string, string>> {
    const rows = (await this.pool.query("SELECT id, secret FROM subscriptions")).rows;
    return new Map(rows.map((r) => [r.id as string, r.secret as string]));
  }

  async nextSubscriptionSerial(): Promise<number> {
    const r = await this.pool.query("SELECT COALESCE(MAX(serial), 0) + 1 AS n FROM subscriptions");
    return Number(r.rows[0].n);
  }

  async publication(regime: string, tag: string): Promise<Publication | null> {
    const r = (
      await this.pool.query(
        "SELECT ref, published_at, changes, baseline FROM publications WHERE regime = $1 AND tag = $2",
        [regime, tag],
      )
    ).rows[0];
    return r
      ? {
          ...(JSON.parse(r.ref) as ReleaseRef),
          published_at: r.published_at,
          changes: r.changes,
          baseline: r.baseline,
        }
      : null;
  }

  async publishedBefore(regime: string): Promise<boolean> {
    return (
      (await this.pool.query("SELECT 1 FROM publications WHERE regime = $1 LIMIT 1", [regime])).rows.length >
      0
    );
  }

  async addPublication(
    p: Publication,
    changes: Change[],
    owed: Owed[],
    templates: Map<string, string>,
  ): Promise<Recorded> {
    return this.tx(async (c) => {
      const { published_at, changes: count, baseline, ...ref } = p;
      // Publications of one regime are recorded one at a time, so a baseline sees any that landed first.
      await c.query("SELECT pg_advisory_xact_lock(8788, hashtext($1))", [p.regime]);
      if (
        (await c.query("SELECT 1 FROM publications WHERE regime = $1 AND tag = $2", [p.regime, p.tag])).rows
          .length > 0
      )
        return "already";
      if (
        baseline &&
        (await c.query("SELECT 1 FROM publications WHERE regime = $1", [p.regime])).rows.length > 0
      )
        return "raced";
      await c.query(
        "INSERT INTO publications (regime, tag, ref, published_at, changes, baseline) VALUES ($1, $2, $3, $4, $5, $6)",
        [p.regime, p.tag, JSON.stringify(ref), published_at, count, baseline],
      );
      // One statement per table: a release's blocks of changes in one round trip, not one each.
      const blocks = changeBlocks(changes);
      await c.query(
        `INSERT INTO change_blocks (regime, tag, block, body)
           SELECT $1, $2, block, body FROM unnest($3::int[], $4::bytea[]) AS t(block, body)`,
        [p.regime, p.tag, blocks.map((b) => b.block), blocks.map((b) => b.body)],
      );
      await c.query(
        `INSERT INTO payload_templates (key, body) SELECT * FROM unnest($1::text[], $2::text[])
         ON CONFLICT DO NOTHING`,
        [[...templates.keys()], [...templates.values()]],
      );
      await c.query(
        `INSERT INTO deliveries (id, body, payload, basis, state, next_attempt_at)
           SELECT id, body, '', basis, state, next FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
             WITH ORDINALITY AS t(id, body, basis, state, next, n) ORDER BY n
         ON CONFLICT DO NOTHING`,
        [
          owed.map((o) => o.delivery.id),
          owed.map((o) => JSON.stringify(o.delivery)),
          owed.map((o) => JSON.stringify(o.basis)),
          owed.map((o) => o.delivery.state),
          owed.map((o) => o.delivery.next_attempt_at),
        ],
      );
      return "recorded";
    });
  }

  async templateOf(key: string): Promise<string | null> {
    return (
      (await this.pool.query("SELECT body FROM payload_templates WHERE key = $1", [key])).rows[0]?.body ??
      null
    );
  }

  async setTaxonomy(regime: string, taxonomy: Taxonomy): Promise<void> {
    await this.pool.query(
      "INSERT INTO taxonomies (regime, body) VALUES ($1, $2) ON CONFLICT (regime) DO UPDATE SET body = EXCLUDED.body",
      [regime, JSON.stringify(taxonomy)],
    );
  }

  async taxonomy(regime: string): Promise<Taxonomy> {
    const r = (await this.pool.query("SELECT body FROM taxonomies WHERE regime = $1", [regime])).rows[0];
    return r ? (JSON.parse(r.body) as Taxonomy) : { types: [], actors: [] };
  }

  async published(): Promise<Published[]> {
    const pubs = (
      await this.pool.query("SELECT regime, tag, ref, changes, baseline FROM publications ORDER BY seq")
    ).rows;
    const out: Published[] = [];
    for (const p of pubs) {
      const rows = (
        await this.pool.query("SELECT body FROM changes WHERE regime = $1 AND tag = $2 ORDER BY id", [
          p.regime,
          p.tag,
        ])
      ).rows;
      // Publications recorded before blocks keep their changes as rows.
      const blocks = (
        await this.pool.query(
          "SELECT body FROM change_blocks WHERE regime = $1 AND tag = $2 ORDER BY block",
          [p.regime, p.tag],
        )
      ).rows;
      out.push({
        release: JSON.parse(p.ref) as ReleaseRef,
        changes: [
          ...rows.map((r) => JSON.parse(r.body) as Change),
          ...blocks.flatMap((b) => unpackBlock(b.body as Buffer)),
        ],
        baseline: p.baseline ? { changes: p.changes } : null,
      });
    }
    return out;
  }

  async delivery(id: string): Promise<Delivery | null> {
    const r = (await this.pool.query("SELECT body FROM deliveries WHERE id = $1", [id])).rows[0];
    return r ? (JSON.parse(r.body) as Delivery) : null;
  }

  async owedOf(id: string): Promise<{ basis: DeliveryBasis | null; payload: string | null } | null> {
    const r = (await this.pool.query("SELECT payload, basis FROM deliveries WHERE id = $1", [id])).rows[0];
    if (!r) return null;
    return {
      basis: r.basis ? (JSON.parse(r.basis) as DeliveryBasis) : null,
      payload: r.payload === "" ? null : r.payload,
    };
  }

  async deliveriesById(ids: string[]): Promise<Delivery[]> {
    const rows = (await this.pool.query("SELECT id, body FROM deliveries WHERE id = ANY($1)", [ids])).rows;
    const found = new Map(rows.map((r) => [r.id as string, JSON.parse(r.body) as Delivery]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async deliveries(): Promise<Delivery[]> {
    return (await this.pool.query("SELECT body FROM deliveries ORDER BY seq")).rows.map(
      (r) => JSON.parse(r.body) as Delivery,
    );
  }

  async claimDue(now: string, lease: Lease, limit: number): Promise<Delivery[]> {
    const r = await this.pool.query(
      `UPDATE deliveries SET claimed_by = $3, claimed_until = $4
         WHERE id IN (SELECT id FROM deliveries
                       WHERE state = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $2)
                       ORDER BY seq LIMIT $5 FOR UPDATE SKIP LOCKED)
       RETURNING body, seq`,
      [now, lease.at, lease.worker, lease.until, limit],
    );
    return r.rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((x) => JSON.parse(x.body) as Delivery);
  }

  async renewLeases(ids: string[], lease: Lease): Promise<void> {
    await this.pool.query("UPDATE deliveries SET claimed_until = $1 WHERE id = ANY($2) AND claimed_by = $3", [
      lease.until,
      ids,
      lease.worker,
    ]);
  }

  async recordAttempts(
    items: { attempt: Attempt; delivery: Delivery }[],
    worker: string,
  ): Promise<boolean[]> {
    return this.tx(async (c) => {
      // One statement for the group: only rows this worker still holds are updated and returned.
      const held = new Set(
        (
          await c.query(
            `UPDATE deliveries AS d
                SET body = u.body, state = u.state, next_attempt_at = u.next, claimed_by = NULL, claimed_until = NULL
               FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(id, body, state, next)
              WHERE d.id = u.id AND d.claimed_by = $5
          RETURNING d.id`,
            [
              items.map((x) => x.delivery.id),
              items.map((x) => JSON.stringify(x.delivery)),
              items.map((x) => x.delivery.state),
              items.map((x) => x.delivery.next_attempt_at),
              worker,
            ],
          )
        ).rows.map((r) => r.id as string),
      );
      const logged = items.filter((x) => held.has(x.delivery.id)).map((x) => JSON.stringify(x.attempt));
      await c.query("INSERT INTO attempts (body) SELECT unnest($1::text[])", [logged]);
      return items.map((x) => held.has(x.delivery.id));
    });
  }

  async attempts(): Promise<Attempt[]> {
    return (await this.pool.query("SELECT body FROM attempts ORDER BY seq")).rows.map(
      (r) => JSON.parse(r.body) as Attempt,
    );
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
