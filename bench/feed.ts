/**
 * Publishing eu releases to 1 000 subscriptions with a local receiver, over SQLite and over
 * PostgreSQL: the newest release's predecessor first (the feed's baseline: counted, not itemised),
 * then the newest release (its atom changes, each payload within its budget). For each: time to the
 * fan-out answer (which includes the first attempt at every delivery), deliveries per second; then
 * the store's size. Each subscription filters on one entity type of the release's taxonomy, cycling
 * through them, as real subscribers narrow what they receive.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { META_FILE } from "../src/release/meta.ts";
import { readReleases, releaseDir } from "../src/release/releases.ts";
import { startPostgres } from "../test/helpers/postgres.ts";

const root = join(import.meta.dirname, "..");
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 1000);

async function run(store: string) {
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const proc = spawn(
    process.execPath,
    [
      join(root, "bin", "acquis"),
      "feed",
      "serve",
      "--port",
      "0",
      "--store",
      store,
      "--allow-loopback-endpoints",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((ok) => {
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (\S+)/u.exec(out);
      if (m) ok(m[1] as string);
    });
  });
  try {
    const built = readReleases(root, "eu").filter((r) =>
      existsSync(join(releaseDir(root, "eu", r.tag), META_FILE)),
    );
    const [previous, newest] = built.slice(-2);
    if (!previous || !newest) throw new Error("build two eu releases first (npx acquis build eu)");
    const types = (
      JSON.parse(readFileSync(join(releaseDir(root, "eu", newest.tag), "obligations.json"), "utf8")) as {
        taxonomy: { id: string }[];
      }
    ).taxonomy.map((t) => t.id);
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const r = await fetch(`${url}/subscriptions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          endpoint: hook,
          secret: `secret-${i}-of-at-least-24-bytes`,
          filter: { entity_type: types[i % types.length] },
        }),
      });
      if (r.status !== 201) throw new Error(`subscription ${i}: ${r.status}`);
    }
    const publish = async (tag: string) => {
      const t0 = performance.now();
      const res = await fetch(`${url}/publish`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ regime: "eu", tag }),
      });
      const fanout = (await res.json()) as {
        deliveries: unknown[];
        silent: unknown[];
        publication: { changes: number; baseline: boolean };
      };
      const seconds = (performance.now() - t0) / 1000;
      return {
        tag,
        baseline: fanout.publication.baseline,
        changes: fanout.publication.changes,
        deliveries: fanout.deliveries.length,
        silent: fanout.silent.length,
        fanout_answer_s: Math.round(seconds * 100) / 100,
        deliveries_per_s: Math.round(fanout.deliveries.length / seconds),
      };
    };
    const first = await publish(previous.tag);
    const next = await publish(newest.tag);
    return { subscriptions: SUBSCRIPTIONS, received, baseline: first, release: next };
  } finally {
    proc.kill("SIGTERM");
    receiver.close();
  }
}

export async function benchFeed() {
  const file = join(mkdtempSync(join(tmpdir(), "acquis-bench-feed-")), "feed.sqlite");
  const sqlite = {
    ...(await run(file)),
    store_mib: Math.round(
      (statSync(file).size + (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0)) / 1048576,
    ),
  };
  const postgres = await startPostgres();
  try {
    const url = await postgres.database(`bench_${process.pid}`);
    const result = await run(url);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const size = Number((await c.query("SELECT pg_database_size(current_database()) AS n")).rows[0].n);
    await c.end();
    return { sqlite, postgresql: { ...result, store_mib: Math.round(size / 1048576) } };
  } finally {
    postgres.stop();
  }
}

if (import.meta.main) process.stdout.write(`${JSON.stringify(await benchFeed(), null, 2)}\n`);
