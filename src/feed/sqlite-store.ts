/**
 * The feed store over SQLite (`node:sqlite`). WAL journaling with synchronous=FULL: a transaction the
 * service has committed survives `kill -9`. Schema changes are versioned migrations, applied in order
 * and recorded in `schema_migrations`.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Taxonomy } from "../obligations/taxonomy.ts";
import type { Change, ReleaseRef } from "./changes.ts";
import type { Attempt, Delivery, FeedStore, Lease, Owed, Publication, Subscription } from "./store.ts";

/** Migrations, in order; never edited once released, only appended. */
export const MIGRATIONS: string[] = [
  `CREATE TABLE subscriptions (
     serial INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, endpoint TEXT NOT NULL, filter TEXT NOT NULL,
     active INTEGER NOT NULL, created_at TEXT NOT NULL, secret TEXT NOT NULL);
   CREATE TABLE publications (
     regime TEXT NOT NULL, tag TEXT NOT NULL, ref TEXT NOT NULL, published_at TEXT NOT NULL, changes INTEGER NOT NULL,
     seq INTEGER NOT NULL, PRIMARY KEY (regime, tag));
   CREATE TABLE changes (
     id TEXT PRIMARY KEY, regime TEXT NOT NULL, tag TEXT NOT NULL, body TEXT NOT NULL);
   CREATE TABLE deliveries (
     id TEXT PRIMARY KEY, body TEXT NOT NULL, payload TEXT NOT NULL, state TEXT NOT NULL, next_attempt_at TEXT,
     seq INTEGER NOT NULL);
   CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at);
   CREATE TABLE attempts (seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL);`,
  `CREATE TABLE taxonomies (regime TEXT PRIMARY KEY, body TEXT NOT NULL);`,
  `ALTER TABLE deliveries ADD COLUMN claimed_by TEXT;
   ALTER TABLE deliveries ADD COLUMN claimed_until TEXT;`,
];

export class SqliteStore implements FeedStore {
  private readonly db: DatabaseSync;

  constructor(file: string) {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    this.db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;");
    this.db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)");
    const done = new Set(
      (this.db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map(
        (r) => r.version,
      ),
    );
    MIGRATIONS.forEach((sql, i) => {
      if (done.has(i + 1)) return;
      this.tx(() => {
        this.db.exec(sql);
        this.db.prepare("INSERT INTO schema_migrations (version) VALUES (?)").run(i + 1);
      });
    });
  }

