/**
 * The feed service's store: one asynchronous interface (PostgreSQL's client is asynchronous),
 * implemented over SQLite (`node:sqlite`, the embedded default) and PostgreSQL (`pg`). Everything the service acknowledges is written before it answers,
 * so nothing acknowledged is lost when the process is killed.
 */
import type { Taxonomy } from "../obligations/taxonomy.ts";
import type { Change, ReleaseRef } from "./changes.ts";
import type { Filter } from "./filter.ts";

export interface Subscription {
  id: string;
  name: string;
  endpoint: string;
  filter: Filter;
  active: boolean;
  created_at: string;
}

export interface Publication extends ReleaseRef {
  published_at: string;
  changes: number;
}

export type DeliveryState = "pending" | "delivered" | "exhausted";

export interface Delivery {
  id: string;
  subscription: string;
  regime: string;
  tag: string;
  event: "release.published";
  state: DeliveryState;
  attempts: number;
  created_at: string;
  last_error: string | null;
  next_attempt_at: string | null;
  signature: string;
}

export interface Attempt {
  at: string;
  attempt: number;
  delivery: string;
  subscription: string;
  endpoint: string;
  outcome: "delivered" | "failed";
  status: number | null;
  error: string | null;
  retry_at: string | null;
}

/** A delivery owed by a publication and the exact bytes it will send. */
export interface Owed {
  delivery: Delivery;
  payload: string;
}

/** A worker's claim: who, the real instant now, and until when. */
export interface Lease {
  worker: string;
  at: string;
  until: string;
}

export interface FeedStore {
  /** Subscriptions in creation order; secrets only through `secretOf`. */
  subscriptions(): Promise<Subscription[]>;
  addSubscription(s: Subscription, secret: string): Promise<void>;
  removeSubscription(id: string): Promise<boolean>;
  secretOf(id: string): Promise<string | null>;
  /** The next serial for minted subscription ids. */
  nextSubscriptionSerial(): Promise<number>;

  publication(regime: string, tag: string): Promise<Publication | null>;
  /**
   * The outbox: record a publication, its changes and every delivery it owes in one transaction, before
   * anything is sent; returns false (and writes nothing) when the release was already announced.
   */
  addPublication(p: Publication, changes: Change[], owed: Owed[]): Promise<boolean>;
  /** The entity-type taxonomy of a regime, kept from its latest publication (feeds filter by it). */
  setTaxonomy(regime: string, taxonomy: Taxonomy): Promise<void>;
  taxonomy(regime: string): Promise<Taxonomy>;
  /** Every published change with its release, oldest publication first. */
  published(): Promise<{ release: ReleaseRef; changes: Change[] }[]>;

  delivery(id: string): Promise<Delivery | null>;
  payloadOf(id: string): Promise<string | null>;
  deliveries(): Promise<Delivery[]>;
  /**
   * Claim up to `limit` deliveries due at `now` (pending, next attempt at or before now) that no live
   * lease holds, for `lease.worker` until `lease.until`. Lease instants are the real clock (`lease.at`),
   * never ACQUIS_NOW, so a dead worker's claims expire.
   */
  claimDue(now: string, lease: Lease, limit: number): Promise<Delivery[]>;
  /** Extend the worker's leases on deliveries it is still working on. */
  renewLeases(ids: string[], lease: Lease): Promise<void>;
  /**
   * Record an attempt and the delivery's new state together, and release the claim, only while
   * `worker` still holds it; false (nothing written) when it lost the claim.
   */
  recordAttempt(a: Attempt, d: Delivery, worker: string): Promise<boolean>;
  attempts(): Promise<Attempt[]>;
  close(): Promise<void>;
}
