/**
 * The feed service's store: one asynchronous interface (PostgreSQL's client is asynchronous),
 * implemented over SQLite (`node:sqlite`, the embedded default) and PostgreSQL (`pg`). Everything the service acknowledges is written before it answers,
 * so nothing acknowledged is lost when the process is killed.
 */
import type { Taxonomy } from "../obligations/taxonomy.ts";
import type { Change, ReleaseRef } from "./changes.ts";
import type { Filter } from "./filter.ts";
import type { Published } from "./render.ts";
import type { DeliveryBasis } from "./webhook.ts";

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
  /**
   * The first publication of its regime on this service: its changes are counted, not itemised (one
   * feed item and one notice per subscription link to the release's diff manifest instead).
   */
  baseline: boolean;
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

/** A delivery owed by a publication and what its bytes are rebuilt from when sent. */
export interface Owed {
  delivery: Delivery;
  basis: DeliveryBasis;
}

/**
 * What `addPublication` did: recorded it; found the release already announced (nothing written); or
 * found that a baseline was announced while another publication of its regime landed first (nothing
 * written: the caller plans again).
 */
export type Recorded = "recorded" | "already" | "raced";

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
  /** Every subscription's secret by id, for a publication that signs for all of them. */
  secrets(): Promise<Map<string, string>>;
  /** The next serial for minted subscription ids. */
  nextSubscriptionSerial(): Promise<number>;

  publication(regime: string, tag: string): Promise<Publication | null>;
  /** Whether any release of the regime was published here (the next one is then no baseline). */
  publishedBefore(regime: string): Promise<boolean>;
  /**
   * The outbox: record a publication, its changes (once, whatever the subscriptions), the payload
   * templates its deliveries are made from (one per filter) and every delivery it owes, in one
   * transaction, before anything is sent.
   */
  addPublication(
    p: Publication,
    changes: Change[],
    owed: Owed[],
    templates: Map<string, string>,
  ): Promise<Recorded>;
  /** A payload template by its key (`templateKey`), as `addPublication` stored it. */
  templateOf(key: string): Promise<string | null>;
  /** The entity-type taxonomy of a regime, kept from its latest publication (feeds filter by it). */
  setTaxonomy(regime: string, taxonomy: Taxonomy): Promise<void>;
  taxonomy(regime: string): Promise<Taxonomy>;
  /** Every publication with its itemised changes, oldest first. */
  published(): Promise<Published[]>;

  delivery(id: string): Promise<Delivery | null>;
  /**
   * What a delivery's bytes come from: its basis; or, for a delivery owed before bases were stored,
   * the bytes themselves.
   */
  owedOf(id: string): Promise<{ basis: DeliveryBasis | null; payload: string | null } | null>;
  deliveries(): Promise<Delivery[]>;
  /** The deliveries with these ids, in the order asked. */
  deliveriesById(ids: string[]): Promise<Delivery[]>;
  /**
   * Claim up to `limit` deliveries due at `now` (pending, next attempt at or before now) that no live
   * lease holds, for `lease.worker` until `lease.until`. Lease instants are the real clock (`lease.at`),
   * never ACQUIS_NOW, so a dead worker's claims expire.
   */
  claimDue(now: string, lease: Lease, limit: number): Promise<Delivery[]>;
  /** Extend the worker's leases on deliveries it is still working on. */
  renewLeases(ids: string[], lease: Lease): Promise<void>;
  /**
   * Record attempts and their deliveries' new states in one transaction, each (and its release of the
   * claim) only while `worker` still holds its claim: per item, false (nothing written for it) when it
   * lost the claim.
   */
  recordAttempts(items: { attempt: Attempt; delivery: Delivery }[], worker: string): Promise<boolean[]>;
  attempts(): Promise<Attempt[]>;
  close(): Promise<void>;
}
