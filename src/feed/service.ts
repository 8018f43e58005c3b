/**
 * What the feed service does, apart from HTTP: register subscriptions, publish a release (record its
 * atom changes, owe one signed payload to each matching subscription, attempt each inline), retry what is
 * due, and send safely. The clock is injectable: ACQUIS_NOW (RFC 3339) fixes it, so tests walk the retry
 * schedule by restarting the service at later instants over the same store.
 */
import { lookup } from "node:dns/promises";
import { existsSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { join } from "node:path";
import type { Taxonomy } from "../obligations/taxonomy.ts";
import type { DiffManifest } from "../release/diff.ts";
import { loadRelease } from "../release/load.ts";
import { META_FILE } from "../release/meta.ts";
import { releaseDir } from "../release/releases.ts";
import { feedChanges, releaseRef } from "./changes.ts";
import { compileFilter, type Filter, readFilter } from "./filter.ts";
import type { Attempt, Delivery, FeedStore, Publication, Subscription } from "./store.ts";
import { deliveryHeaders, deliveryId, payloadBytes, serviceSignature, webhookPayload } from "./webhook.ts";

export const MAX_ATTEMPTS = 5;
/** Waits after attempts 1 to 4, in seconds. */
export const WAITS = [60, 300, 1800, 7200];
const CONNECT_MS = 5_000;
const TOTAL_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

/** A refusal: an HTTP status and the sentence the Error body carries. */
export class Refusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export function now(): Date {
  const fixed = process.env.ACQUIS_NOW;
  if (fixed) {
    const t = Date.parse(fixed);
    if (Number.isNaN(t)) throw new Error(`ACQUIS_NOW "${fixed}" is not an RFC 3339 instant`);
    return new Date(t);
  }
  return new Date();
}

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/u, "Z");

function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/gu, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/u.test(h);
}

/** Addresses no webhook may reach off loopback: private, link-local, metadata and other non-public ranges. */
export function isForbiddenAddress(address: string): boolean {
  let a = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/u.exec(a);
  if (mapped) a = mapped[1] as string;
  if (isIP(a) === 4) {
    const [x, y] = a.split(".").map(Number) as [number, number];
    return (
      x === 0 ||
      x === 10 ||
      x === 127 ||
      (x === 100 && y >= 64 && y <= 127) ||
      (x === 169 && y === 254) ||
      (x === 172 && y >= 16 && y <= 31) ||
      (x === 192 && y === 168) ||
      x >= 224 ||
      (x === 198 && (y === 18 || y === 19))
    );
  }
  return (
    a === "::" ||
    a === "::1" ||
    a.startsWith("fe8") ||
    a.startsWith("fe9") ||
    a.startsWith("fea") ||
    a.startsWith("feb") ||
    a.startsWith("fc") ||
    a.startsWith("fd") ||
    a.startsWith("ff")
  );
}

export interface Registration {
  endpoint?: unknown;
  secret?: unknown;
  id?: unknown;
  name?: unknown;
  active?: unknown;
  filter?: unknown;
}

export class FeedService {
  readonly store: FeedStore;
  readonly root: string;

  constructor(store: FeedStore, root: string) {
    this.store = store;
    this.root = root;
  }

