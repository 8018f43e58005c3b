/**
 * The REST transport of the serving API (Fastify). Routes are thin: each calls one engine operation and
 * sends its payload as the exact JSON bytes `payloadBytes` makes, the same bytes the MCP transport carries.
 * In front of them, in order: request id, CORS, bearer auth, the rolling rate limit, readiness.
 */
import { createHash, randomUUID } from "node:crypto";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { ErrorCode } from "../contract/schemas.ts";
import { ServiceError, STATUS } from "../engine/errors.ts";
import { PayloadCache } from "./cache.ts";
import { Engines } from "./engines.ts";
import { type Metrics, metrics } from "./metrics.ts";
import { openApiDocument } from "./openapi.ts";
import { MCP_ROUTE, OPERATIONS } from "./operations.ts";
import type { Policy } from "./policy.ts";
import { RollingWindow } from "./rate-limit.ts";
import { payloadBytes, type ServeState } from "./state.ts";
import { describeErrors, unicodeProblem } from "./validate.ts";

export const BODY_LIMIT = 65536;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/u;

/** Rejected bearer tokens one client address may send per minute before it is refused outright. */
const WRONG_TOKENS_PER_MINUTE = 20;

/** The route the router matched, percent-decoded; the raw path when nothing matched. */
function routeOf(req: FastifyRequest): string {
  return req.routeOptions.url ?? (req.url.split("?")[0] as string);
}

const PROBES = new Set(["/healthz", "/readyz", "/metrics", "/openapi.json"]);
/** Every path served, from the operations table: a wrong verb on one is a 405, not a 404. */
const ROUTES = [...OPERATIONS.map((op) => op.route), ...PROBES, MCP_ROUTE];

export function buildApp(opts: {
  policy: Policy;
  state: ServeState;
  /** The package version the MCP initialize result names. */
  version: string;
  logger: FastifyBaseLogger;
  /** Bytes of payloads to keep for repeated requests (0: no cache). */
  cacheBytes: number;
  /** Who makes payloads (default: the engine of this thread alone). */
  engines?: Engines;
}): FastifyInstance {
  const { policy, state } = opts;
  const cache = new PayloadCache(opts.cacheBytes);
  const engines = opts.engines ?? new Engines(state);
  const m = metrics();
  const window = new RollingWindow();
  const credentials = new Map(policy.credentials.map((c) => [c.sha256, c]));
  const origins = new Set(policy.cors.origins);
  const openapi = payloadBytes(openApiDocument());
  const app = createFastify(opts.logger, policy);

  const stamps = () =>
    state.engine
      ? { disclaimer: state.engine.stamps.disclaimer, verification: state.engine.stamps.verification }
      : {};
  const refuse = (
    reply: FastifyReply,
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) => {
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    return reply
      .code(STATUS[code])
      .type("application/json; charset=utf-8")
      .send(payloadBytes({ error: { code, message, request_id: reply.request.id }, ...stamps() }));
  };
  const sendBytes = (reply: FastifyReply, bytes: string | Buffer) =>
    reply.code(200).type("application/json; charset=utf-8").send(bytes);
  const send = (reply: FastifyReply, payload: unknown) => sendBytes(reply, payloadBytes(payload));
  /**
   * A tool call's payload bytes, from the cache when this exact request was answered before, else made
   * by the first engine free (src/serve/engines.ts).
   */
  const operate = async (reply: FastifyReply, tool: string, body: unknown) => {
    const asOf = state.defaultAsOf();
    return sendBytes(reply, await cache.get(tool, body, asOf, () => engines.run(tool, body, asOf)));
  };
  const ctx: AppContext = {
    app,
    state,
    policy,
    cache,
    engines,
    m,
    window,
    credentials,
    origins,
    openapi,
    version: opts.version,
    stamps,
    refuse,
    send,
    sendBytes,
    operate,
  };
  corsHook(ctx);
  authHook(ctx);
  gateHooks(ctx);
  errorHandlers(ctx);
  operationRoutes(ctx);
  probeRoutes(ctx);
  mcpRoutes(ctx);
  return app;
}

