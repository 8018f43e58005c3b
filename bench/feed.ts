/**
 * Publishing the newest eu release's atom changes to 1 000 subscriptions with a local receiver, over
 * SQLite and over PostgreSQL: time to the fan-out answer, deliveries per second, store size. Each
 * subscription filters on one entity type of the release's taxonomy, cycling through them, as real
 * subscribers narrow what they receive (an unfiltered payload would carry every change of the release).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { newestBuilt, releaseDir } from "../src/release/releases.ts";
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
    [join(root, "bin", "acquis"), "feed", "serve", "--port", "0", "--store", store],
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
    const record = newestBuilt(root, "eu");
    if (!record) throw new Error("build eu first");
    const types = (
      JSON.parse(readFileSync(join(releaseDir(root, "eu", record.tag), "obligations.json"), "utf8")) as {
        taxonomy: { id: string }[];
      }
    ).taxonomy.map((t) => t.id);
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const r = await fetch(`${url}/subscriptions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          endpoint: hook,
          secret: `secret-${i}`,
          filter: { entity_type: types[i % types.length] },
        }),
      });
      if (r.status !== 201) throw new Error(`subscription ${i}: ${r.status}`);
    }
    const t0 = performance.now();
    const res = await fetch(`${url}/publish`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ regime: "eu", tag: record.tag }),
    });
    const fanout = (await res.json()) as {
      deliveries: unknown[];
      silent: unknown[];
      publication: { changes: number };
    };
    const seconds = (performance.now() - t0) / 1000;
    return {
      changes: fanout.publication.changes,
      subscriptions: SUBSCRIPTIONS,
      deliveries: fanout.deliveries.length,
      silent: fanout.silent.length,
      received,
      fanout_answer_s: Math.round(seconds * 10) / 10,
      deliveries_per_s: Math.round(fanout.deliveries.length / seconds),
    };
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
