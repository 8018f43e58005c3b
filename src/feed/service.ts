/**
 * What the feed service does, apart from HTTP: register subscriptions, publish a release (record its
 * atom changes, owe one signed payload to each matching subscription, attempt each inline), retry what is
 * due (sending itself is send.ts). The clock is injectable: ACQUIS_NOW (RFC 3339) fixes it, so tests walk the retry
 * schedule by restarting the service at later instants over the same store.
 */

import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isIP } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import pLimit, { type LimitFunction } from "p-limit";
import type { DiffManifest } from "../release/diff.ts";
import { META_FILE } from "../release/meta.ts";
import { releaseDir } from "../release/releases.ts";
import { feedChanges, readPublishable, releaseRef } from "./changes.ts";
import { Fanout, PayloadTemplate, templateKey } from "./fanout.ts";
import { type Filter, readFilter } from "./filter.ts";
import { GroupCommit } from "./group-commit.ts";
import { addressRefusal, redactEndpoint, send } from "./send.ts";
import type { Attempt, Delivery, FeedStore, Owed, Publication, Subscription } from "./store.ts";
import { deliveryHeaders, deliveryId, serviceSignature } from "./webhook.ts";

export const MAX_ATTEMPTS = 5;
/** Waits after attempts 1 to 4, in seconds. */
export const WAITS = [60, 300, 1800, 7200];
/** How long a claim lasts unless renewed: three times one attempt's limit (renewed every third of it). */
export const DEFAULT_LEASE_SECONDS = 30;
/** Deliveries claimed at a time: enough to keep the sends busy, few enough that a pass never holds much work another worker could do. */
const CLAIM_BATCH = 32;
/** Attempts in flight to one endpoint (scheme, host and port) at once, so no receiver is flooded. */
export const PER_ENDPOINT = 8;
/** Attempts in flight in one pass, over all endpoints. */
const IN_FLIGHT = 32;

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