  private tx<T>(f: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const r = f();
      this.db.exec("COMMIT");
      return r;
    } catch (e) {
      this.db.exec("ROLLBACK");
      throw e;
    }
  }

  async subscriptions(): Promise<Subscription[]> {
    return (
      this.db
        .prepare("SELECT id, name, endpoint, filter, active, created_at FROM subscriptions ORDER BY serial")
        .all() as Record<string, unknown>[]
    ).map((r) => ({
      id: r.id as string,
      name: r.name as string,
      endpoint: r.endpoint as string,
      filter: JSON.parse(r.filter as string),
      active: r.active === 1,
      created_at: r.created_at as string,
    }));
  }

  async addSubscription(s: Subscription, secret: string): Promise<void> {
    this.db
      .prepare(
        "INSERT INTO subscriptions (id, name, endpoint, filter, active, created_at, secret) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(s.id, s.name, s.endpoint, JSON.stringify(s.filter), s.active ? 1 : 0, s.created_at, secret);
  }

  async removeSubscription(id: string): Promise<boolean> {
    return Number(this.db.prepare("DELETE FROM subscriptions WHERE id = ?").run(id).changes) > 0;
  }

  async secretOf(id: string): Promise<string | null> {
    return ((
      this.db.prepare("SELECT secret FROM subscriptions WHERE id = ?").get(id) as
        | { secret?: string }
        | undefined
    )?.secret ?? null) as string | null;
  }

  async nextSubscriptionSerial(): Promise<number> {
    const row = this.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'subscriptions'").get() as
      | { seq?: number }
      | undefined;
    return (row?.seq ?? 0) + 1;
  }

  async publication(regime: string, tag: string): Promise<Publication | null> {
    const r = this.db
      .prepare("SELECT ref, published_at, changes FROM publications WHERE regime = ? AND tag = ?")
      .get(regime, tag) as { ref: string; published_at: string; changes: number } | undefined;
    return r
      ? { ...(JSON.parse(r.ref) as ReleaseRef), published_at: r.published_at, changes: r.changes }
      : null;
  }

  async addPublication(p: Publication, changes: Change[], owed: Owed[]): Promise<boolean> {
    return this.tx(() => {
      if (this.db.prepare("SELECT 1 FROM publications WHERE regime = ? AND tag = ?").get(p.regime, p.tag))
        return false;
      const { published_at, changes: count, ...ref } = p;
      const seq =
        ((this.db.prepare("SELECT COUNT(*) AS n FROM publications").get() as { n: number }).n ?? 0) + 1;
      this.db
        .prepare(
          "INSERT INTO publications (regime, tag, ref, published_at, changes, seq) VALUES (?, ?, ?, ?, ?, ?)",
        )
        .run(p.regime, p.tag, JSON.stringify(ref), published_at, count, seq);
      const insert = this.db.prepare(
        "INSERT OR IGNORE INTO changes (id, regime, tag, body) VALUES (?, ?, ?, ?)",
      );
      for (const c of changes) insert.run(c.id, p.regime, p.tag, JSON.stringify(c));
      let seqD = (this.db.prepare("SELECT COUNT(*) AS n FROM deliveries").get() as { n: number }).n ?? 0;
      const owe = this.db.prepare(
        "INSERT OR IGNORE INTO deliveries (id, body, payload, state, next_attempt_at, seq) VALUES (?, ?, ?, ?, ?, ?)",
      );
      for (const o of owed)
        owe.run(
          o.delivery.id,
          JSON.stringify(o.delivery),
          o.payload,
          o.delivery.state,
          o.delivery.next_attempt_at,
          ++seqD,
        );
      return true;
    });
  }

  async setTaxonomy(regime: string, taxonomy: Taxonomy): Promise<void> {
    this.db
      .prepare(
        "INSERT INTO taxonomies (regime, body) VALUES (?, ?) ON CONFLICT (regime) DO UPDATE SET body = excluded.body",
      )
      .run(regime, JSON.stringify(taxonomy));
  }

  async taxonomy(regime: string): Promise<Taxonomy> {
    const r = this.db.prepare("SELECT body FROM taxonomies WHERE regime = ?").get(regime) as
      | { body: string }
      | undefined;
    return r ? (JSON.parse(r.body) as Taxonomy) : { types: [], actors: [] };
  }

  async published(): Promise<{ release: ReleaseRef; changes: Change[] }[]> {
    const pubs = this.db.prepare("SELECT regime, tag, ref FROM publications ORDER BY seq").all() as {
      regime: string;
      tag: string;
      ref: string;
    }[];
    const changes = this.db.prepare("SELECT body FROM changes WHERE regime = ? AND tag = ? ORDER BY id");
    return pubs.map((p) => ({
      release: JSON.parse(p.ref) as ReleaseRef,
      changes: (changes.all(p.regime, p.tag) as { body: string }[]).map((r) => JSON.parse(r.body) as Change),
    }));
  }

  async delivery(id: string): Promise<Delivery | null> {
    const r = this.db.prepare("SELECT body FROM deliveries WHERE id = ?").get(id) as
      | { body: string }
      | undefined;
    return r ? (JSON.parse(r.body) as Delivery) : null;
  }

  async payloadOf(id: string): Promise<string | null> {
    return (
      (
        this.db.prepare("SELECT payload FROM deliveries WHERE id = ?").get(id) as
          | { payload?: string }
          | undefined
      )?.payload ?? null
    );
  }

  async deliveries(): Promise<Delivery[]> {
    return (this.db.prepare("SELECT body FROM deliveries ORDER BY seq").all() as { body: string }[]).map(
      (r) => JSON.parse(r.body) as Delivery,
    );
  }

  async claimDue(now: string, lease: Lease, limit: number): Promise<Delivery[]> {
    // BEGIN IMMEDIATE takes the write lock first, so two processes on one file never claim the same row.
    return this.tx(() => {
      const rows = this.db
        .prepare(
          `SELECT id, body FROM deliveries WHERE state = 'pending' AND next_attempt_at <= ?
             AND (claimed_until IS NULL OR claimed_until <= ?) ORDER BY seq LIMIT ?`,
        )
        .all(now, lease.at, limit) as { id: string; body: string }[];
      const claim = this.db.prepare("UPDATE deliveries SET claimed_by = ?, claimed_until = ? WHERE id = ?");
      for (const r of rows) claim.run(lease.worker, lease.until, r.id);
      return rows.map((r) => JSON.parse(r.body) as Delivery);
    });
  }

  async renewLeases(ids: string[], lease: Lease): Promise<void> {
    this.tx(() => {
      const renew = this.db.prepare(
        "UPDATE deliveries SET claimed_until = ? WHERE id = ? AND claimed_by = ?",
      );
      for (const id of ids) renew.run(lease.until, id, lease.worker);
    });
  }

  async recordAttempt(a: Attempt, d: Delivery, worker: string): Promise<boolean> {
    return this.tx(() => {
      const held = this.db
        .prepare(
          "UPDATE deliveries SET body = ?, state = ?, next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?",
        )
        .run(JSON.stringify(d), d.state, d.next_attempt_at, d.id, worker);
      if (Number(held.changes) === 0) return false;
      this.db.prepare("INSERT INTO attempts (body) VALUES (?)").run(JSON.stringify(a));
      return true;
    });
  }

  async attempts(): Promise<Attempt[]> {
    return (this.db.prepare("SELECT body FROM attempts ORDER BY seq").all() as { body: string }[]).map(
      (r) => JSON.parse(r.body) as Attempt,
    );
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
