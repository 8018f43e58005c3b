/**
 * A throwaway PostgreSQL server for the tests: a temporary cluster on a loopback port, started with the
 * server binaries of Debian's `postgresql` package (the test set-up installs it when missing:
 * test/setup/debian.sh, run by `npm test`). As root, the cluster belongs to the `postgres` user,
 * because initdb refuses to run as root.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface Postgres {
  /** A fresh database of its own, as a postgres:// URL. */
  database(name: string): Promise<string>;
  stop(): void;
}

function binaries(): string {
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(base, v, "bin", "initdb"))) return join(base, v, "bin");
  throw new Error(
    "no PostgreSQL server binaries in /usr/lib/postgresql; run test/setup/debian.sh (npm test does)",
  );
}

async function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

export async function startPostgres(): Promise<Postgres> {
  const bin = binaries();
  const dir = mkdtempSync(join(tmpdir(), "acquis-pg-"));
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  const root = process.getuid?.() === 0;
  const uid = root ? Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim()) : null;
  if (root && uid !== null)
    chownSync(dir, uid, Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim()));
  const run = (cmd: string, args: string[]) =>
    root
      ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, cmd), ...args], { stdio: "pipe" })
      : execFileSync(join(bin, cmd), args, { stdio: "pipe" });
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync"]);
  const port = await freePort();
  run("pg_ctl", [
    "-D",
    data,
    "-l",
    join(dir, "log"),
    "-w",
    "-o",
    `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`,
    "start",
  ]);
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    async database(name: string) {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`CREATE DATABASE ${name.replace(/[^a-z0-9_]/gu, "_")}`);
      await c.end();
      return `postgres://postgres@127.0.0.1:${port}/${name.replace(/[^a-z0-9_]/gu, "_")}`;
    },
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
      } catch {
        // already stopped
      }
    },
  };
}
