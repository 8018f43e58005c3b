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

export interface FeedStore {
  /** Subscriptions in creation order; secrets only through `secretOf`. */
  subscriptions(): Promise<Subscription[]>;
  addSubscription(s: Subscription, secret: string): Promise<void>;
  removeSubscription(id: string): Promise<boolean>;
  secretOf(id: string): Promise<string | null>;
  /** The next serial for minted subscription ids. */
  nextSubscriptionSerial(): Promise<number>;

  publication(regime: string, tag: string): Promise<Publication | null>;
  /** Record a publication and its changes; returns false when the release was already announced. */
  addPublication(p: Publication, changes: Change[]): Promise<boolean>;
  /** The entity-type taxonomy of a regime, kept from its latest publication (feeds filter by it). */
  setTaxonomy(regime: string, taxonomy: Taxonomy): Promise<void>;
  taxonomy(regime: string): Promise<Taxonomy>;
  /** Every published change with its release, oldest publication first. */
  published(): Promise<{ release: ReleaseRef; changes: Change[] }[]>;

  delivery(id: string): Promise<Delivery | null>;
  /** Record a delivery and its payload bytes, unless a delivery of that id exists; returns whether it was new. */
  addDelivery(d: Delivery, payload: string): Promise<boolean>;
  payloadOf(id: string): Promise<string | null>;
  deliveries(): Promise<Delivery[]>;
  /** Deliveries due at `now` (pending, next attempt at or before now), claimed for this process. */
  claimDue(now: string): Promise<Delivery[]>;
  /** Record an attempt and the delivery's new state together. */
  recordAttempt(a: Attempt, d: Delivery): Promise<void>;
  attempts(): Promise<Attempt[]>;
  close(): Promise<void>;
}
