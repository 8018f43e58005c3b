/**
 * The feed store over SQLite (`node:sqlite`). WAL journaling with synchronous=FULL: a transaction the
 * service has committed survives `kill -9`. Schema changes are versioned migrations, applied in order
 * and recorded in `schema_migrations`.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { deflateRawSync, inflateRawSync } from "node:zlib";
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
  // A delivery stores what its bytes are built from, not the bytes (an empty payload); a baseline
  // publication is flagged.
  `ALTER TABLE publications ADD COLUMN baseline INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE deliveries ADD COLUMN basis TEXT;`,
  // A publication's changes in compressed blocks of consecutive ids (change-blocks.ts).
  `CREATE TABLE change_blocks (
     regime TEXT NOT NULL, tag TEXT NOT NULL, block INTEGER NOT NULL, first_id TEXT NOT NULL,
     last_id TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY (regime, tag, block));
   CREATE INDEX change_blocks_first ON change_blocks (first_id);
   CREATE TABLE payload_templates (key TEXT PRIMARY KEY, body BLOB NOT NULL);`,
];

/** SQLite binds at most 32 766 parameters; lists are asked for in slices well under it. */
const SLICE = 500;

export class SqliteStore implements FeedStore {
  private readonly db: DatabaseSync;

  constructor(file: string) {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    // journal_size_limit: the write-ahead log is cut back after a checkpoint instead of keeping the
    // size of the largest publication it ever held.
    this.db.exec(
      "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000; PRAGMA journal_size_limit = 4194304;",
    );
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

  async secrets(): Promise<Map<string, string>> {
    const rows = this.db.prepare("SELECT id, secret FROM subscriptions").all() as {
      id: string;
      secret: string;
    }[];
    return new Map(rows.map((r) => [r.id, r.secret]));
  }

  async nextSubscriptionSerial(): Promise<number> {
    const row = this.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'subscriptions'").get() as
      | { seq?: number }
      | undefined;
    return (row?.seq ?? 0) + 1;
  }

  async publication(regime: string, tag: string): Promise<Publication | null> {
    const r = this.db
      .prepare("SELECT ref, published_at, changes, baseline FROM publications WHERE regime = ? AND tag = ?")
      .get(regime, tag) as
      | { ref: string; published_at: string; changes: number; baseline: number }
      | undefined;
    return r
      ? {
          ...(JSON.parse(r.ref) as ReleaseRef),
          published_at: r.published_at,
          changes: r.changes,
          baseline: r.baseline === 1,
        }
      : null;
  }

  async publishedBefore(regime: string): Promise<boolean> {
    return this.db.prepare("SELECT 1 FROM publications WHERE regime = ? LIMIT 1").get(regime) !== undefined;
  }

  async addPublication(
    p: Publication,
    changes: Change[],
    owed: Owed[],
    templates: Map<string, string>,
  ): Promise<Recorded> {
    return this.tx(() => {
      if (this.db.prepare("SELECT 1 FROM publications WHERE regime = ? AND tag = ?").get(p.regime, p.tag))
        return "already";
      if (p.baseline && this.db.prepare("SELECT 1 FROM publications WHERE regime = ?").get(p.regime))
        return "raced";
      const { published_at, changes: count, baseline, ...ref } = p;
      const seq =
        ((this.db.prepare("SELECT COUNT(*) AS n FROM publications").get() as { n: number }).n ?? 0) + 1;
      this.db
        .prepare(
          "INSERT INTO publications (regime, tag, ref, published_at, changes, seq, baseline) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(p.regime, p.tag, JSON.stringify(ref), published_at, count, seq, baseline ? 1 : 0);
      const block = this.db.prepare(
        "INSERT INTO change_blocks (regime, tag, block, first_id, last_id, body) VALUES (?, ?, ?, ?, ?, ?)",
      );
      for (const b of changeBlocks(changes)) block.run(p.regime, p.tag, b.block, b.first, b.last, b.body);
      const template = this.db.prepare("INSERT OR IGNORE INTO payload_templates (key, body) VALUES (?, ?)");
      for (const [key, text] of templates) template.run(key, deflateRawSync(text, { level: 3 }));
      let seqD = (this.db.prepare("SELECT COUNT(*) AS n FROM deliveries").get() as { n: number }).n ?? 0;
      const owe = this.db.prepare(
        "INSERT OR IGNORE INTO deliveries (id, body, payload, basis, state, next_attempt_at, seq) VALUES (?, ?, '', ?, ?, ?, ?)",
      );
      for (const o of owed)
        owe.run(
          o.delivery.id,
          JSON.stringify(o.delivery),
          JSON.stringify(o.basis),
          o.delivery.state,
          o.delivery.next_attempt_at,
          ++seqD,
        );
      return "recorded";
    });
  }

  async templateOf(key: string): Promise<string | null> {
    const r = this.db.prepare("SELECT body FROM payload_templates WHERE key = ?").get(key) as
      | { body: Uint8Array }
      | undefined;
    return r ? inflateRawSync(r.body).toString("utf8") : null;
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

  async published(): Promise<Published[]> {
    const pubs = this.db
      .prepare("SELECT regime, tag, ref, changes, baseline FROM publications ORDER BY seq")
      .all() as { regime: string; tag: string; ref: string; changes: number; baseline: number }[];
    const rows = this.db.prepare("SELECT body FROM changes WHERE regime = ? AND tag = ? ORDER BY id");
    const blocks = this.db.prepare(
      "SELECT body FROM change_blocks WHERE regime = ? AND tag = ? ORDER BY block",
    );
    return pubs.map((p) => ({
      release: JSON.parse(p.ref) as ReleaseRef,
      changes: [
        ...(rows.all(p.regime, p.tag) as { body: string }[]).map((r) => JSON.parse(r.body) as Change),
        ...(blocks.all(p.regime, p.tag) as { body: Uint8Array }[]).flatMap((b) => unpackBlock(b.body)),
      ],
      baseline: p.baseline === 1 ? { changes: p.changes } : null,
    }));
  }

  async delivery(id: string): Promise<Delivery | null> {
    const r = this.db.prepare("SELECT body FROM deliveries WHERE id = ?").get(id) as
      | { body: string }
      | undefined;
    return r ? (JSON.parse(r.body) as Delivery) : null;
  }

  async owedOf(id: string): Promise<{ basis: DeliveryBasis | null; payload: string | null } | null> {
    const r = this.db.prepare("SELECT payload, basis FROM deliveries WHERE id = ?").get(id) as
      | { payload: string; basis: string | null }
      | undefined;
    if (!r) return null;
    return {
      basis: r.basis ? (JSON.parse(r.basis) as DeliveryBasis) : null,
      payload: r.payload === "" ? null : r.payload,
    };
  }

  async deliveries(): Promise<Delivery[]> {
    return (this.db.prepare("SELECT body FROM deliveries ORDER BY seq").all() as { body: string }[]).map(
      (r) => JSON.parse(r.body) as Delivery,
    );
  }

  async deliveriesById(ids: string[]): Promise<Delivery[]> {
    const found = new Map<string, Delivery>();
    for (let i = 0; i < ids.length; i += SLICE) {
      const slice = ids.slice(i, i + SLICE);
      const rows = this.db
        .prepare(`SELECT id, body FROM deliveries WHERE id IN (${slice.map(() => "?").join(",")})`)
        .all(...slice) as { id: string; body: string }[];
      for (const r of rows) found.set(r.id, JSON.parse(r.body) as Delivery);
    }
    return ids.flatMap((id) => found.get(id) ?? []);
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

  async recordAttempts(
    items: { attempt: Attempt; delivery: Delivery }[],
    worker: string,
  ): Promise<boolean[]> {
    return this.tx(() => {
      const update = this.db.prepare(
        "UPDATE deliveries SET body = ?, state = ?, next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?",
      );
      const log = this.db.prepare("INSERT INTO attempts (body) VALUES (?)");
      return items.map(({ attempt, delivery: d }) => {
        const held = update.run(JSON.stringify(d), d.state, d.next_attempt_at, d.id, worker);
        if (Number(held.changes) === 0) return false;
        log.run(JSON.stringify(attempt));
        return true;
      });
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