/**
 * What the parts of the app share: the process state, the policy, the cache, the engines, and how to
 * answer.
 */
interface AppContext {
  app: FastifyInstance;
  state: ServeState;
  policy: Policy;
  cache: PayloadCache;
  engines: Engines;
  m: Metrics;
  window: RollingWindow;
  credentials: Map<string, Policy["credentials"][number]>;
  origins: Set<string>;
  openapi: string;
  version: string;
  stamps: () => Record<string, unknown>;
  refuse: (
    reply: FastifyReply,
    code: ErrorCode,
    message: string,
    headers?: Record<string, string>,
  ) => FastifyReply;
  send: (reply: FastifyReply, payload: unknown) => FastifyReply;
  sendBytes: (reply: FastifyReply, bytes: string | Buffer) => FastifyReply;
  operate: (reply: FastifyReply, tool: string, body: unknown) => Promise<FastifyReply>;
}

/** The Fastify instance with the policy's time limits, and node:http's own refusals in the error shape. */
function createFastify(logger: FastifyBaseLogger, policy: Policy): FastifyInstance {
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT,
    logController: new LogController({ requestIdLogLabel: "request_id" }),
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: false },
    },
    return503OnClosing: false,
    forceCloseConnections: false,
    // A client that trickles its headers or body is cut off (docs/security.md, "Time limits").
    connectionTimeout: policy.timeouts.idle_seconds * 1000,
    keepAliveTimeout: policy.timeouts.keep_alive_seconds * 1000,
    requestTimeout: policy.timeouts.request_seconds * 1000,
    http: {
      headersTimeout: policy.timeouts.headers_seconds * 1000,
      connectionsCheckingInterval: 1000,
    },
  });

  // Errors node:http raises before Fastify sees a request (431 header overflow, 400 bad framing, 408
  // timeouts) still answer in the documented error shape.
  app.server.removeAllListeners("clientError");
  app.server.on("clientError", (err: Error & { code?: string }, socket) => {
    if (!socket.writable) return socket.destroy();
    const [status, code, message] =
      err.code === "HPE_HEADER_OVERFLOW"
        ? [431, "invalid_request", "the request headers are too large"]
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT" || err.code === "ERR_HTTP_HEADERS_TIMEOUT"
          ? [408, "invalid_request", "the request did not arrive in time"]
          : [400, "invalid_request", "the request is not valid HTTP/1.1"];
    const body = payloadBytes({ error: { code, message, request_id: "none" } });
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? "Request Header Fields Too Large" : status === 408 ? "Request Timeout" : "Bad Request"}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return app;
}

/** The request id on every response, and CORS for the policy's origins. */
function corsHook(ctx: AppContext): void {
  const { app, origins } = ctx;
  // Every response carries the request id, refusals included.
  app.addHook("onRequest", async (req, reply) => {
    reply.header("X-Request-Id", req.id);
    const origin = req.headers.origin;
    if (typeof origin === "string" && origins.has(origin)) {
      reply.header("Access-Control-Allow-Origin", origin);
      reply.header("Vary", "Origin");
      if (req.method === "OPTIONS") {
        return reply
          .code(204)
          .header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
          .header("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-Id")
          .header("Access-Control-Expose-Headers", "X-Request-Id, Retry-After, WWW-Authenticate")
          .header("Access-Control-Max-Age", "600")
          .send();
      }
    }
  });
}

