/** Starts `acquis serve` as a real process and talks to it over HTTP. */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before } from "node:test";
import { acquis, BIN } from "./cli.ts";

export interface Server {
  url: string;
  proc: ChildProcess;
  stderr: () => string;
  stop(): Promise<number | null>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Wait until /readyz answers 200 (or give up after `ms`). */
  ready(ms?: number): Promise<void>;
}

export async function startServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const proc = spawn(process.execPath, [BIN, "serve", "--port", "0", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  proc.stderr?.on("data", (d) => {
    err += d.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no listening line in 20 s; stderr: ${err}`)), 20_000);
    proc.stdout?.on("data", (d) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/u.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve((m[1] as string).replace("://[::]", "://[::1]").replace("://0.0.0.0", "://127.0.0.1"));
      }
    });
    proc.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening; stderr: ${err}`));
    });
  });
  const server: Server = {
    url,
    proc,
    stderr: () => err,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve(proc.exitCode);
        proc.once("exit", (code) => resolve(code));
        proc.kill("SIGTERM");
      }),
    post: (path, body, headers = {}) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    async ready(ms = 20_000) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const r = await fetch(`${url}/readyz`).catch(() => null);
        if (r?.status === 200) return;
        await new Promise((res) => setTimeout(res, 50));
      }
      throw new Error(`not ready after ${ms} ms; stderr: ${err}`);
    },
  };
  return server;
}

/** The five MCP tools, sorted: the four REST operations' twins and diff_releases. */
export const MCP_TOOLS = ["diff_releases", "get_atom", "get_unit", "list_obligations", "search_regulation"];

/** The release the eu tests serve, built once by whichever test gets there first. */
export const EU_SERVE_ARGS = ["--as-of", "2026-11-22"];

/**
 * For a describe block: builds the eu release if missing and serves it before the block's tests, stops
 * it after them. Returns the running server (read it inside tests, not before they run).
 */
export function servedEu(): () => Server {
  let s: Server | undefined;
  before(async () => {
    assert.equal(acquis(["build", "eu"]).status, 0);
    s = await startServer(EU_SERVE_ARGS);
    await s.ready();
  });
  after(async () => {
    await s?.stop();
  });
  return () => s as Server;
}
