/**
 * The feed service's HTTP surface on node:http (docs/feed.md). Hand-routed because the contract's
 * semantics are not a framework's: the path is resolved first and the verb second (an undeclared verb on
 * a known path is 404, not 405), and verbs other than GET, POST and DELETE get the standard library's 501
 * with an HTML body. Every refusal the service owns is `{"error": "<sentence>"}`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { compileFilter, DIMENSIONS, FilterError, readFilter } from "./filter.ts";
import { jsonFeed, PageError, rssFeed } from "./render.ts";
import { redactEndpoint } from "./send.ts";
import { type FeedService, Refusal } from "./service.ts";

const MAX_BODY = 1 << 20;

type Handler = (
  req: IncomingMessage,
  params: string[],
  body: unknown,
) => Promise<{ status: number; type?: string; body: string | object; headers?: Record<string, string> }>;

interface Route {
  pattern: RegExp;
  verbs: Partial<Record<"GET" | "POST" | "DELETE", Handler>>;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: string | object,
  type = "application/json",
  headers: Record<string, string> = {},
) {
  const text = typeof body === "string" ? body : `${JSON.stringify(body, null, 2)}\n`;
  res.writeHead(status, {
    "content-type": `${type}; charset=utf-8`,
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The paging parameters of the feeds, read apart from the filter. */
const PAGING = new Set(["after", "limit"]);
/** Parameters that are not filter dimensions: paging, and `release` (one release's items only). */
const NOT_FILTER = new Set([...PAGING, "release"]);
/** Items on a page of /feed.json or /feed.xml unless `limit` says otherwise. */
export const FEED_PAGE = 100;
const FEED_PAGE_MAX = 1000;

/** `after` and `limit` of a feed request, checked; the rest of the query is the filter. */
function pageOf(url: URL): { after: string | null; limit: number } {
  const after = url.searchParams.get("after");
  const raw = url.searchParams.get("limit");
  const limit = raw === null ? FEED_PAGE : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > FEED_PAGE_MAX)
    throw new Refusal(400, `limit: ${JSON.stringify(raw)} is not a whole number from 1 to ${FEED_PAGE_MAX}`);
  return { after: after === "" ? null : after, limit };
}

/** The query string without the paging parameters, as the feeds' links keep it. */
function filterQuery(url: URL): string {
  const q = new URLSearchParams([...url.searchParams].filter(([k]) => !PAGING.has(k)));
  return q.toString();
}

/** Query parameters read as registration reads filter members: singular or plural, repeated or comma-separated. */
function queryFilter(url: URL) {
  // No prototype: a parameter named __proto__ or constructor is just an unknown dimension.
  const raw: Record<string, string[]> = Object.create(null);
  for (const [k, v] of url.searchParams) {
    if (NOT_FILTER.has(k)) continue;
    raw[k] = [...(raw[k] ?? []), ...v.split(",")];
  }
  try {
    return readFilter(raw);
  } catch (e) {
    if (e instanceof FilterError) throw new Refusal(400, e.message);
    throw e;
  }
}

/** A feed, or the 400 its paging cursor earns when it names no item of the feed. */
function render<T>(make: () => T): T {
  try {
    return make();
  } catch (e) {
    if (e instanceof PageError) throw new Refusal(400, e.message);
    throw e;
  }
}

