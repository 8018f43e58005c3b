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

export function webhookPayload(release: ReleaseRef, subscription: string, filter: Filter, changes: Change[]) {
  return {
    event: "release.published",
    release,
    subscription,
    filter,
    changes,
    counts: { changes: changes.length },
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
): Record<string, string> {
  const ts = String(unixSeconds);
  return {
    "content-type": "application/json",
    "x-service-delivery": id,
    "x-service-signature": serviceSignature(secret, payload),
    "webhook-id": id,
    "webhook-timestamp": ts,
    "webhook-signature": `v1,${createHmac("sha256", standardKey(secret)).update(`${id}.${ts}.${payload}`).digest("base64")}`,
  };
}
