/**
 * The feed service's store: one interface, implemented over SQLite (`node:sqlite`, the embedded
 * default) and, later, PostgreSQL. Everything the service acknowledges is written before it answers,
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

export interface FeedStore {
  /** Subscriptions in creation order; secrets only through `secretOf`. */
  subscriptions(): Subscription[];
  addSubscription(s: Subscription, secret: string): void;
  removeSubscription(id: string): boolean;
  secretOf(id: string): string | null;
  /** The next serial for minted subscription ids. */
  nextSubscriptionSerial(): number;

  publication(regime: string, tag: string): Publication | null;
  /** Record a publication and its changes; returns false when the release was already announced. */
  addPublication(p: Publication, changes: Change[]): boolean;
  /** The entity-type taxonomy of a regime, kept from its latest publication (feeds filter by it). */
  setTaxonomy(regime: string, taxonomy: Taxonomy): void;
  taxonomy(regime: string): Taxonomy;
  /** Every published change with its release, oldest publication first. */
  published(): { release: ReleaseRef; changes: Change[] }[];

  delivery(id: string): Delivery | null;
  /** Record a delivery and its payload bytes, unless a delivery of that id exists; returns whether it was new. */
  addDelivery(d: Delivery, payload: string): boolean;
  payloadOf(id: string): string | null;
  deliveries(): Delivery[];
  /** Deliveries due at `now` (pending, next attempt at or before now), claimed for this process. */
  claimDue(now: string): Delivery[];
  /** Record an attempt and the delivery's new state together. */
  recordAttempt(a: Attempt, d: Delivery): void;
  attempts(): Attempt[];
  close(): void;
}