export function feedServer(service: FeedService, baseUrl: () => string): Server {
  const routes: Route[] = [
    ...feedRoutes(service, baseUrl),
    ...serviceRoutes(service),
    ...subscriptionRoutes(service),
  ];

  // A client that trickles headers or a body is cut off; idle keep-alive connections close (docs/security.md).
  const limits = {
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: 1_000,
  };
  const server = createServer(limits, (req, res) => {
    const method = req.method ?? "GET";
    // The contract: every verb but GET, POST and DELETE, HEAD included, is the standard library's 501.
    if (!["GET", "POST", "DELETE"].includes(method)) {
      const html = `<!DOCTYPE html>\n<html><head><title>Error response</title></head><body><h1>Error response</h1><p>Error code: 501</p><p>Message: Unsupported method ('${method.replace(/[^A-Z]/gu, "")}').</p></body></html>\n`;
      res.writeHead(501, {
        "content-type": "text/html; charset=utf-8",
        "content-length": Buffer.byteLength(html),
      });
      res.end(html);
      return;
    }
    const path = (req.url ?? "/").split("?")[0] as string;
    const route = routes.find((r) => r.pattern.test(path));
    const handler = route?.verbs[method as "GET" | "POST" | "DELETE"];
    if (!route || !handler) {
      sendJson(res, 404, { error: route ? `${method} is not answered on ${path}` : `no route ${path}` });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on("end", async () => {
      try {
        if (size > MAX_BODY) throw new Refusal(413, `the body is larger than ${MAX_BODY} bytes`);
        let body: unknown;
        if (method === "POST" && size > 0) {
          try {
            body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {
            throw new Refusal(400, "the body is not JSON");
          }
        }
        const params = (route.pattern.exec(path) ?? []).slice(1);
        const out = await handler(req, params, body);
        sendJson(res, out.status, out.body, out.type);
      } catch (e) {
        if (e instanceof Refusal) return sendJson(res, e.status, { error: e.message });
        process.stderr.write(
          `${JSON.stringify({ level: "error", msg: (e as Error).message, stack: (e as Error).stack })}\n`,
        );
        sendJson(res, 500, { error: "an unexpected error occurred" });
      }
    });
  });
  server.on("clientError", (err: Error & { code?: string }, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : /TIMEOUT/u.test(err.code ?? "") ? 408 : 400;
    const body = `${JSON.stringify({ error: status === 431 ? "the request headers are too large" : status === 408 ? "the request did not arrive in time" : "the request is not valid HTTP/1.1" }, null, 2)}\n`;
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? "Request Header Fields Too Large" : status === 408 ? "Request Timeout" : "Bad Request"}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

/** The service's index and the two feeds, filtered by the query and paged. */
function feedRoutes(service: FeedService, baseUrl: () => string): Route[] {
  const feeds = async (url: URL) => {
    const filter = queryFilter(url);
    const release = url.searchParams.get("release");
    if (release !== null && !/^[a-z0-9_-]+@[A-Za-z0-9._-]+$/u.test(release))
      throw new Refusal(400, `release: ${JSON.stringify(release)} is not <regime>@<tag>`);
    const published = [];
    for (const p of await service.store.published()) {
      if (release !== null && `${p.release.regime}@${p.release.tag}` !== release) continue;
      // A baseline's notice is about the whole release: every filter that admits its regime sees it.
      if (p.baseline && filter.regime.length > 0 && !filter.regime.includes(p.release.regime)) continue;
      const taxonomy = await service.store.taxonomy(p.release.regime);
      published.push({ ...p, changes: p.changes.filter(compileFilter(filter, taxonomy)) });
    }
    return { filter, published, query: filterQuery(url), page: pageOf(url) };
  };
  return [
    {
      pattern: /^\/$/u,
      verbs: {
        GET: async () => ({
          status: 200,
          body: {
            service: "acquis change feed",
            base_url: baseUrl(),
            feeds: { json: `${baseUrl()}/feed.json`, rss: `${baseUrl()}/feed.xml` },
            filters: [...DIMENSIONS],
            signature: {
              algorithm: "HMAC-SHA256 with the subscription's secret",
              header: "X-Service-Signature",
              format: "sha256=<hex>",
              over: "the exact bytes of the request body (the webhook payload)",
            },
          },
        }),
      },
    },
    {
      pattern: /^\/feed\.json$/u,
      verbs: {
        GET: async (req) => {
          const f = await feeds(new URL(req.url ?? "/", "http://x"));
          return {
            status: 200,
            type: "application/feed+json",
            body: `${JSON.stringify(
              render(() =>
                jsonFeed(f.published, { baseUrl: baseUrl(), filter: f.filter, query: f.query, page: f.page }),
              ),
              null,
              2,
            )}\n`,
          };
        },
      },
    },
    {
      pattern: /^\/feed\.xml$/u,
      verbs: {
        GET: async (req) => {
          const f = await feeds(new URL(req.url ?? "/", "http://x"));
          return {
            status: 200,
            type: "application/rss+xml",
            body: render(() =>
              rssFeed(f.published, { baseUrl: baseUrl(), filter: f.filter, query: f.query, page: f.page }),
            ),
          };
        },
      },
    },
  ];
}

/** Deliveries, the delivery log, publishing, and the diff manifests items link to. */
function serviceRoutes(service: FeedService): Route[] {
  return [
    {
      pattern: /^\/deliveries$/u,
      verbs: { GET: async () => ({ status: 200, body: { deliveries: await service.store.deliveries() } }) },
    },
    {
      pattern: /^\/deliveries\/retry$/u,
      verbs: { POST: async () => ({ status: 200, body: await service.retryDue() }) },
    },
    {
      pattern: /^\/log$/u,
      verbs: { GET: async () => ({ status: 200, body: { attempts: await service.store.attempts() } }) },
    },
    {
      pattern: /^\/publish$/u,
      verbs: { POST: async (_r, _p, body) => ({ status: 200, body: await service.publish(body) }) },
    },
    {
      pattern: /^\/releases\/([^/]+)\/([^/]+)\/diff\.json$/u,
      verbs: {
        GET: async (_r, p) => ({
          status: 200,
          body: service.manifestBytes(p[0] as string, p[1] as string).toString("utf8"),
        }),
      },
    },
    {
      pattern: /^\/subscriptions$/u,
      verbs: {
        GET: async () => ({
          status: 200,
          body: {
            subscriptions: (await service.store.subscriptions()).map((s) => ({
              ...s,
              endpoint: redactEndpoint(s.endpoint),
              name: s.name === s.endpoint ? redactEndpoint(s.endpoint) : s.name,
            })),
          },
        }),
        POST: async (_r, _p, body) => ({ status: 201, body: { subscription: await service.register(body) } }),
      },
    },
  ];
}

/** Subscriptions: list (secrets redacted), register, remove. */
function subscriptionRoutes(service: FeedService): Route[] {
  return [
    {
      pattern: /^\/subscriptions\/([^/]+)$/u,
      verbs: {
        DELETE: async (_r, p) => {
          let id: string;
          try {
            id = decodeURIComponent(p[0] as string);
          } catch {
            throw new Refusal(400, `the subscription id in the path is not valid percent-encoding`);
          }
          if (!(await service.store.removeSubscription(id)))
            throw new Refusal(404, `no subscription "${id}"`);
          return { status: 200, body: { removed: id } };
        },
      },
    },
  ];
}