/** A webhook secret carries at least this many bytes of key (a `whsec_` secret: decoded bytes). */
export const MIN_SECRET_BYTES = 24;
/** Ids of this form are minted by the service; a client may not take one. */
const MINTED_ID = /^sub-\d+$/u;
const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/u;

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

  readonly allowLoopback: boolean;
  readonly leaseSeconds: number;
  /** The service's public address, as payloads' links are written against it. */
  readonly baseUrl: () => string;
  /** This process's name in leases. */
  readonly worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    store: FeedStore,
    root: string,
    opts: { allowLoopback?: boolean; leaseSeconds?: number; baseUrl?: () => string } = {},
  ) {
    this.store = store;
    this.root = root;
    this.allowLoopback = opts.allowLoopback ?? false;
    this.leaseSeconds = opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    this.baseUrl = opts.baseUrl ?? (() => "http://127.0.0.1:8787");
  }

  async register(body: unknown): Promise<Subscription> {
    if (body === null || typeof body !== "object" || Array.isArray(body))
      throw new Refusal(400, "the body must be a JSON object");
    const r = body as Registration;
    if (typeof r.endpoint !== "string" || r.endpoint === "")
      throw new Refusal(400, "endpoint is required: the http(s) URL deliveries are POSTed to");
    if (typeof r.secret !== "string" || r.secret === "")
      throw new Refusal(400, "secret is required: the key deliveries are signed with");
    const keyBytes = r.secret.startsWith("whsec_")
      ? Buffer.from(r.secret.slice("whsec_".length), "base64")
      : Buffer.from(r.secret, "utf8");
    if (keyBytes.length < MIN_SECRET_BYTES)
      throw new Refusal(
        400,
        `secret carries ${keyBytes.length} bytes of key; at least ${MIN_SECRET_BYTES} random bytes are required (e.g. \`openssl rand -base64 32\`)`,
      );
    let url: URL;
    try {
      url = new URL(r.endpoint);
    } catch {
      throw new Refusal(400, `endpoint "${r.endpoint}" is not a URL`);
    }
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw new Refusal(400, `endpoint "${r.endpoint}" is not http(s)`);
    const shown = redactEndpoint(r.endpoint);
    const literal = url.hostname.replace(/^\[|\]$/gu, "");
    const loopbackName = literal === "localhost" || literal.endsWith(".localhost");
    if (url.protocol === "http:" && !(this.allowLoopback && (loopbackName || isIP(literal) !== 0)))
      throw new Refusal(
        400,
        `endpoint "${shown}": cleartext http is refused; use https (http only to loopback, with --allow-loopback-endpoints)`,
      );
    if (isIP(literal) !== 0) {
      const refusal = addressRefusal(literal, this.allowLoopback);
      if (refusal) throw new Refusal(400, `endpoint "${shown}": ${refusal}`);
    } else if (loopbackName && !this.allowLoopback)
      throw new Refusal(400, `endpoint "${shown}": loopback is refused (--allow-loopback-endpoints)`);
    let filter: Filter;
    try {
      filter = readFilter(r.filter);
    } catch (e) {
      throw new Refusal(400, (e as Error).message);
    }
    if (r.id !== undefined && (typeof r.id !== "string" || !CLIENT_ID.test(r.id)))
      throw new Refusal(400, `id must match ${CLIENT_ID.source}`);
    if (typeof r.id === "string" && MINTED_ID.test(r.id))
      throw new Refusal(
        400,
        `id "${r.id}": ids of the form sub-<number> are minted by the service; choose another`,
      );
    if (r.active !== undefined && typeof r.active !== "boolean")
      throw new Refusal(400, "active must be true or false");
    const id =
      (r.id as string | undefined) ??
      `sub-${String(await this.store.nextSubscriptionSerial()).padStart(4, "0")}`;
    if ((await this.store.subscriptions()).some((s) => s.id === id))
      throw new Refusal(409, `subscription "${id}" already exists`);
    const sub: Subscription = {
      id,
      name: typeof r.name === "string" && r.name !== "" ? r.name : shown,
      endpoint: r.endpoint,
      filter,
      active: (r.active as boolean | undefined) ?? true,
      created_at: iso(now()),
    };
    await this.store.addSubscription(sub, r.secret);
    return { ...sub, endpoint: shown };
  }

  manifestBytes(regime: string, tag: string): Buffer {
    const dir = releaseDir(this.root, regime, tag);
    const file = join(dir, `${tag}.diff.json`);
    if (!/^[a-z0-9_-]+$/u.test(regime) || !/^[A-Za-z0-9._-]+$/u.test(tag) || !existsSync(file))
      throw new Refusal(404, `no diff manifest for ${regime}@${tag}`);
    return readFileSync(file);
  }

  async publish(body: unknown) {
    const { regime, tag, release, changes } = this.publishable(body);
    const ref = releaseRef(release);
    const subs = (await this.store.subscriptions()).filter((sub) => sub.active);
    const secrets = await this.store.secrets();
    for (;;) {
      const baseline = !(await this.store.publishedBefore(regime));
      const at = iso(now());
      const fanout = new Fanout(ref, changes, release.taxonomy, baseline, this.baseUrl());
      const owing = owe(fanout, subs, secrets, at);
      // The outbox: the publication, its changes (once), its templates and every delivery it owes are
      // committed together before anything is sent, so a crash from here on loses nothing; announcing
      // again writes nothing and owes nothing. A baseline stores no changes: it itemises none.
      const recorded = await this.store.addPublication(
        { ...ref, published_at: at, changes: changes.length, baseline },
        baseline ? [] : changes,
        owing.owed,
        owing.templates,
      );
      if (recorded === "raced") continue;
      await this.store.setTaxonomy(regime, { types: release.taxonomy.types, actors: [] });
      const publication = (await this.store.publication(regime, tag)) as Publication;
      const silent = owing.silent;
      if (recorded === "already") return { publication, deliveries: [], attempts: [], silent };
      const { attempts } = await this.deliverDue(owing.fresh);
      const ids = owing.owed.map((o) => o.delivery.id);
      const mine = new Set(ids);
      return {
        publication,
        deliveries: await this.store.deliveriesById(ids),
        attempts: attempts.filter((a) => mine.has(a.delivery)),
        silent,
      };
    }
  }

  /** The release a publish request names, refused unless built, self-consistent and verified. */
  private publishable(body: unknown) {
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
    const raw = readFileSync(join(dir, `${tag}.diff.json`));
    const manifest = JSON.parse(raw.toString("utf8")) as DiffManifest;
    if (manifest.regime !== regime || manifest.tag !== tag)
      throw new Refusal(409, `the manifest of ${regime}@${tag} states ${manifest.regime}@${manifest.tag}`);
    let release: ReturnType<typeof readPublishable>;
    try {
      release = readPublishable(dir, `${tag}.diff.json`);
    } catch (e) {
      throw new Refusal(422, `release ${regime}@${tag} does not verify: ${(e as Error).message}`);
    }
    if (!release.manifest.equals(raw))
      throw new Refusal(422, `release ${regime}@${tag}: its diff manifest changed while it was read`);
    return { regime, tag, release, changes: feedChanges(release, manifest) };
  }

  /**
   * One worker pass: claim what is due in batches under a lease, renew the lease while sending, send
   * concurrently (at most PER_ENDPOINT at once to one endpoint), and record each attempt only while the
   * claim is still ours, in group commits. Several processes may run passes at once.
   */
  async deliverDue(
    fresh = new Map<string, { payload: string; signature: string }>(),
  ): Promise<{ attempts: Attempt[] }> {
    const attempts: Attempt[] = [];
    const pass: Pass = {
      fresh,
      subscriptions: new Map((await this.store.subscriptions()).map((s) => [s.id, s])),
      secrets: await this.store.secrets(),
      templates: new Map(),
      log: new GroupCommit((items) => this.store.recordAttempts(items, this.worker)),
      all: pLimit(IN_FLIGHT),
      endpoints: new Map(),
    };
    for (;;) {
      const batch = await this.store.claimDue(iso(now()), this.lease(), CLAIM_BATCH);
      if (batch.length === 0) break;
      const pending = new Set(batch.map((d) => d.id));
      const renew = setInterval(
        () => void this.store.renewLeases([...pending], this.lease()).catch(() => {}),
        (this.leaseSeconds * 1000) / 3,
      );
      try {
        const results = await Promise.all(
          batch.map((d) => {
            const sub = pass.subscriptions.get(d.subscription);
            if (!sub) return null;
            return boundFor(
              pass,
              sub.endpoint,
            )(() => pass.all(() => this.attempt(d, sub, pass).finally(() => pending.delete(d.id))));
          }),
        );
        // In claim order (the order owed), whatever order the receivers answered in.
        for (const a of results) if (a) attempts.push(a);
      } finally {
        clearInterval(renew);
      }
    }
    return { attempts };
  }

  /** A claim from the real instant now (never ACQUIS_NOW, so a dead worker's claims expire). */
  private lease() {
    const at = new Date();
    return {
      worker: this.worker,
      at: at.toISOString(),
      until: new Date(at.getTime() + this.leaseSeconds * 1000).toISOString(),
    };
  }

  /** The route's name for a worker pass run now. */
  retryDue() {
    return this.deliverDue();
  }

  /**
   * The bytes a delivery sends, made from its stored template (read once per pass) and its
   * subscription id, and the signature they bear; null when they cannot be made as signed (a store
   * edited by hand), which no retry mends.
   */
  private async bytesOf(d: Delivery, secret: string, pass: Pass) {
    const signed = pass.fresh.get(d.id);
    if (signed && signed.signature === d.signature) return signed;
    const owed = await this.store.owedOf(d.id);
    let payload = owed?.payload ?? null;
    if (payload === null && owed?.basis) {
      const key = templateKey(d, owed.basis);
      let template = pass.templates.get(key);
      if (!template) {
        const text = await this.store.templateOf(key);
        if (text === null) return null;
        template = new PayloadTemplate(text);
        pass.templates.set(key, template);
      }
      payload = template.for(d.subscription);
    }
    if (payload === null) return null;
    const signature = serviceSignature(secret, payload);
    return signature === d.signature ? { payload, signature } : null;
  }

  private async attempt(d: Delivery, sub: Subscription, pass: Pass): Promise<Attempt | null> {
    const at = now();
    const secret = pass.secrets.get(sub.id) ?? "";
    const bytes = await this.bytesOf(d, secret, pass);
    const result =
      bytes === null
        ? {
            status: null,
            error: "its payload cannot be rebuilt from the store as it was signed; it is not sent",
          }
        : await send(
            sub.endpoint,
            deliveryHeaders(d.id, secret, bytes.payload, Math.floor(at.getTime() / 1000), bytes.signature),
            bytes.payload,
            this.allowLoopback,
          );
    const n = d.attempts + 1;
    const delivered = result.status !== null && result.status >= 200 && result.status < 300;
    // No retry mends bytes that cannot be rebuilt: the delivery ends now.
    const last = n >= MAX_ATTEMPTS || bytes === null;
    const retryAt = delivered || last ? null : iso(new Date(at.getTime() + (WAITS[n - 1] as number) * 1000));
    const error = delivered ? null : (result.error ?? `HTTP ${result.status}`);
    const delivery: Delivery = {
      ...d,
      attempts: n,
      state: delivered ? "delivered" : last ? "exhausted" : "pending",
      last_error: error,
      next_attempt_at: retryAt,
    };
    const attempt: Attempt = {
      at: iso(at),
      attempt: n,
      delivery: d.id,
      subscription: sub.id,
      endpoint: redactEndpoint(sub.endpoint),
      outcome: delivered ? "delivered" : "failed",
      status: result.status,
      error,
      retry_at: retryAt,
    };
    // A worker that lost its claim (its lease lapsed and another took the delivery) records nothing.
    return (await pass.log.add({ attempt, delivery })) ? attempt : null;
  }
}

