/**
 * A publication's fan-out, planned once per release: which changes each filter matches, which of
 * them a payload carries within its budget, and each subscription's payload bytes. Subscriptions with
 * the same filter share one plan and one payload template, stored once; a delivery's bytes are the
 * template with its subscription id, made again when it is sent, so the bytes signed are the bytes sent.
 */
import { createHash } from "node:crypto";
import { ancestors, type Taxonomy } from "../obligations/taxonomy.ts";
import { type Change, manifestUrl, type ReleaseRef } from "./changes.ts";
import { compileFilter, DIMENSIONS, type Filter } from "./filter.ts";
import {
  type DeliveryBasis,
  type Omitted,
  WEBHOOK_CHANGES_BUDGET,
  webhookBody,
  webhookPayload,
} from "./webhook.ts";

/** A filter as the feeds' query string: each dimension with terms, its terms comma-separated. */
export function feedQueryOf(filter: Filter): string {
  return DIMENSIONS.filter((d) => filter[d].length > 0)
    .map((d) => `${d}=${filter[d].map(encodeURIComponent).join(",")}`)
    .join("&");
}

/** The first changes whose compact JSON fits the budget; always at least one, so each payload says something. */
function carriedWithin(matched: Change[], budget: number): Change[] {
  let used = 0;
  let n = 0;
  for (const c of matched) {
    used += Buffer.byteLength(JSON.stringify(c));
    if (n > 0 && used > budget) break;
    n++;
  }
  return matched.slice(0, n);
}

/**
 * A payload's bytes for any subscription: serialised once with a stand-in for the subscription id,
 * which each subscription's id then replaces. The stand-in is a string no legal text holds (NUL
 * characters), so its serialised form, quotes included, occurs once: as the `subscription` member.
 */
const STAND_IN = "\u0000subscription\u0000";
const STAND_IN_JSON = JSON.stringify(STAND_IN);

export class PayloadTemplate {
  /** The payload with the stand-in where the subscription id goes: what the store keeps. */
  readonly text: string;
  readonly #parts: [string, string];

  constructor(text: string) {
    this.text = text;
    const at = text.indexOf(STAND_IN_JSON);
    // A text without the stand-in (a damaged store) gives bytes whose signature will not match.
    this.#parts = at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + STAND_IN_JSON.length)];
  }

  static of(release: ReleaseRef, basis: DeliveryBasis, carried: Change[]): PayloadTemplate {
    return new PayloadTemplate(webhookBody(webhookPayload(release, STAND_IN, basis.filter, carried, basis)));
  }

  /** The exact bytes `webhookBody(webhookPayload(…))` gives for this subscription. */
  for(subscription: string): string {
    return `${this.#parts[0]}${JSON.stringify(subscription)}${this.#parts[1]}`;
  }
}

/**
 * The name a template is stored under: a digest of the release and the basis, so every subscription
 * with one filter in one publication shares it, and a delivery finds it again from its basis.
 */
export function templateKey(release: Pick<ReleaseRef, "regime" | "tag">, basis: DeliveryBasis): string {
  return createHash("sha256")
    .update(`${release.regime}@${release.tag}\n${JSON.stringify(basis)}`)
    .digest("hex");
}

/** What every subscription with one filter is owed. */
export interface Plan {
  basis: DeliveryBasis;
  carried: Change[];
  template: PayloadTemplate;
  /** `templateKey` of the release and basis. */
  key: string;
}

export class Fanout {
  readonly #release: ReleaseRef;
  get release(): ReleaseRef {
    return this.#release;
  }
  readonly #changes: Change[];
  readonly #taxonomy: Taxonomy;
  readonly #baseline: boolean;
  readonly #base: string;
  readonly #planned = new Map<string, Plan>();
  /** Which changes declare each entity type: a filter on types looks only at those. */
  #byType: Map<string, number[]> | null = null;

  /**
   * `changes` in feed order (by id); `baseline`: the first publication of its regime on this
   * service, whose payloads itemise nothing; `base`: the service's public address, for the links.
   */
  constructor(release: ReleaseRef, changes: Change[], taxonomy: Taxonomy, baseline: boolean, base: string) {
    this.#release = release;
    this.#changes = changes;
    this.#taxonomy = taxonomy;
    this.#baseline = baseline;
    this.#base = base;
  }

  /** What a subscription with this filter is owed; `matched` is 0 when the release says nothing to it. */
  plan(filter: Filter): Plan {
    const key = JSON.stringify(filter);
    const known = this.#planned.get(key);
    if (known) return known;
    const matched = this.#candidates(filter).filter(compileFilter(filter, this.#taxonomy));
    const carried = this.#baseline ? [] : carriedWithin(matched, WEBHOOK_CHANGES_BUDGET);
    const basis = this.#basis(filter, matched.length, carried);
    const template = PayloadTemplate.of(this.#release, basis, carried);
    const plan = { basis, carried, template, key: templateKey(this.#release, basis) };
    this.#planned.set(key, plan);
    return plan;
  }

  /**
   * The changes a filter can match, in feed order: with entity types, those declaring a type the
   * filter's types reach (the compiled filter then decides, as for every change); else all.
   */
  #candidates(filter: Filter): Change[] {
    if (filter.entity_type.length === 0) return this.#changes;
    if (!this.#byType) {
      this.#byType = new Map();
      this.#changes.forEach((c, i) => {
        for (const t of c.facets.entity_types) {
          const list = this.#byType?.get(t) ?? [];
          list.push(i);
          this.#byType?.set(t, list);
        }
      });
    }
    const reached = new Set(ancestors(this.#taxonomy, filter.entity_type));
    const at = new Set<number>();
    for (const t of reached) for (const i of this.#byType.get(t) ?? []) at.add(i);
    return [...at].sort((a, b) => a - b).map((i) => this.#changes[i] as Change);
  }

  #basis(filter: Filter, matched: number, carried: Change[]): DeliveryBasis {
    const r = this.#release;
    let omitted: Omitted | null = null;
    if (this.#baseline && matched > 0)
      omitted = { changes: matched, reason: "baseline", url: manifestUrl(this.#base, r) };
    else if (carried.length < matched) {
      const query = feedQueryOf(filter);
      const last = encodeURIComponent((carried.at(-1) as Change).id);
      omitted = {
        changes: matched - carried.length,
        reason: "budget",
        url: `${this.#base}/feed.json?${query ? `${query}&` : ""}release=${encodeURIComponent(`${r.regime}@${r.tag}`)}&after=${last}`,
      };
    }
    return { filter, matched, carried: carried.map((c) => c.id), omitted };
  }

  payload(subscription: string, plan: Plan): string {
    return plan.template.for(subscription);
  }
}
