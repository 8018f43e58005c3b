/**
 * How `npm test` runs the tests (docs/architecture.md, "Tests and coverage").
 *
 * A unit test is `test/<layer>/<module>.test.ts` for a module `src/<layer>/<module>.ts` (or
 * `src/engine/query/<module>.ts`) of the layers canon, obligations, search, trust and engine: pure inputs
 * to outputs, no release, server or git. Every other `test/**\/*.test.ts` is a process-level suite.
 *
 *   node test/run.ts unit     the unit tests under Node's built-in coverage, then line and branch
 *                             coverage of src/ per module of those layers, per other layer, in total
 *   node test/run.ts suites   the process-level suites, two files at a time
 *   node test/run.ts list     which test files are which, and the modules without a unit test
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { run } from "node:test";

const ROOT = join(import.meta.dirname, "..");
const SRC = join(ROOT, "src");
export const UNIT_LAYERS = ["canon", "obligations", "search", "trust", "engine"];

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir)
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p, suffix) : p.endsWith(suffix) ? [p] : [];
    })
    .sort();
}

/** The modules of a layer by their unit test's name: src/engine/query/match.ts is engine's "match". */
function modules(layer: string): Map<string, string> {
  return new Map(files(join(SRC, layer), ".ts").map((f) => [basename(f, ".ts"), f]));
}

export function classify(): { unit: string[]; suites: string[]; untested: string[] } {
  const unit: string[] = [];
  const suites: string[] = [];
  for (const f of files(join(ROOT, "test"), ".test.ts")) {
    const [layer, name, extra] = relative(join(ROOT, "test"), f).split("/");
    const isUnit = extra === undefined && UNIT_LAYERS.includes(layer as string) && name !== undefined;
    (isUnit && modules(layer as string).has(basename(name, ".test.ts")) ? unit : suites).push(f);
  }
  const tested = new Set(unit.map((f) => relative(join(ROOT, "test"), f).replace(/\.test\.ts$/u, "")));
  const untested = UNIT_LAYERS.flatMap((layer) =>
    [...modules(layer)].filter(([name]) => !tested.has(`${layer}/${name}`)).map(([, f]) => relative(SRC, f)),
  );
  return { unit, suites, untested };
}

