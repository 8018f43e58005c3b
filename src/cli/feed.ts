import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { feedChanges, releaseRef } from "../feed/changes.ts";
import { compileFilter, readFilter } from "../feed/filter.ts";
import { feedServer } from "../feed/http.ts";
import { PgStore } from "../feed/pg-store.ts";
import { jsonFeed, rssFeed } from "../feed/render.ts";
import { FeedService } from "../feed/service.ts";
import { SqliteStore } from "../feed/sqlite-store.ts";
import type { FeedStore } from "../feed/store.ts";
import type { DiffManifest } from "../release/diff.ts";
import { openRelease } from "./release-ref.ts";
import { defaultRoot } from "./root.ts";

const collect = (v: string, prev: string[]) => [...prev, v];

export function registerFeed(program: Command): void {
  program
    .command("feed")
    .description(
      "the change feed: `acquis feed serve` runs the feed service; `acquis feed <regime>@<tag>` renders one release's feed offline",
    )
    .argument("<release|serve>", "a release, e.g. eu@2026.11.2, or serve")
    .option("--format <format>", "json (JSON Feed 1.1) or rss (RSS 2.0)", "json")
    .option(
      "--filter <dimension=terms>",
      "narrow like a subscription, e.g. entity_type=controller or jurisdiction=EU,UNECE (repeatable)",
      collect,
      [],
    )
    .option("--base-url <url>", "address the feed's links are written against", "http://127.0.0.1:8787")
    .option("--root <dir>", "repository root", defaultRoot())
    .option("--host <host>", "serve: bind address", "127.0.0.1")
    .option("--port <port>", "serve: bind port; 0 lets the kernel choose (printed)", "8787")
    .option("--store <path|postgres://…>", "serve: the store (default: <root>/.acquis/feed.sqlite)")
    .option(
      "--worker-interval <seconds>",
      "serve: how often the delivery worker sends what is due (0: only on publish and POST /deliveries/retry)",
      "5",
    )
    .option(
      "--lease-seconds <seconds>",
      "serve: how long a worker's claim on a delivery lasts unless renewed",
      "30",
    )
    .option(
      "--allow-loopback-endpoints",
      "serve: let webhooks go to loopback (http://127.0.0.1…) for development; off in production",
    )
    .addHelpText(
      "after",
      `
Offline, the items are byte-identical to those the feed service serves for the same release and filter.
The service prints "listening on http://HOST:PORT" once bound; ACQUIS_NOW (RFC 3339) fixes its clock.

Examples:
  acquis feed eu@2026.11.2 --format rss --filter entity_type=credit_institution
  acquis feed serve --port 8787 --store .acquis/feed.sqlite`,
    )
    .action(async (ref: string, o: FeedOptions) => {
      if (ref === "serve") return serveFeed(o);
      renderFeed(ref, o);
    });
}

interface FeedOptions {
  format: string;
  filter: string[];
  baseUrl: string;
  root: string;
  host: string;
  port: string;
  store?: string;
  allowLoopbackEndpoints?: boolean;
  workerInterval: string;
  leaseSeconds: string;
}

/** `acquis feed <regime>@<tag>`: one release's feed, filtered like a subscription, on stdout. */
function renderFeed(ref: string, o: FeedOptions): void {
  if (o.format !== "json" && o.format !== "rss") throw new Error(`--format "${o.format}" is not json or rss`);
  const raw: Record<string, string[]> = {};
  for (const f of o.filter) {
    const i = f.indexOf("=");
    if (i <= 0) throw new Error(`--filter "${f}" is not dimension=terms`);
    raw[f.slice(0, i)] = [...(raw[f.slice(0, i)] ?? []), ...f.slice(i + 1).split(",")];
  }
  const filter = readFilter(raw);
  const release = openRelease(resolve(o.root), ref);
  const manifest = JSON.parse(
    readFileSync(join(release.dir, `${release.meta.tag}.diff.json`), "utf8"),
  ) as DiffManifest;
  const changes = feedChanges(release, manifest).filter(compileFilter(filter, release.taxonomy));
  const published = [{ release: releaseRef(release), changes }];
  const base = o.baseUrl.replace(/\/+$/u, "");
  process.stdout.write(
    o.format === "json"
      ? `${JSON.stringify(jsonFeed(published, { baseUrl: base, filter }), null, 2)}\n`
      : rssFeed(published, { baseUrl: base, filter }),
  );
}

async function serveFeed(
  o: {
    root: string;
    host: string;
    port: string;
    store?: string;
    baseUrl: string;
    allowLoopbackEndpoints?: boolean;
    workerInterval: string;
    leaseSeconds: string;
  },
  explicitBase = process.argv.includes("--base-url"),
) {
  const root = resolve(o.root);
  const port = Number(o.port);
  if (!/^\d+$/u.test(o.port) || port > 65535)
    throw new Error(`--port "${o.port}" is not a port number (0-65535)`);
  const store: FeedStore =
    o.store?.startsWith("postgres://") || o.store?.startsWith("postgresql://")
      ? await PgStore.open(o.store)
      : new SqliteStore(resolve(o.store ?? join(root, ".acquis", "feed.sqlite")));
  const seconds = (v: string, option: string, min: number) => {
    if (!/^\d+$/u.test(v) || Number(v) < min)
      throw new Error(`${option} "${v}" is not a whole number of seconds >= ${min}`);
    return Number(v);
  };
  const interval = seconds(o.workerInterval, "--worker-interval", 0);
  let base = o.baseUrl.replace(/\/+$/u, "");
  const service = new FeedService(store, root, {
    allowLoopback: o.allowLoopbackEndpoints ?? false,
    leaseSeconds: seconds(o.leaseSeconds, "--lease-seconds", 1),
    baseUrl: () => base,
  });
  const server = feedServer(service, () => base);
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, o.host, ok);
  });
  const address = server.address() as { port: number };
  const shown = o.host.includes(":") ? `[${o.host}]` : o.host;
  if (!explicitBase) base = `http://${shown}:${address.port}`;
  process.stdout.write(`listening on http://${shown}:${address.port}\n`);
  // The delivery worker: at start (a restart resumes what a crash left owed) and every interval after.
  let working = false;
  const pass = async () => {
    if (working) return;
    working = true;
    try {
      await service.deliverDue();
    } catch (e) {
      process.stderr.write(
        `${JSON.stringify({ level: "error", msg: `delivery worker: ${(e as Error).message}` })}\n`,
      );
    } finally {
      working = false;
    }
  };
  const worker = interval > 0 ? setInterval(pass, interval * 1000) : null;
  if (interval > 0) void pass();
  const stop = () =>
    server.close(() => {
      if (worker) clearInterval(worker);
      store.close();
      process.exit(0);
    });
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
