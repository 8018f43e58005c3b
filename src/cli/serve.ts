import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { Logger } from "pino";
import type { Engine } from "../engine/context.ts";
import { bootEngine, readDisclaimer, releaseDirectory } from "../serve/boot.ts";
import { Engines } from "../serve/engines.ts";
import { buildApp, remoteMcp } from "../serve/http.ts";
import { type Policy, readPolicy } from "../serve/policy.ts";
import type { ServeState } from "../serve/state.ts";
import type { TrustOptions } from "../trust/verify.ts";
import { serverLogger } from "./log.ts";
import { checkDate } from "./release-ref.ts";
import { trustFlags, trustOptions } from "./trust-options.ts";

interface ServeOptions {
  release?: string;
  path?: string;
  insecureSkipVerify?: boolean;
  key: string[];
  logKey: string[];
  trust?: string;
  host: string;
  port: string;
  asOf?: string;
  config?: string;
  root: string;
  mcp?: boolean;
  engines: string;
}

/** Each engine holds the whole release in memory (about 300 MB for eu): a bound against a typo, not a tuning. */
const MAX_ENGINES = 64;

const ENGINE_VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
    version: string;
  }
).version;

/** A message with every absolute path replaced by its last segment. */
function withoutPaths(message: string): string {
  return message.replace(
    /(?<![\w.:/])\/(?:[^\s/:'"`,;()]+\/)*([^\s/:'"`,;()]*)/gu,
    (_m, last: string) => last || "/",
  );
}

export function registerServe(program: Command): void {
  trustFlags(program.command("serve"))
    .description("serve one verified release over REST (docs/serving.md)")
    .option("--release <regime@tag>", "release to serve (default: the newest built release in the checkout)")
    .option("--path <dir>", "serve the release in this directory instead")
    .option("--insecure-skip-verify", "serve without verification; every response says verification: skipped")
    .option("--host <host>", "bind address: IPv4, IPv6, or :: for one dual-stack socket", "127.0.0.1")
    .option("--port <port>", "bind port; 0 lets the kernel choose (printed)", "8080")
    .option("--as-of <date>", "date for requests that state no as_of (default: today, UTC)")
    .option("--config <file>", "deployment policy (default: <root>/config/serving.yaml)")
    .option(
      "--engines <n|auto>",
      'engines answering at once: this thread\'s and n-1 worker threads, each with the release loaded; auto: one per core (docs/serving.md, "Engines")',
      "1",
    )
    .option(
      "--mcp",
      "speak the Model Context Protocol on stdin/stdout instead of REST (--host and --port do not apply)",
    )
    .addHelpText(
      "after",
      `
Prints "listening on http://HOST:PORT" once bound; /healthz answers at once, /readyz and the /v1 routes
once the release is verified and loaded. SIGTERM or SIGINT drains in-flight work, then exits.

Examples:
  acquis serve                                    the newest eu release on 127.0.0.1:8080
  acquis serve --port 0 --as-of 2026-01-01        a kernel-chosen port; answers dated 2026-01-01 by default
  acquis serve --engines auto                     one engine per core: new questions answered on every core
  curl -s localhost:8080/v1/answer -H 'content-type: application/json' -d '{"query":"Article 33(1) GDPR"}'`,
    )
    .action(serve);
}

/** What serving one release takes, over either transport: the options read, the policy, and the shared state. */
interface Serving {
  o: ServeOptions;
  root: string;
  port: number;
  policy: Policy;
  trust: TrustOptions;
  /** The release directory served. */
  dir: string;
  disclaimer: string;
  logger: Logger;
  state: ServeState;
  cacheMiB: number;
  engines: Engines;
  /** Engines asked for with --engines: this thread's and the workers'. */
  engineCount: number;
}

/** `acquis serve`: the options checked, then the release served over MCP on stdio or over REST. */
async function serve(o: ServeOptions): Promise<void> {
  const root = resolve(o.root);
  const port = Number(o.port);
  if (!/^\d+$/u.test(o.port) || port > 65535)
    throw new Error(`--port "${o.port}" is not a port number (0-65535)`);
  if (o.asOf !== undefined) checkDate(o.asOf, "--as-of");
  const engineCount =
    o.engines === "auto" ? Math.min(availableParallelism(), MAX_ENGINES) : Number(o.engines);
  if (o.engines !== "auto" && (!/^\d+$/u.test(o.engines) || engineCount < 1 || engineCount > MAX_ENGINES))
    throw new Error(
      `--engines "${o.engines}" is not a count of engines (1-${MAX_ENGINES}, or auto: one per core, ${availableParallelism()} here)`,
    );
  const configFile = o.config ? resolve(o.config) : join(root, "config", "serving.yaml");
  const policy = readPolicy(configFile, o.config !== undefined);
  const trust = trustOptions({ ...o, root });
  const dir = releaseDirectory({ release: o.release, path: o.path, root });
  const disclaimer = readDisclaimer(root);

  // Logs go to stderr: stdout carries only the "listening on" line (REST) or protocol messages (MCP).
  const logger = serverLogger();
  const state: ServeState = {
    engine: null,
    scope: null,
    refused: null,
    draining: false,
    defaultAsOf: () => o.asOf ?? new Date().toISOString().slice(0, 10),
  };
  const cacheMiB = Number(process.env.ACQUIS_CACHE_MIB ?? 64);
  const engines = new Engines(state);
  const s: Serving = {
    o,
    root,
    port,
    policy,
    trust,
    dir,
    disclaimer,
    logger,
    state,
    cacheMiB,
    engines,
    engineCount,
  };
  if (o.mcp) return serveStdio(s);
  return serveRest(s);
}

/** The release verified and loaded into the state, or the state says why it was refused. */
function bootRelease({ o, root, trust, dir, disclaimer, logger, state }: Serving): boolean {
  try {
    if (o.insecureSkipVerify)
      logger.warn(
        { release: dir },
        "--insecure-skip-verify: serving WITHOUT verification; responses say verification: skipped",
      );
    const booted = bootEngine({ dir, root, trust, disclaimer });
    state.engine = booted.engine;
    state.scope = booted.scope;
    logger.info(
      {
        release: `${booted.engine.regime}@${booted.engine.tag}`,
        verification: booted.engine.stamps.verification,
      },
      "release loaded; ready",
    );
    return true;
  } catch (e) {
    // The log keeps the whole message; what /readyz shows names no absolute server path.
    logger.error({ release: dir }, `release refused: ${(e as Error).message}`);
    state.refused = `release refused: ${withoutPaths((e as Error).message)}`;
    return false;
  }
}

/** The release booted in this thread, then the other engines in worker threads, which join as they boot. */
function bootEngines(s: Serving): void {
  if (!bootRelease(s) || s.engineCount === 1) return;
  const { root, trust, dir, disclaimer, logger, state } = s;
  void s.engines.addWorkers(
    s.engineCount - 1,
    { dir, root, trust, disclaimer },
    state.engine as Engine,
    logger,
  );
}

/** MCP on stdin/stdout until a signal or the end of stdin. */
async function serveStdio(s: Serving): Promise<void> {
  // Verified before the transport connects, so the initialize result names the release served.
  bootEngines(s);
  const { serveMcp } = await import("../serve/mcp.ts");
  const server = await serveMcp({
    engines: s.engines,
    state: s.state,
    version: ENGINE_VERSION,
    logger: s.logger,
    cacheBytes: s.cacheMiB * 1024 * 1024,
  });
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.stdin.on("end", stop);
}

/** REST: listening at once (/healthz answers), the release booted right after, drained on a signal. */
async function serveRest(s: Serving): Promise<void> {
  const { o, port, policy, state, logger } = s;
  const app = buildApp({
    engines: s.engines,
    policy,
    state,
    logger,
    version: ENGINE_VERSION,
    cacheBytes: s.cacheMiB * 1024 * 1024,
  });
  await app.listen({ host: o.host, port, ipv6Only: false });
  const address = app.server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  const shown = o.host.includes(":") ? `[${o.host}]` : o.host;
  process.stdout.write(`listening on http://${shown}:${bound}\n`);

  // Drain (docs/serving.md): stop accepting connections; a request that still arrives on an open
  // connection is refused 503 with Retry-After and the connection closed; in-flight requests
  // finish; exit when no connection is left or drain_seconds have passed.
  const shutdown = (signal: string) => {
    if (state.draining) return;
    state.draining = true;
    logger.info({ signal, drain_seconds: policy.shutdown.drain_seconds }, "draining");
    app.server.maxConnections = 0;
    const until = Date.now() + policy.shutdown.drain_seconds * 1000;
    const poll = setInterval(() => {
      app.server.getConnections((_e, open) => {
        if (open > 0 && Date.now() < until) return;
        clearInterval(poll);
        void app.close().then(() => process.exit(0));
        setTimeout(() => process.exit(0), 1000).unref();
      });
    }, 50);
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  setImmediate(() => {
    bootEngines(s);
    // Remote MCP's modules load a second after the release is ready (not in the way of /readyz and the
    // first requests), so a first /mcp call finds them loaded.
    setTimeout(() => void remoteMcp(), 1000).unref();
  });
}