/** Whether a module has code that runs (a module of types alone is never loaded, and has none). */
function hasCode(file: string): boolean {
  const js = stripTypeScriptTypes(readFileSync(file, "utf8"))
    .replace(/\/\*[\s\S]*?\*\//gu, "")
    .replace(/\/\/.*$/gmu, "")
    .replace(/\bimport\b[^;]*?\bfrom\s*"[^"]*";?|\bexport\s*\{\s*\}\s*;?/gu, "");
  return js.trim() !== "";
}

interface Counts {
  lines: [number, number];
  branches: [number, number];
}

const pct = ([covered, total]: [number, number]) =>
  total === 0 ? "     —" : `${((100 * covered) / total).toFixed(1).padStart(5)} %`;
const row = (name: string, c: Counts) =>
  `${name.padEnd(34)} ${pct(c.lines)} ${`${c.lines[0]}/${c.lines[1]}`.padStart(11)}   ${pct(c.branches)} ${`${c.branches[0]}/${c.branches[1]}`.padStart(9)}`;
const add = (rows: Counts[]) =>
  rows.reduce(
    (s, r) => ({
      lines: [s.lines[0] + r.lines[0], s.lines[1] + r.lines[1]] as [number, number],
      branches: [s.branches[0] + r.branches[0], s.branches[1] + r.branches[1]] as [number, number],
    }),
    { lines: [0, 0] as [number, number], branches: [0, 0] as [number, number] },
  );

type CoverageFile = {
  path: string;
  totalLineCount: number;
  coveredLineCount: number;
  totalBranchCount: number;
  coveredBranchCount: number;
};

/** Per module of src/: the coverage Node measured, or 0 % of its lines when no test loaded it. */
function perModule(measured: CoverageFile[]): Map<string, Counts> {
  const byPath = new Map(measured.map((f) => [f.path, f]));
  const out = new Map<string, Counts>();
  for (const file of files(SRC, ".ts")) {
    const m = byPath.get(file);
    const text = readFileSync(file, "utf8");
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (m)
      out.set(relative(SRC, file), {
        lines: [m.coveredLineCount, m.totalLineCount],
        branches: [m.coveredBranchCount, m.totalBranchCount],
      });
    else if (hasCode(file)) out.set(relative(SRC, file), { lines: [0, lines], branches: [0, 0] });
  }
  return out;
}

function report(measured: CoverageFile[], untested: string[]): string {
  const modules = perModule(measured);
  const layerOf = (m: string) => m.split("/")[0] as string;
  const out = [
    "",
    "Coverage of src/ by the unit tests (Node's V8 coverage: lines, and branches where a module was loaded;",
    "a module no unit test loads counts as 0 % of its lines). Process-level suites are not measured here.",
    "",
    `Layers with unit tests: ${UNIT_LAYERS.join(", ")}`,
    `${"module".padEnd(34)} ${"lines".padStart(19)}   ${"branches".padStart(17)}`,
  ];
  for (const [m, c] of modules) if (UNIT_LAYERS.includes(layerOf(m))) out.push(row(m, c));
  const unitRows = [...modules].filter(([m]) => UNIT_LAYERS.includes(layerOf(m))).map(([, c]) => c);
  out.push("", row("total of these layers", add(unitRows)), "");
  out.push("Other layers (their tests are the process-level suites):");
  const others = [...new Set([...modules.keys()].map(layerOf))].filter((l) => !UNIT_LAYERS.includes(l));
  for (const l of others) {
    const rows = [...modules].filter(([m]) => layerOf(m) === l);
    out.push(row(`${l} (${rows.length} module${rows.length === 1 ? "" : "s"})`, add(rows.map(([, c]) => c))));
  }
  out.push("", row("total of src/", add([...modules.values()])));
  if (untested.length > 0)
    out.push("", `Modules of the unit-tested layers without a unit test: ${untested.join(", ")}`);
  return `${out.join("\n")}\n`;
}

/** The data of the test runner's events this reporter reads (node:test's TestsStream). */
interface Event {
  type: string;
  data: {
    name?: string;
    file?: string;
    todo?: string | boolean;
    success?: boolean;
    duration_ms?: number;
    counts?: { tests: number; passed: number; failed: number; todo: number };
    details?: { type?: string; error?: Error & { cause?: unknown } };
    summary?: { files: CoverageFile[] };
    message?: string;
  };
}

/**
 * A line per test file, then each failure with its message, the todo tests (known bugs, named with
 * their reason), and the coverage report. Returns whether every test passed.
 */
async function unitTests(): Promise<boolean> {
  const { unit, untested } = classify();
  const stream = run({
    files: unit,
    concurrency: 2,
    coverage: true,
    coverageIncludeGlobs: ["src/**"],
    cwd: ROOT,
  });
  const rel = (f: string | undefined) => (f ? relative(ROOT, f) : "");
  const failures: string[] = [];
  const todos: string[] = [];
  let measured: CoverageFile[] | null = null;
  let success = false;
  for await (const { type, data } of stream as AsyncIterable<Event>) {
    if (type === "test:fail" && data.details?.type !== "suite") {
      if (data.todo)
        todos.push(
          `  ${rel(data.file)}: ${data.name}${typeof data.todo === "string" ? ` (${data.todo})` : ""}`,
        );
      else {
        const e = data.details?.error;
        const cause = (e?.cause instanceof Error ? e.cause : e) as Error | undefined;
        failures.push(
          `✖ ${rel(data.file)}: ${data.name}\n    ${String(cause?.message ?? cause).replace(/\n/gu, "\n    ")}`,
        );
      }
    } else if (type === "test:summary" && data.counts) {
      const c = data.counts;
      if (data.file)
        process.stdout.write(
          `${data.success ? "✔" : "✖"} ${rel(data.file)} (${c.passed}/${c.tests - c.todo}${c.todo ? `, ${c.todo} todo` : ""}; ${((data.duration_ms ?? 0) / 1000).toFixed(1)} s)\n`,
        );
      else {
        success = data.success === true;
        process.stdout.write(
          `\nunit tests: ${c.passed} passed, ${c.failed} failed, ${c.todo} todo, in ${unit.length} files\n`,
        );
      }
    } else if (type === "test:coverage" && data.summary) measured = data.summary.files;
    else if (type === "test:stderr" && data.message) process.stderr.write(data.message);
  }
  if (failures.length > 0) process.stdout.write(`\n${failures.join("\n")}\n`);
  if (todos.length > 0)
    process.stdout.write(`\ntodo (known bugs the tests record, not failures):\n${todos.join("\n")}\n`);
  if (measured) process.stdout.write(report(measured, untested));
  return success && measured !== null;
}

/**
 * The temporary directory of one run: every test, and every process a test starts, makes its temporary
 * files under it (TMPDIR), and it is removed when the run ends, passed or failed. Copies of the release
 * that tests left behind had filled the disk.
 */
function runTmp(): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "acquis-test-run-"));
  // As /tmp is: the PostgreSQL tests run initdb as the postgres user, under this directory.
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const mode = process.argv[2];
if (mode === "unit") {
  const tmp = runTmp();
  try {
    process.exitCode = (await unitTests()) ? 0 : 1;
  } finally {
    tmp.done();
  }
} else if (mode === "suites") {
  const tmp = runTmp();
  try {
    const r = spawnSync(process.execPath, ["--test", "--test-concurrency=2", ...classify().suites], {
      cwd: ROOT,
      stdio: "inherit",
    });
    process.exitCode = r.status ?? 1;
  } finally {
    tmp.done();
  }
} else if (mode === "list") {
  const { unit, suites, untested } = classify();
  const rel = (f: string) => relative(ROOT, f);
  process.stdout.write(
    `unit tests (${unit.length}):\n  ${unit.map(rel).join("\n  ")}\nprocess-level suites (${suites.length}):\n  ${suites.map(rel).join("\n  ")}\nmodules without a unit test: ${untested.join(", ") || "none"}\n`,
  );
} else {
  process.stderr.write("usage: node test/run.ts unit|suites|list\n");
  process.exitCode = 2;
}