/** Bearer credentials and the per-credential rolling rate limit. */
function authHook(ctx: AppContext): void {
  const { app, policy, credentials, window, m, refuse } = ctx;
  // Bearer credentials, then the rolling window of whoever the request is. Decisions use the route the
  // router matched (percent-decoded), never the raw URL: /%761/answer is /v1/answer.
  app.addHook("onRequest", async (req, reply) => {
    const path = routeOf(req);
    const probe = PROBES.has(path);
    if (probe && !policy.probes_require_auth) return;
    const auth = req.headers.authorization;
    let who: { name: string; per_minute: number };
    if (auth === undefined) {
      if (!policy.anonymous.allowed) {
        return refuse(
          reply,
          "unauthorized",
          "a bearer token is required: send Authorization: Bearer <token>",
          { "WWW-Authenticate": 'Bearer realm="acquis"' },
        );
      }
      who = { name: "anonymous", per_minute: policy.anonymous.per_minute };
    } else {
      // Auth schemes are case-insensitive (RFC 9110 §11.1).
      const m1 = /^Bearer\s+(\S+)\s*$/iu.exec(auth);
      const cred = m1
        ? credentials.get(
            createHash("sha256")
              .update(m1[1] as string, "utf8")
              .digest("hex"),
          )
        : undefined;
      if (!cred) {
        // Guessing tokens is limited per client address, like any caller's requests.
        const guess = window.take(`unauthorized:${req.ip}`, WRONG_TOKENS_PER_MINUTE, Date.now());
        if (!guess.ok)
          return refuse(
            reply,
            "rate_limited",
            `too many rejected tokens from this address; retry in ${guess.retryAfter} s`,
            { "Retry-After": String(guess.retryAfter) },
          );
        return refuse(reply, "unauthorized", "the bearer token is not accepted", {
          "WWW-Authenticate": 'Bearer realm="acquis", error="invalid_token"',
        });
      }
      who = cred;
    }
    if (probe) return; // probes never spend a caller's budget
    const taken = window.take(who.name, who.per_minute, Date.now());
    if (!taken.ok) {
      m.rateLimited.inc({ credential: who.name });
      return refuse(
        reply,
        "rate_limited",
        `over ${who.per_minute} requests per minute; retry in ${taken.retryAfter} s`,
        { "Retry-After": String(taken.retryAfter) },
      );
    }
  });
}

/** Readiness and drain gates, request metrics, and bad Unicode refused before any operation. */
function gateHooks(ctx: AppContext): void {
  const { app, state, m, refuse } = ctx;
  // Regulation routes answer only from a verified release, and not while draining.
  app.addHook("onRequest", async (req, reply) => {
    if (routeOf(req) === MCP_ROUTE && state.draining)
      return refuse(reply, "not_ready", "the server is shutting down", {
        "Retry-After": "5",
        Connection: "close",
      });
    if (!routeOf(req).startsWith("/v1/")) return;
    if (state.draining)
      return refuse(reply, "not_ready", "the server is shutting down", {
        "Retry-After": "5",
        Connection: "close",
      });
    if (!state.engine)
      return refuse(reply, "not_ready", state.refused ?? "the release is being verified and loaded");
  });

  app.addHook("onResponse", async (req, reply) => {
    const labels = {
      route: req.routeOptions.url ?? "unmatched",
      method: req.method,
      status: String(reply.statusCode),
    };
    m.requests.inc(labels);
    m.latency.observe(labels, reply.elapsedTime / 1000);
  });

  // Bad Unicode (a lone surrogate, which JSON.parse lets through) is the caller's error, refused before
  // it reaches any operation or the cache key.
  app.addHook("preValidation", async (req, reply) => {
    const bad = unicodeProblem(req.body);
    if (bad !== null) return refuse(reply, "invalid_request", bad);
  });
}

/** Every failure answered in the contract's error shape. */
function errorHandlers(ctx: AppContext): void {
  const { app, refuse } = ctx;
  app.setErrorHandler(
    (err: Error & { code?: string; statusCode?: number; validation?: unknown }, req, reply) => {
      if (err instanceof ServiceError) return refuse(reply, err.code, err.message);
      if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE")
        return refuse(reply, "payload_too_large", `the body is larger than ${BODY_LIMIT} bytes`);
      if (err.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE")
        return refuse(reply, "invalid_request", "the body must be JSON (Content-Type: application/json)");
      if (err.validation) return refuse(reply, "invalid_request", err.message);
      if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
        return refuse(reply, "invalid_request", `the body is not valid JSON: ${err.message}`);
      }
      req.log.error({ err }, "unexpected exception");
      return refuse(reply, "internal", `an unexpected error occurred; quote request id ${req.id}`);
    },
  );

  app.setSchemaErrorFormatter((errors) => new Error(describeErrors(errors)));

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?")[0] as string;
    if (ROUTES.includes(path)) {
      const allow = path.startsWith("/v1/") || path === MCP_ROUTE ? "POST" : "GET, HEAD";
      return refuse(reply, "method_not_allowed", `${req.method} is not declared for ${path}; use ${allow}`, {
        Allow: allow,
      });
    }
    return refuse(reply, "not_found", `no route ${path}`);
  });
}

