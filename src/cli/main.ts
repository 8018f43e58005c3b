/**
 * The `acquis` command line. Each command lives in its own module and only parses options, calls the
 * library and prints; every failure ends as one line on stderr and a non-zero exit.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command, CommanderError } from "commander";
import { fail } from "./output.ts";

type Register = (program: Command) => void;

/**
 * Each command's module, in the order `acquis --help` lists them, with the commands it registers. Only
 * the module of the command being run is loaded: `acquis serve` does not load the compiler, the feed's
 * stores or the atom extractor, which took half of its start-up (docs/benchmarks.md).
 */
const MODULES: { commands: string[]; load: () => Promise<Register> }[] = [
  { commands: ["build"], load: async () => (await import("./build.ts")).registerBuild },
  { commands: ["atoms"], load: async () => (await import("./atoms.ts")).registerAtoms },
  { commands: ["coverage"], load: async () => (await import("./coverage.ts")).registerCoverage },
  { commands: ["diff", "impact"], load: async () => (await import("./diff.ts")).registerDiff },
  { commands: ["feed"], load: async () => (await import("./feed.ts")).registerFeed },
  { commands: ["serve"], load: async () => (await import("./serve.ts")).registerServe },
  { commands: ["keygen", "sign"], load: async () => (await import("./trust.ts")).registerTrust },
  { commands: ["pull", "verify"], load: async () => (await import("./pull.ts")).registerPull },
];

const PACKAGE = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
  version: string;
};

const program = new Command("acquis")
  .description("Compile regulation text into signed, point-in-time releases, and serve them with citations.")
  // The package's version; the serving API's own version (0.1.0) is in /openapi.json.
  .version(PACKAGE.version, "-V, --version", "print the acquis version")
  .showSuggestionAfterError(true)
  .exitOverride()
  .configureOutput({
    outputError: (str, write) => write(`acquis: ${str.replace(/^error: /u, "").trimEnd()}\n`),
  });

// A reader that stops early (`acquis coverage … | head`) closes the pipe: that is the reader's choice,
// not a failure, so the command ends quietly instead of with an EPIPE stack.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

// `--help`, a typo (whose suggestion needs every name) or no command: all of them.
const named = MODULES.filter((m) => m.commands.includes(process.argv[2] ?? ""));
for (const m of named.length > 0 ? named : MODULES) (await m.load())(program);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) process.exit(e.exitCode);
  fail(e);
}
