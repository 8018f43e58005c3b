/**
 * Docs that cannot drift (issue 18): every `acquis …` command line and every HTTP route that README.md,
 * CONTRIBUTING.md and docs/**\/*.md show (in code blocks and inline code) is checked against the code.
 * A command and each option it names must be in the real CLI's `--help` (run as a process, once per
 * distinct command), and a release it names (`eu@2026.11.3`) must be recorded in the regime's
 * releases.yaml. A route must be registered by the serving API (`buildApp`, whose routes come from the
 * operations table) or answered by the feed service (`feedServer`), chosen by the port a curl names or
 * the page that names it. `npm run` scripts and the files `node` is asked to run must exist too. Fenced
 * blocks marked `text` quote output or a log, and are not read. A failure names the file, the line and
 * the stale command or route.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { describe, test } from "node:test";
import { promisify } from "node:util";
import pino from "pino";
import { feedServer } from "../src/feed/http.ts";
import type { FeedService } from "../src/feed/service.ts";
import { Refusal } from "../src/feed/service.ts";
import { buildApp } from "../src/serve/http.ts";
import { openApiDocument } from "../src/serve/openapi.ts";
import { MCP_ROUTE, OPERATIONS } from "../src/serve/operations.ts";
import { DEFAULT_POLICY } from "../src/serve/policy.ts";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "acquis");

// ── Where the docs show code ────────────────────────────────────────────────────────────────────────

/** A piece of code a page shows: a fenced line (continuation lines joined) or an inline code span. */
export interface Snippet {
  file: string;
  line: number;
  text: string;
  /** The whole source line, for verbs written in their own span ("`GET` and `DELETE /mcp`"). */
  source: string;
  fenced: boolean;
}

/** Fenced blocks that quote text (a log, an output) rather than show code to run. */
const QUOTED = new Set(["text", "txt", "log", "output"]);

export function snippets(file: string, markdown: string): Snippet[] {
  const lines = markdown.split("\n");
  const out: Snippet[] = [];
  const prose: string[] = [];
  let fence: string | null = null;
  let quoted = false;
  let pending: { line: number; text: string } | null = null;
  lines.forEach((raw, i) => {
    const open = /^\s*(`{3,}|~{3,})\s*([\w-]*)/u.exec(raw);
    if (open && (fence === null || (open[1] as string).startsWith(fence))) {
      quoted = fence === null && QUOTED.has(open[2] as string);
      fence = fence === null ? (open[1] as string) : null;
      prose.push("");
      return;
    }
    if (fence !== null) {
      prose.push("");
      if (quoted) return;
      // A shell line ending in a backslash continues on the next one.
      const text = pending ? `${pending.text} ${raw.trim()}` : raw;
      const line = pending ? pending.line : i + 1;
      if (/\\\s*$/u.test(raw)) pending = { line, text: text.replace(/\\\s*$/u, "") };
      else {
        pending = null;
        out.push({ file, line, text, source: text, fenced: true });
      }
      return;
    }
    prose.push(raw);
  });
  // Inline code may wrap onto the next line of its paragraph.
  const text = prose.join("\n");
  for (const m of text.matchAll(/(?<!`)(`+)(?!`)([\s\S]+?)(?<!`)\1(?!`)/gu)) {
    const body = (m[2] as string).replace(/\s+/gu, " ").trim();
    if (body === "" || (m[2] as string).includes("\n\n")) continue;
    const line = text.slice(0, m.index).split("\n").length;
    out.push({ file, line, text: body, source: lines[line - 1] ?? "", fenced: false });
  }
  return out;
}

// ── Commands ────────────────────────────────────────────────────────────────────────────────────────

