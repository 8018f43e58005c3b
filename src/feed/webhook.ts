/**
 * Webhook deliveries: the payload's exact bytes, the delivery id, and the signature headers.
 *
 * Bytes: keys sorted at every level, two-space indent, one trailing newline, so the signature is
 * reproducible and the delivery id (a function of subscription and payload bytes) stable across
 * re-announcement. Signatures: `X-Service-Signature: sha256=<hex>` (HMAC-SHA256 with the subscription's
 * secret over the bytes, as GitHub's X-Hub-Signature-256) and the Standard Webhooks headers
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over `id.timestamp.body`, keyed
 * by the secret's UTF-8 bytes, or the decoded bytes of a `whsec_` secret).
 */
import { createHash, createHmac } from "node:crypto";
import type { Change, ReleaseRef } from "./changes.ts";
import type { Filter } from "./filter.ts";
import { FEED_SCHEMA_VERSION } from "./render.ts";

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** Keys sorted, two-space indent, one trailing newline (a format canonical JSON libraries do not offer). */
export function webhookBody(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/**
 * Why a payload carries fewer changes than its filter matched, how many it leaves out, and where they
 * are: a baseline publication itemises none (the link is the release's diff manifest); a payload over
 * the budget carries the first changes that fit (the link is the feed, filtered as the subscription
 * is, from the last change carried). GitHub's push event caps its commits the same way.
 */
export interface Omitted {
  changes: number;
  reason: "baseline" | "budget";
  url: string;
}

/**
 * What a delivery is built from, stored with it in place of its bytes: the payload is rebuilt from
 * the publication's stored changes when it is sent, and checked against the signature made at
 * publication, so a change set is stored once however many subscriptions it reaches.
 */
export interface DeliveryBasis {
  filter: Filter;
  /** How many of the release's changes the filter matched. */
  matched: number;
  /** The ids of the changes the payload carries, in order. */
  carried: string[];
  omitted: Omitted | null;
}

/** Bytes of changes one payload carries at most (their compact JSON); the rest are linked. */
export const WEBHOOK_CHANGES_BUDGET = 64 * 1024;

/**
 * The payload object. `counts.changes` is how many changes the filter matched; `changes` carries them
 * all unless `omitted` says how many it leaves out and where they are.
 */
export function webhookPayload(
  release: ReleaseRef,
  subscription: string,
  filter: Filter,
  changes: Change[],
  basis: Pick<DeliveryBasis, "matched" | "omitted"> = { matched: changes.length, omitted: null },
) {
  return {
    event: "release.published",
    release,
    subscription,
    filter,
    changes,
    counts: { changes: basis.matched },
    ...(basis.omitted ? { omitted: basis.omitted } : {}),
    schema_version: FEED_SCHEMA_VERSION,
  };
}

export function deliveryId(subscription: string, payload: string): string {
  return `dlv_${createHash("sha256").update(`${subscription}\n${payload}`).digest("hex").slice(0, 32)}`;
}

export function serviceSignature(secret: string, payload: string): string {
  return `sha256=${createHmac("sha256", secret).update(payload).digest("hex")}`;
}

function standardKey(secret: string): Buffer {
  return secret.startsWith("whsec_")
    ? Buffer.from(secret.slice("whsec_".length), "base64")
    : Buffer.from(secret, "utf8");
}

/** The headers of one attempt at a delivery, at `unixSeconds`. */
export function deliveryHeaders(
  id: string,
  secret: string,
  payload: string,
  unixSeconds: number,
  /** The payload's `serviceSignature`, when the caller has already made it. */
  signature = serviceSignature(secret, payload),
): Record<string, string> {
  const ts = String(unixSeconds);
  return {
    "content-type": "application/json",
    "x-service-delivery": id,
    "x-service-signature": signature,
    "webhook-id": id,
    "webhook-timestamp": ts,
    "webhook-signature": `v1,${createHmac("sha256", standardKey(secret)).update(`${id}.${ts}.${payload}`).digest("base64")}`,
  };
}
