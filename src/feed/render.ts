/**
 * The feeds: a JSON Feed 1.1 document with the `_service` extension and an RSS 2.0 document with an
 * Atom self-link, over published changes. Items are dated by their release's built_at (never by when
 * the service was told), ordered newest release first then by atom id, so the same publications give
 * the same bytes; the offline `acquis feed` command renders through the same functions.
 */
import { type Change, manifestUrl, type ReleaseRef } from "./changes.ts";
import type { Filter } from "./filter.ts";

/** The version of the feeds' `_service` extension and of webhook payloads. */
export const FEED_SCHEMA_VERSION = 1;

/** A publication as the feeds read it: its release, its itemised changes, and a baseline's count. */
export interface Published {
  release: ReleaseRef;
  changes: Change[];
  /** Set on the first publication of a regime: its changes are counted, not itemised. */
  baseline?: { changes: number } | null;
}

/** A feed entry: one change, or the one notice that stands for a baseline's changes. */
type Entry =
  | { id: string; release: ReleaseRef; change: Change; baseline?: undefined }
  | { id: string; release: ReleaseRef; change?: undefined; baseline: { changes: number } };

export interface FeedOptions {
  baseUrl: string;
  filter: Filter;
  /** The query string the feed was asked with (kept in the self links), without `after` and `limit`. */
  query?: string;
  /** Serve one page: the items after the item `after` (from the first without it), at most `limit`. */
  page?: { after: string | null; limit: number };
}

/** A page's items and the links around it (RFC 5005 paging; JSON Feed 1.1 `next_url`). */
interface Paged<T> {
  items: T[];
  /** The query of the next page, or null on the last. */
  next: string | null;
  /** The query of the first page, when this is not it. */
  first: string | null;
}

export class PageError extends Error {}

/**
 * One page of the ordered items. The cursor is the last item's id: new releases add items at the head,
 * so "the items after X" means the same on every call, whatever was published since.
 */
function paged<T extends { id: string }>(items: T[], o: FeedOptions): Paged<T> {
  if (!o.page) return { items, next: null, first: null };
  const { after, limit } = o.page;
  const start = after === null ? 0 : items.findIndex((x) => x.id === after) + 1;
  if (after !== null && start === 0) throw new PageError(`after: no item "${after}" in this feed`);
  const page = items.slice(start, start + limit);
  const base = o.query ? `${o.query}&` : "";
  const last = page.at(-1);
  return {
    items: page,
    next:
      start + limit < items.length && last
        ? `${base}after=${encodeURIComponent(last.id)}&limit=${limit}`
        : null,
    first: start > 0 ? `${base}limit=${limit}` : null,
  };
}

/** The id of a baseline's notice: the release's, in the change ids' scheme, with no atom. */
export const baselineId = (r: ReleaseRef) => `service:${r.regime}@${r.tag}:baseline`;

function ordered(published: Published[]): Entry[] {
  const key = (e: Entry) => e.change?.atom ?? "";
  return published
    .flatMap((p): Entry[] =>
      p.baseline
        ? [{ id: baselineId(p.release), release: p.release, baseline: p.baseline }]
        : p.changes.map((change) => ({ id: change.id, release: p.release, change })),
    )
    .sort(
      (a, b) =>
        (a.release.built_at < b.release.built_at ? 1 : a.release.built_at > b.release.built_at ? -1 : 0) ||
        (a.release.tag < b.release.tag ? 1 : a.release.tag > b.release.tag ? -1 : 0) ||
        (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0),
    );
}

const itemUrl = (base: string, r: ReleaseRef, atom: string) => `${manifestUrl(base, r)}#${atom}`;

/** What a baseline's notice says: the count, why they are not items, and where the full list is. */
function baselineItem(base: string, r: ReleaseRef, b: { changes: number }) {
  const url = manifestUrl(base, r);
  return {
    url,
    title: `baseline: ${r.regime}@${r.tag}, the first release this feed publishes (${b.changes} atom changes, not itemised)`,
    content_text: `${r.regime}@${r.tag} is the first release of ${r.regime} this feed publishes. Its ${b.changes} atom changes are not listed one by one: the full list is the release's diff manifest, ${url}. Items start with the next release.`,
    tags: ["baseline"],
  };
}
const title = (c: Change, r: ReleaseRef) =>
  `${c.change} (${c.classification}): ${c.citation.node} in ${r.regime}@${r.tag}`;