  async register(body: unknown): Promise<Subscription> {
    if (body === null || typeof body !== "object" || Array.isArray(body))
      throw new Refusal(400, "the body must be a JSON object");
    const r = body as Registration;
    if (typeof r.endpoint !== "string" || r.endpoint === "")
      throw new Refusal(400, "endpoint is required: the http(s) URL deliveries are POSTed to");
    if (typeof r.secret !== "string" || r.secret === "")
      throw new Refusal(400, "secret is required: the key deliveries are signed with");
    let url: URL;
    try {
      url = new URL(r.endpoint);
    } catch {
      throw new Refusal(400, `endpoint "${r.endpoint}" is not a URL`);
    }
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw new Refusal(400, `endpoint "${r.endpoint}" is not http(s)`);
    if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
      throw new Refusal(
        400,
        `endpoint "${r.endpoint}": cleartext http is allowed only to loopback; use https`,
      );
    let filter: Filter;
    try {
      filter = readFilter(r.filter);
    } catch (e) {
      throw new Refusal(400, (e as Error).message);
    }
    if (r.id !== undefined && (typeof r.id !== "string" || r.id === ""))
      throw new Refusal(400, "id must be a non-empty string");
    if (r.active !== undefined && typeof r.active !== "boolean")
      throw new Refusal(400, "active must be true or false");
    const id =
      (r.id as string | undefined) ??
      `sub-${String(await this.store.nextSubscriptionSerial()).padStart(4, "0")}`;
    if ((await this.store.subscriptions()).some((s) => s.id === id))
      throw new Refusal(409, `subscription "${id}" already exists`);
    const sub: Subscription = {
      id,
      name: typeof r.name === "string" && r.name !== "" ? r.name : r.endpoint,
      endpoint: r.endpoint,
      filter,
      active: (r.active as boolean | undefined) ?? true,
      created_at: iso(now()),
    };
    await this.store.addSubscription(sub, r.secret);
    return sub;
  }

  manifestBytes(regime: string, tag: string): Buffer {
    const dir = releaseDir(this.root, regime, tag);
    const file = join(dir, `${tag}.diff.json`);
    if (!/^[a-z0-9_-]+$/u.test(regime) || !/^[A-Za-z0-9._-]+$/u.test(tag) || !existsSync(file))
      throw new Refusal(404, `no diff manifest for ${regime}@${tag}`);
    return readFileSync(file);
  }

  async publish(body: unknown) {
    if (body === null || typeof body !== "object" || Array.isArray(body))
      throw new Refusal(400, "the body must be a JSON object");
    const { regime, tag } = body as { regime?: unknown; tag?: unknown };
    if (typeof regime !== "string" || typeof tag !== "string" || regime === "" || tag === "")
      throw new Refusal(400, "regime and tag are required");
    if (!/^[a-z0-9_-]+$/u.test(regime) || !/^[A-Za-z0-9._-]+$/u.test(tag))
      throw new Refusal(404, `no release ${regime}@${tag}`);
    const dir = releaseDir(this.root, regime, tag);
    if (!existsSync(dir)) throw new Refusal(404, `release ${regime}@${tag} is not built in this checkout`);
    if (!existsSync(join(dir, META_FILE)))
      throw new Refusal(422, `release ${regime}@${tag} lacks its ${META_FILE}`);
    if (!existsSync(join(dir, `${tag}.diff.json`)))
      throw new Refusal(422, `release ${regime}@${tag} lacks its diff manifest ${tag}.diff.json`);
    const manifest = JSON.parse(readFileSync(join(dir, `${tag}.diff.json`), "utf8")) as DiffManifest;
    if (manifest.regime !== regime || manifest.tag !== tag)
      throw new Refusal(409, `the manifest of ${regime}@${tag} states ${manifest.regime}@${manifest.tag}`);
    const release = loadRelease(dir);
    const ref = releaseRef(release);
    const changes = feedChanges(release, manifest);
    const at = now();
    const fresh: Publication = { ...ref, published_at: iso(at), changes: changes.length };
    await this.store.addPublication(fresh, changes);
    await this.store.setTaxonomy(regime, { types: release.taxonomy.types, actors: [] });
    const publication = (await this.store.publication(regime, tag)) as Publication;
    const created: Delivery[] = [];
    const attempts: Attempt[] = [];
    const silent: string[] = [];
    for (const sub of await this.store.subscriptions()) {
      if (!sub.active) continue;
      const matched = changes.filter(compileFilter(sub.filter, release.taxonomy as Taxonomy));
      if (matched.length === 0) {
        silent.push(sub.id);
        continue;
      }
      const payload = payloadBytes(webhookPayload(ref, sub.id, sub.filter, matched));
      const secret = (await this.store.secretOf(sub.id)) ?? "";
      const d: Delivery = {
        id: deliveryId(sub.id, payload),
        subscription: sub.id,
        regime,
        tag,
        event: "release.published",
        state: "pending",
        attempts: 0,
        created_at: iso(at),
        last_error: null,
        next_attempt_at: iso(at),
        signature: serviceSignature(secret, payload),
      };
      if (!(await this.store.addDelivery(d, payload))) continue; // already owed: announcing twice creates nothing
      const attempt = await this.attempt(d, sub);
      attempts.push(attempt);
      created.push((await this.store.delivery(d.id)) as Delivery);
    }
    return { publication, deliveries: created, attempts, silent };
  }