/** The four operations of the contract, from the operations table. */
function operationRoutes(ctx: AppContext): void {
  const { app, operate } = ctx;
  for (const op of OPERATIONS)
    app.post(op.route, { schema: { body: op.request } }, async (req, reply) =>
      operate(reply, op.tool, req.body),
    );
}

/** Liveness, readiness, metrics and the OpenAPI document. */
function probeRoutes(ctx: AppContext): void {
  const { app, state, m, refuse, send, stamps, openapi, engines } = ctx;
  app.get("/healthz", async (_req, reply) =>
    send(reply, {
      alive: true,
      ready: state.engine !== null && !state.draining,
      draining: state.draining,
      ...stamps(),
    }),
  );
  app.get("/readyz", async (_req, reply) => {
    if (state.draining)
      return refuse(reply, "not_ready", "the server is shutting down", { "Retry-After": "5" });
    if (!state.engine)
      return refuse(reply, "not_ready", state.refused ?? "the release is being verified and loaded");
    return send(reply, { ready: true, release: `${state.engine.regime}@${state.engine.tag}` });
  });
  app.get("/metrics", async (_req, reply) => {
    m.ready.set(state.engine !== null && !state.draining ? 1 : 0);
    m.engines.set(state.engine ? engines.count : 0);
    m.waiting.set(engines.waiting);
    for (const [engine, n] of engines.made.entries()) m.made.set({ engine: String(engine) }, n);
    if (state.engine) {
      m.releaseInfo.reset();
      m.releaseInfo.set(
        {
          regime: state.engine.regime,
          tag: state.engine.tag,
          verification: String(state.engine.stamps.verification.status),
        },
        1,
      );
    }
    return reply.type(m.registry.contentType).send(await m.registry.metrics());
  });

  app.get("/openapi.json", async (_req, reply) =>
    reply.type("application/json; charset=utf-8").send(openapi),
  );
}

let loading: Promise<
  typeof import("./mcp.ts") & typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js")
> | null = null;

/**
 * The MCP server and its Streamable HTTP transport, loaded on first use: the SDK takes a quarter of a
 * second to load, which `acquis serve` spends after the release is ready (`preloadRemoteMcp`), not before.
 */
export function remoteMcp() {
  loading ??= Promise.all([
    import("./mcp.ts"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
  ]).then(([mcp, sdk]) => ({ ...mcp, ...sdk }));
  return loading;
}

function mcpRoutes(ctx: AppContext): void {
  const { app, state, cache, engines, refuse, version } = ctx;
  // Remote MCP (Streamable HTTP, stateless): every POST is one JSON-RPC exchange answered as JSON, behind
  // the same credentials, rate limit, body limit and payload cache as the REST routes.
  app.post(MCP_ROUTE, async (req, reply) => {
    const { mcpServer, StreamableHTTPServerTransport } = await remoteMcp();
    const server = mcpServer({ state, version, logger: app.log, cache, engines });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    reply.raw.on("close", () => {
      void transport.close();
      void server.close();
    });
    // The onRequest hook set the request id header on the reply Fastify no longer sends.
    reply.raw.setHeader("X-Request-Id", req.id);
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
  for (const method of ["GET", "DELETE"] as const)
    app.route({
      method,
      url: MCP_ROUTE,
      handler: async (_req, reply) =>
        refuse(
          reply,
          "method_not_allowed",
          `${method} ${MCP_ROUTE}: this server is stateless; POST JSON-RPC messages`,
          {
            Allow: "POST",
          },
        ),
    });
}
