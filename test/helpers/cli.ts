/** Runs the real `acquis` command as a child process, as a user would. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

export const BIN = join(import.meta.dirname, "..", "..", "bin", "acquis");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function acquis(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    encoding: "utf8",
    env: { ...process.env, ...opts.env },
    // A guard against a hang, not a speed test: building the eu release takes a minute on two cores.
    timeout: opts.timeoutMs ?? 120_000,
    maxBuffer: 256 << 20,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
