/** Starts `acquis feed serve` as a real process on a kernel-chosen port and waits for its address. */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "./cli.ts";

export interface FeedProcess {
  url: string;
  proc: ChildProcess;
}

/** `store` defaults to a fresh SQLite file; `args` are further `feed serve` options. */
export async function startFeedProcess(
  root: string,
  args: string[] = [],
  opts: { store?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<FeedProcess> {
  const store = opts.store ?? join(mkdtempSync(join(tmpdir(), "acquis-feed-")), "feed.sqlite");
  const proc = spawn(
    process.execPath,
    [BIN, "feed", "serve", "--port", "0", "--root", root, "--store", store, ...args],
    { env: { ...process.env, ...opts.env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const url = await new Promise<string>((ok, fail) => {
    let out = "";
    proc.stdout?.on("data", (d) => {
      out += d;
      const m = /listening on (\S+)/u.exec(out);
      if (m) ok(m[1] as string);
    });
    proc.on("exit", (c) => fail(new Error(`feed service exited ${c}`)));
  });
  return { url, proc };
}
