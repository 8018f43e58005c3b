/**
 * `acquis serve` logs: JSON lines when stderr is a pipe (what collectors read), lines for a person on a
 * terminal (a real pseudo-terminal, through util-linux `script`), and ACQUIS_LOG_FORMAT decides either
 * way; a wrong value is refused in one line.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { acquis, BIN } from "../helpers/cli.ts";
import { EU_SERVE_ARGS, startServer } from "../helpers/server.ts";

test("piped: every log line is a JSON object", async () => {
  assert.equal(acquis(["build", "eu"]).status, 0);
  const s = await startServer(EU_SERVE_ARGS);
  await s.ready();
  await s.stop();
  const lines = s.stderr().split("\n").filter(Boolean);
  assert.ok(lines.length >= 2, s.stderr());
  for (const line of lines) assert.equal(typeof JSON.parse(line).msg, "string", line);
});

test("on a terminal: lines a person reads, with the time and the level, not JSON", async () => {
  const command = [process.execPath, BIN, "serve", "--port", "0", ...EU_SERVE_ARGS].join(" ");
  const tty = spawn("script", ["-qec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  tty.stdout.on("data", (d) => {
    out += d.toString();
  });
  try {
    for (let i = 0; i < 400 && !/release loaded; ready/u.test(out); i++)
      await new Promise((r) => setTimeout(r, 50));
  } finally {
    tty.kill("SIGTERM");
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's colour codes are stripped
  const plain = out.replace(/\u001b\[[0-9;]*m/gu, "");
  assert.match(plain, /^\[\d{2}:\d{2}:\d{2}\] INFO: release loaded; ready$/mu, plain);
  assert.doesNotMatch(plain, /^\{"level"/mu);
});

test("ACQUIS_LOG_FORMAT=pretty on a pipe, and a wrong value refused in one line", async () => {
  const s = await startServer(EU_SERVE_ARGS, { ACQUIS_LOG_FORMAT: "pretty" });
  await s.ready();
  await s.stop();
  assert.match(s.stderr(), /INFO: release loaded; ready/u);
  const bad = acquis(["serve", "--port", "0"], { env: { ...process.env, ACQUIS_LOG_FORMAT: "xml" } });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /ACQUIS_LOG_FORMAT "xml" is not json or pretty/u);
});