  async retryDue() {
    const subs = new Map((await this.store.subscriptions()).map((s) => [s.id, s]));
    const attempts: Attempt[] = [];
    for (const d of await this.store.claimDue(iso(now()))) {
      const sub = subs.get(d.subscription);
      if (!sub) continue;
      attempts.push(await this.attempt(d, sub));
    }
    return { attempts };
  }

  private async attempt(d: Delivery, sub: Subscription): Promise<Attempt> {
    const at = now();
    const payload = (await this.store.payloadOf(d.id)) ?? "";
    const secret = (await this.store.secretOf(sub.id)) ?? "";
    const result = await send(
      sub.endpoint,
      deliveryHeaders(d.id, secret, payload, Math.floor(at.getTime() / 1000)),
      payload,
    );
    const n = d.attempts + 1;
    const delivered = result.status !== null && result.status >= 200 && result.status < 300;
    const retryAt =
      delivered || n >= MAX_ATTEMPTS ? null : iso(new Date(at.getTime() + (WAITS[n - 1] as number) * 1000));
    const error = delivered ? null : (result.error ?? `HTTP ${result.status}`);
    const updated: Delivery = {
      ...d,
      attempts: n,
      state: delivered ? "delivered" : n >= MAX_ATTEMPTS ? "exhausted" : "pending",
      last_error: error,
      next_attempt_at: retryAt,
    };
    const attempt: Attempt = {
      at: iso(at),
      attempt: n,
      delivery: d.id,
      subscription: sub.id,
      endpoint: sub.endpoint,
      outcome: delivered ? "delivered" : "failed",
      status: result.status,
      error,
      retry_at: retryAt,
    };
    await this.store.recordAttempt(attempt, updated);
    return attempt;
  }
}

/**
 * POST the payload: connect and total timeouts, no redirects followed (a 3xx is a failure), at most
 * 64 KiB of the response read. Off loopback the host is resolved, every address checked against the
 * forbidden ranges, and the connection made to the address that was checked.
 */
export async function send(
  endpoint: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number | null; error: string | null }> {
  const url = new URL(endpoint);
  let pinned: string | null = null;
  if (!isLoopbackHost(url.hostname)) {
    try {
      const addresses = await lookup(url.hostname.replace(/^\[|\]$/gu, ""), { all: true });
      if (addresses.length === 0 || addresses.some((a) => isForbiddenAddress(a.address))) {
        return { status: null, error: `refused: ${url.hostname} resolves to a non-public address` };
      }
      pinned = (addresses[0] as { address: string }).address;
    } catch (e) {
      return { status: null, error: `cannot resolve ${url.hostname}: ${(e as Error).message}` };
    }
  }
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: { status: number | null; error: string | null }) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      resolve(r);
    };
    const req = request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        timeout: CONNECT_MS,
        ...(pinned
          ? {
              lookup: (_h: string, _o: unknown, cb: (e: null, a: string, f: number) => void) =>
                cb(null, pinned as string, isIP(pinned as string)),
            }
          : {}),
      },
      (res) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on("end", () => done({ status: res.statusCode ?? null, error: null }));
        res.on("close", () => done({ status: res.statusCode ?? null, error: null }));
      },
    );
    const total = setTimeout(() => {
      req.destroy(new Error(`no answer within ${TOTAL_MS} ms`));
    }, TOTAL_MS);
    req.on("timeout", () => req.destroy(new Error(`no connection within ${CONNECT_MS} ms`)));
    req.on("error", (e) => done({ status: null, error: e.message }));
    req.end(body);
  });
}
