/**
 * Tool-call latency of search_regulation over stdio (the SDK's Client and StdioClientTransport against
 * `acquis serve --mcp`) beside REST latency for the same requests, one call at a time, with the payload
 * cache on (default) and off.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const root = join(import.meta.dirname, "..");
const BIN = join(root, "bin", "acquis");
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const QUERIES = [
  "When must a controller notify a personal data breach?",
  "Article 6(1)(f) GDPR legitimate interests",
  "incident reporting deadlines for essential entities",
  "prohibited AI practices",
  "ICT third-party risk register of information",
  "white paper obligations for crypto-asset offerors",
];

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number) * 100) / 100;
};

async function mcpLatencies(cacheMiB: number): Promise<number[]> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "serve", "--mcp", "--as-of", "2026-11-22"],
      env: { ...process.env, ACQUIS_CACHE_MIB: String(cacheMiB) } as Record<string, string>,
      stderr: "ignore",
    }),
  );
  const out: number[] = [];
  try {
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      await client.callTool({ name: "search_regulation", arguments: { query: QUERIES[i % QUERIES.length] } });
      out.push(performance.now() - t0);
    }
  } finally {
    await client.close();
  }
  return out;
}

async function restLatencies(cacheMiB: number): Promise<number[]> {
  const policy = join(mkdtempSync(join(tmpdir(), "acquis-bench-")), "serving.yaml");
  writeFileSync(policy, "anonymous: { allowed: true, per_minute: 1000000000 }\n");
  const proc = spawn(
    process.execPath,
    [BIN, "serve", "--port", "0", "--as-of", "2026-11-22", "--config", policy],
    {
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, ACQUIS_CACHE_MIB: String(cacheMiB) },
    },
  );
  const url = await new Promise<string>((resolve) => {
    let buf = "";
    proc.stdout.on("data", (d) => {
      buf += d;
      const m = /listening on (\S+)/u.exec(buf);
      if (m) resolve(m[1] as string);
    });
  });
  while ((await fetch(`${url}/readyz`).catch(() => null))?.status !== 200)
    await new Promise((r) => setTimeout(r, 10));
  const out: number[] = [];
  try {
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      const res = await fetch(`${url}/v1/answer`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: QUERIES[i % QUERIES.length] }),
      });
      await res.arrayBuffer();
      out.push(performance.now() - t0);
    }
  } finally {
    proc.kill("SIGTERM");
  }
  return out;
}

export async function benchMcp() {
  const result: Record<string, unknown> = { calls: CALLS };
  for (const [label, cache] of [
    ["cached", 64],
    ["uncached", 0],
  ] as const) {
    const mcp = await mcpLatencies(cache);
    const rest = await restLatencies(cache);
    result[label] = {
      mcp_stdio: { p50_ms: pct(mcp, 50), p99_ms: pct(mcp, 99) },
      rest_http: { p50_ms: pct(rest, 50), p99_ms: pct(rest, 99) },
    };
  }
  return result;
}

if (import.meta.main) process.stdout.write(`${JSON.stringify(await benchMcp(), null, 2)}\n`);