function text(c: Change, r: ReleaseRef): string {
  const words =
    c.citation.quoted_text.length > 400 ? `${c.citation.quoted_text.slice(0, 399)}…` : c.citation.quoted_text;
  return `${c.change} ${c.classification} (${c.classification_basis}). ${c.citation.node}, atom ${c.atom}, release ${r.regime}@${r.tag}: "${words}"`;
}

const tags = (c: Change) => [c.change, c.classification, ...c.facets.entity_types];

export function jsonFeed(published: Published[], o: FeedOptions): unknown {
  const q = o.query ? `?${o.query}` : "";
  const p = paged(ordered(published), o);
  return {
    version: "https://jsonfeed.org/version/1.1",
    title: "acquis: changes to obligations",
    home_page_url: `${o.baseUrl}/`,
    feed_url: `${o.baseUrl}/feed.json${q}`,
    description:
      "Obligation atoms added, changed, removed or deprecated by each release, classified substantive or editorial.",
    language: "en",
    ...(p.next ? { next_url: `${o.baseUrl}/feed.json?${p.next}` } : {}),
    items: p.items.map(({ id, release, change, baseline }) =>
      baseline
        ? {
            id,
            ...baselineItem(o.baseUrl, release, baseline),
            date_published: release.built_at,
            _service: { release, baseline: { ...baseline, manifest: manifestUrl(o.baseUrl, release) } },
          }
        : {
            id,
            url: itemUrl(o.baseUrl, release, change.atom),
            title: title(change, release),
            content_text: text(change, release),
            date_published: release.built_at,
            tags: tags(change),
            _service: { change, release },
          },
    ),
    _service: { filter: o.filter, schema_version: FEED_SCHEMA_VERSION },
  };
}

const xml = (s: string) =>
  s.replace(/&/gu, "&amp;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;").replace(/"/gu, "&quot;");
/** RFC 822 date-time, as RSS 2.0 asks. */
const rfc822 = (iso: string) => new Date(iso).toUTCString();

export function rssFeed(published: Published[], o: FeedOptions): string {
  const q = o.query ? `?${xml(o.query)}` : "";
  const all = ordered(published);
  const p = paged(all, o);
  const items = p.items;
  const newest = all[0]?.release.built_at;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    "<channel>",
    "<title>acquis: changes to obligations</title>",
    `<link>${xml(o.baseUrl)}/</link>`,
    "<description>Obligation atoms added, changed, removed or deprecated by each release, classified substantive or editorial.</description>",
    "<language>en</language>",
    `<atom:link href="${xml(o.baseUrl)}/feed.xml${q}" rel="self" type="application/rss+xml"/>`,
    ...(p.first ? [`<atom:link href="${xml(`${o.baseUrl}/feed.xml?${p.first}`)}" rel="first"/>`] : []),
    ...(p.next ? [`<atom:link href="${xml(`${o.baseUrl}/feed.xml?${p.next}`)}" rel="next"/>`] : []),
    ...(newest ? [`<lastBuildDate>${rfc822(newest)}</lastBuildDate>`] : []),
    ...items.map(({ id, release, change, baseline }) => {
      const item = baseline
        ? baselineItem(o.baseUrl, release, baseline)
        : {
            url: itemUrl(o.baseUrl, release, change.atom),
            title: title(change, release),
            content_text: text(change, release),
            tags: tags(change),
          };
      return [
        "<item>",
        `<title>${xml(item.title)}</title>`,
        `<link>${xml(item.url)}</link>`,
        `<guid isPermaLink="false">${xml(id)}</guid>`,
        `<pubDate>${rfc822(release.built_at)}</pubDate>`,
        `<description>${xml(item.content_text)}</description>`,
        ...item.tags.map((t) => `<category>${xml(t)}</category>`),
        "</item>",
      ].join("");
    }),
    "</channel>",
    "</rss>",
  ];
  return `${lines.join("\n")}\n`;
}
