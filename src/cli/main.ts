/**
 * The `acquis` command line. Each command lives in its own module and only parses options, calls the
 * library and prints; every failure ends as one line on stderr and a non-zero exit.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command, CommanderError } from "commander";
import { registerAtoms } from "./atoms.ts";
import { registerBuild } from "./build.ts";
import { registerCoverage } from "./coverage.ts";
import { registerDiff } from "./diff.ts";
import { registerFeed } from "./feed.ts";
import { fail } from "./output.ts";
import { registerPull } from "./pull.ts";
import { registerServe } from "./serve.ts";
import { registerTrust } from "./trust.ts";

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

registerBuild(program);
registerAtoms(program);
registerCoverage(program);
registerDiff(program);
registerFeed(program);
registerServe(program);
registerTrust(program);
registerPull(program);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) process.exit(e.exitCode);
  fail(e);
}