/**
 * What a publication owes: a delivery (its basis, id and signature) to each subscription its changes
 * match, the templates they are made from, the subscriptions it says nothing to, and the bytes just
 * signed, which the inline pass sends without making them again.
 */
function owe(fanout: Fanout, subs: Subscription[], secrets: Map<string, string>, at: string) {
  const owed: Owed[] = [];
  const silent: string[] = [];
  const fresh = new Map<string, { payload: string; signature: string }>();
  const templates = new Map<string, string>();
  for (const sub of subs) {
    const plan = fanout.plan(sub.filter);
    if (plan.basis.matched === 0) {
      silent.push(sub.id);
      continue;
    }
    const payload = fanout.payload(sub.id, plan);
    templates.set(plan.key, plan.template.text);
    const signature = serviceSignature(secrets.get(sub.id) ?? "", payload);
    const id = deliveryId(sub.id, payload);
    fresh.set(id, { payload, signature });
    const { regime, tag } = fanout.release;
    owed.push({
      basis: plan.basis,
      delivery: {
        id,
        subscription: sub.id,
        regime,
        tag,
        event: "release.published",
        state: "pending",
        attempts: 0,
        created_at: at,
        last_error: null,
        next_attempt_at: at,
        signature,
      },
    });
  }
  return { owed, silent, fresh, templates };
}

/** What one worker pass reads once and shares across its batches. */
interface Pass {
  /** Each subscription's secret, read once for the pass. */
  secrets: Map<string, string>;
  /** Bytes signed by the publication this pass follows, by delivery id. */
  fresh: Map<string, { payload: string; signature: string }>;
  subscriptions: Map<string, Subscription>;
  /** Payload templates by publication and basis: subscriptions with one filter share one. */
  templates: Map<string, PayloadTemplate>;
  log: GroupCommit<{ attempt: Attempt; delivery: Delivery }, boolean>;
  all: LimitFunction;
  endpoints: Map<string, LimitFunction>;
}

/** The bound on attempts in flight to one endpoint's origin (scheme, host, port). */
function boundFor(pass: Pass, endpoint: string): LimitFunction {
  const origin = new URL(endpoint).origin;
  let bound = pass.endpoints.get(origin);
  if (!bound) {
    bound = pLimit(PER_ENDPOINT);
    pass.endpoints.set(origin, bound);
  }
  return bound;
}