/** Shell words, quotes kept together; an operator or a comment ends a command. */
function words(text: string): string[] {
  const out: string[] = [];
  let word = "";
  let quote: string | null = null;
  let started = false;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = null;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (/[\s`]/u.test(c)) {
      if (started || word !== "") out.push(word);
      word = "";
      started = false;
    } else word += c;
  }
  if (started || word !== "") out.push(word);
  return out;
}

const ENDS = /^(\||\|\||&&|;|&|#.*|\d?>.*|<)$/u;
/** Words after which a command starts. */
const LEADS = new Set([
  "npx",
  "node",
  "exec",
  "time",
  "sudo",
  "$",
  "&&",
  "||",
  ";",
  "|",
  "&",
  "(",
  "then",
  "do",
]);

export interface Invocation {
  tool: "acquis" | "npm" | "node" | "curl";
  args: string[];
}

/** The commands a snippet runs: acquis, `npm run`, `node <file>` and curl. */
export function invocations(s: Snippet): Invocation[] {
  const w = words(s.text);
  const out: Invocation[] = [];
  w.forEach((word, i) => {
    const prev = i === 0 ? null : (w[i - 1] as string);
    const leads = prev === null || LEADS.has(prev) || /^[A-Z_][A-Z0-9_]*=/u.test(prev);
    const rest = () => {
      const args: string[] = [];
      for (const a of w.slice(i + 1)) {
        if (ENDS.test(a)) break;
        args.push(a);
      }
      return args;
    };
    if ((word === "acquis" || /(^|\/)bin\/acquis$/u.test(word)) && leads)
      out.push({ tool: "acquis", args: rest() });
    else if (word === "npm" && leads && /^(run|run-script|start|test)$/u.test(w[i + 1] ?? ""))
      out.push({ tool: "npm", args: /^run/u.test(w[i + 1] as string) ? rest().slice(1) : rest() });
    else if (word === "node" && leads && !/(^|\/)bin\/acquis$/u.test(w[i + 1] ?? ""))
      out.push({ tool: "node", args: rest() });
    else if (word === "curl" && leads) out.push({ tool: "curl", args: rest() });
  });
  return out;
}

interface Help {
  options: Set<string>;
  commands: Set<string>;
}

const execFileAsync = promisify(execFile);
const helps = new Map<string, Promise<Help>>();

/** At most three `--help` processes at a time: the machines that run the tests have few cores. */
let running = 0;
const waiting: (() => void)[] = [];
async function run(file: string, args: string[], opts: { cwd: string }) {
  if (running >= 3) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    return await execFileAsync(file, args, opts);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** `acquis <path> --help`, run once per distinct command, read into its options and subcommands. */
function helpOf(path: string[]): Promise<Help> {
  const key = path.join(" ");
  let help = helps.get(key);
  if (!help) {
    help = run(process.execPath, [BIN, ...path, "--help"], { cwd: ROOT }).then(({ stdout }) => {
      const options = new Set<string>();
      const commands = new Set<string>();
      let section = "";
      for (const line of stdout.split("\n")) {
        const head = /^(\w[\w ]*):\s*$/u.exec(line);
        if (head) section = head[1] as string;
        const entry = /^ {2}(\S.*?)(?: {2,}|$)/u.exec(line)?.[1];
        if (!entry) continue;
        if (section === "Options")
          for (const flag of entry.split(/,\s*/u)) options.add(flag.split(/\s/u)[0] as string);
        if (section === "Commands") commands.add(entry.split(/\s/u)[0] as string);
      }
      return { options, commands };
    });
    helps.set(key, help);
  }
  return help;
}

/** Why an `acquis` command line is stale, or null. */
export async function checkAcquis(args: string[]): Promise<string | null> {
  const path: string[] = [];
  let help = await helpOf(path);
  let positional = false;
  for (const raw of args) {
    const arg = raw.replace(/^\[+|\]+$/gu, "");
    if (arg === "…" || arg === "...") break; // "acquis …": any command
    if (arg === "" || arg === "options" || arg === "--") continue;
    if (/^-/u.test(arg) && arg !== "-") {
      const flag = arg.split("=")[0] as string;
      const command = ["acquis", ...path].join(" ");
      if (!help.options.has(flag)) return `${command} ${flag}: no such option (see ${command} --help)`;
      continue;
    }
    if (!positional && help.commands.size > 0) {
      const command = ["acquis", ...path].join(" ");
      if (!help.commands.has(arg))
        return `${command} ${arg}: no such command (${command} --help lists ${[...help.commands].join(", ")})`;
      path.push(arg);
      help = await helpOf(path);
      continue;
    }
    positional = true;
    const release = /^([a-z0-9_-]+)@(\d[\w.-]*)$/u.exec(arg);
    if (release && !recorded(release[1] as string).includes(release[2] as string))
      return `${arg}: no such release in regimes/${release[1]}/releases.yaml`;
  }
  return null;
}

/** The tags `regimes/<regime>/releases.yaml` records. */
function recorded(regime: string): string[] {
  const file = join(ROOT, "regimes", regime, "releases.yaml");
  return existsSync(file)
    ? [...readFileSync(file, "utf8").matchAll(/tag:\s*(\S+)/gu)].map((m) => m[1] as string)
    : [];
}

const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: object }).scripts;

/** Why an `npm run` or `node` command is stale, or null. */
function checkRunner(inv: Invocation): string | null {
  if (inv.tool === "npm") {
    const script = inv.args[0];
    if (script === "…" || script === "...") return null;
    return script && !(script in SCRIPTS) ? `npm run ${script}: no such script in package.json` : null;
  }
  const missing = inv.args
    .filter((a) => /^[\w./-]+\.(ts|js|mjs)$/u.test(a))
    .find((file) => !existsSync(join(ROOT, file)));
  return missing ? `node ${missing}: no such file` : null;
}

// ── Routes ──────────────────────────────────────────────────────────────────────────────────────────

type Server = "serve" | "feed";

export interface RouteMention {
  method: string;
  path: string;
  /** Which server the page means; null when either could be meant. */
  server: Server | null;
}

const VERB = "GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS";
const PORTS: Record<string, Server> = { "8080": "serve", "8787": "feed" };
const clean = (path: string) => path.split("?")[0]?.replace(/[.:]+$/u, "") as string;

/** The page a route is named on decides the server, where the page is about one. */
function serverOfPage(file: string): Server | null {
  return file === "docs/feed.md" ? "feed" : file === "docs/serving.md" ? "serve" : null;
}

/** The routes a snippet names: `VERB /path`, and the method and URL of a curl to a known port. */
export function routes(s: Snippet): RouteMention[] {
  const out: RouteMention[] = [];
  const page = serverOfPage(s.file);
  for (const m of s.text.matchAll(new RegExp(`(?<![\\w/])(${VERB}) +(/[^\\s\`'",;)]*)`, "gu")))
    out.push({ method: m[1] as string, path: clean(m[2] as string), server: page });
  if (!s.fenced) {
    // "`GET`/`POST /subscriptions`", "`GET` and `DELETE /mcp`": a verb in its own span shares the path.
    const shared = new RegExp(`\`(${VERB})\`\\s*(?:/|,|and|or)\\s*\`(?:${VERB}) (/[^\`\\s]*)\``, "gu");
    for (const m of s.source.matchAll(shared))
      if (s.text.endsWith(m[2] as string))
        out.push({ method: m[1] as string, path: clean(m[2] as string), server: page });
    // "`GET /healthz`, `/readyz`, `/metrics`": paths listed after a route share its verb.
    const listed = new RegExp(`\`(${VERB}) (/[^\`\\s]*)\`((?:\\s*(?:,|and|or)\\s*\`/[^\`\\s]*\`)+)`, "gu");
    for (const m of s.source.matchAll(listed))
      if (s.text === `${m[1]} ${m[2]}`)
        for (const p of (m[3] as string).matchAll(/`(\/[^`\s]*)`/gu))
          out.push({ method: m[1] as string, path: clean(p[1] as string), server: page });
  }
  for (const inv of invocations(s).filter((i) => i.tool === "curl")) {
    const url = inv.args
      .map((a) => /^(?:https?:\/\/)?(?:localhost|127\.0\.0\.1|\[::1\]|<host>):(\d+)(\/[^\s]*)$/u.exec(a))
      .find((m) => m && (m[1] as string) in PORTS);
    if (!url) continue;
    const x = inv.args.findIndex((a) => a === "-X" || a === "--request");
    const method =
      x >= 0
        ? (inv.args[x + 1] as string)
        : inv.args.some((a) => /^(-d|--data.*|-F|--form|--json)$/u.test(a))
          ? "POST"
          : inv.args.some((a) => a === "-I" || a === "--head")
            ? "HEAD"
            : "GET";
    out.push({ method, path: clean(url[2] as string), server: PORTS[url[1] as string] as Server });
  }
  return out;
}

/** The serving API's registered routes: the Fastify app `acquis serve` runs, built without a release. */
async function servingRoutes() {
  const app = buildApp({
    policy: DEFAULT_POLICY,
    state: { engine: null, scope: null, refused: null, draining: false, defaultAsOf: () => "2026-01-01" },
    version: "docs",
    logger: pino({ level: "silent" }),
    cacheBytes: 0,
  });
  await app.ready();
  const { paths } = openApiDocument() as { paths: Record<string, unknown> };
  const known = [...new Set([...OPERATIONS.map((o) => o.route), MCP_ROUTE, ...Object.keys(paths)])];
  const has = (method: string, path: string) =>
    path.endsWith("*")
      ? known.some((p) => p.startsWith(path.slice(0, -1)) && app.hasRoute({ method, url: p }))
      : app.hasRoute({ method: method as "GET", url: path });
  return { has, close: () => app.close() };
}

/**
 * The feed service's routes, asked of the real server: its routes are resolved path first, so a route
 * it does not have answers 404 "no route …" or "… is not answered on …", or 501 for a verb it never
 * answers. Every call the handlers make on the service is refused (418), so nothing is read or written.
 */
async function feedRoutes() {
  const refuse = () => {
    throw new Refusal(418, "docs test: no service");
  };
  const store = new Proxy({}, { get: () => refuse });
  const service = new Proxy({}, { get: (_t, k) => (k === "store" ? store : refuse) }) as FeedService;
  const server = feedServer(service, () => "http://127.0.0.1");
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const has = async (method: string, path: string) => {
    const concrete = path.replace(/\{[^}]*\}|<[^>]*>|:[a-z_]+|\*/gu, "x");
    const res = await fetch(`${base}${concrete}`, { method });
    const body = method === "HEAD" ? "" : await res.text();
    if (res.status === 501) return false;
    return !(res.status === 404 && /"error": "(no route |\w+ is not answered on )/u.test(body));
  };
  return { has, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

// ── The pages ───────────────────────────────────────────────────────────────────────────────────────

function pages(): string[] {
  const md = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? md(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
    );
  return [join(ROOT, "README.md"), join(ROOT, "CONTRIBUTING.md"), ...md(join(ROOT, "docs"))].map((f) =>
    relative(ROOT, f),
  );
}

/** Every problem of the given pages, each "file:line: `code`: why". */
export async function stale(files: { file: string; text: string }[]): Promise<string[]> {
  const serve = await servingRoutes();
  const feed = await feedRoutes();
  const problems: string[] = [];
  const say = (s: Snippet, why: string) =>
    problems.push(`${s.file}:${s.line}: \`${s.text.trim().slice(0, 120)}\`: ${why}`);
  try {
    const all = files.flatMap(({ file, text }) => snippets(file, text));
    // Each distinct command's --help is one process; they run side by side.
    const commands = await Promise.all(
      all.map((s) =>
        Promise.all(
          invocations(s).map((inv) =>
            inv.tool === "acquis" ? checkAcquis(inv.args) : inv.tool === "curl" ? null : checkRunner(inv),
          ),
        ),
      ),
    );
    for (const [i, s] of all.entries()) {
      for (const why of commands[i] ?? []) if (why) say(s, why);
      for (const r of routes(s)) {
        const inServe = r.server !== "feed" && serve.has(r.method, r.path);
        const inFeed = r.server !== "serve" && !inServe && (await feed.has(r.method, r.path));
        if (!inServe && !inFeed)
          say(
            s,
            `${r.method} ${r.path}: no such route ${
              r.server === "serve"
                ? "in the serving API (src/serve/operations.ts, src/serve/http.ts)"
                : r.server === "feed"
                  ? "in the feed service (src/feed/http.ts)"
                  : "in the serving API or the feed service"
            }`,
          );
      }
    }
  } finally {
    await serve.close();
    await feed.close();
  }
  return problems;
}

describe("the docs match the code", () => {
  const files = () => pages().map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));

  test("the pages are read: README.md, CONTRIBUTING.md and every page under docs/", () => {
    const found = pages();
    for (const f of ["README.md", "CONTRIBUTING.md", "docs/serving.md", "docs/feed.md", "docs/decisions.md"])
      assert.ok(found.includes(f) && existsSync(join(ROOT, f)), f);
    assert.ok(
      found.some((f) => f.startsWith("docs/adr/")),
      "docs/adr/ is read too",
    );
  });

  test("the extraction finds the commands and routes the pages show", () => {
    const all = files().flatMap(({ file, text }) => snippets(file, text));
    const commands = all.flatMap((s) => invocations(s).filter((i) => i.tool === "acquis"));
    const named = all.flatMap(routes);
    assert.ok(commands.length >= 40, `${commands.length} acquis commands`);
    assert.ok(named.length >= 30, `${named.length} routes`);
    const shown = (args: string) => commands.some((c) => c.args.join(" ").startsWith(args));
    for (const c of ["serve --mcp", "feed serve", "atoms sync eu", "--version", "coverage --profile"])
      assert.ok(shown(c), `acquis ${c}`);
    const route = (m: string, p: string, server: Server) =>
      named.some((r) => r.method === m && r.path === p && r.server === server);
    assert.ok(route("POST", "/mcp", "serve"), "POST /mcp in docs/serving.md");
    assert.ok(route("GET", "/subscriptions", "feed"), "`GET`/`POST /subscriptions` in docs/feed.md");
    assert.ok(route("POST", "/publish", "feed"), "a curl to :8787/publish");
    assert.ok(route("POST", "/v1/answer", "serve"), "a curl to :8080/v1/answer");
  });

  test("every acquis command, option, npm script, node script and route the pages show exists", async () => {
    const problems = await stale(files());
    assert.equal(problems.length, 0, `stale documentation:\n${problems.join("\n")}`);
  });

  test("a stale command, option or route is reported with its file and line", async () => {
    const page = [
      "# A page",
      "",
      "Run `acquis serve --mcp` or `acquis frobnicate eu`.",
      "",
      "```sh",
      "npx acquis coverage --profile de-large-bank --no-such-flag",
      "curl -s localhost:8787/nowhere -d '{}'",
      "curl -s http://127.0.0.1:8080/v1/answer \\",
      '  -d \'{"query": "x"}\'',
      "npm run no-such-script",
      "npx acquis diff eu@1999.1.1",
      'node --test --test-name-pattern "x" test/no-such.test.ts',
      "```",
      "",
      "`GET /v1/answer` is refused, `POST /v1/answer` answers; `GET` and `DELETE /v1/unit` do not exist.",
      "",
      "```text",
      "acquis quoted-output --is-not-read",
      "```",
    ].join("\n");
    const problems = await stale([{ file: "docs/serving.md", text: page }]);
    const at = (line: number, what: string) =>
      assert.ok(
        problems.some((p) => p.startsWith(`docs/serving.md:${line}: `) && p.includes(what)),
        `line ${line}: ${what}\n${problems.join("\n")}`,
      );
    at(3, "acquis frobnicate: no such command");
    at(6, "acquis coverage --no-such-flag: no such option");
    at(7, "POST /nowhere: no such route in the feed service");
    at(10, "npm run no-such-script");
    at(11, "eu@1999.1.1: no such release in regimes/eu/releases.yaml");
    at(12, "node test/no-such.test.ts: no such file");
    at(15, "GET /v1/answer: no such route in the serving API");
    at(15, "DELETE /v1/unit");
    at(15, "GET /v1/unit");
    assert.equal(problems.length, 9, problems.join("\n"));
  });
});
