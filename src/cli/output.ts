/** Shared terminal output: progress on stderr, and the one-line failure every command ends with. */

/** Progress for work that takes more than a second: rewritten in place on a terminal, step lines otherwise. */
export function progress(): (message: string) => void {
  const tty = process.stderr.isTTY;
  return (message) => {
    if (tty) process.stderr.write(`\r\x1b[K${message}`);
    else if (!/^parsing \d/u.test(message)) process.stderr.write(`${message}\n`);
  };
}

export function endProgress(): void {
  if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");
}

export function fail(e: unknown): never {
  endProgress();
  const message = e instanceof Error ? e.message : String(e);
  process.stderr.write(`acquis: ${message.split("\n")[0]}\n`);
  // A failure that lists what to fix (every defect over a baseline) carries the list as `detail`.
  const detail = (e as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string") process.stderr.write(`${detail}\n`);
  if (process.env.ACQUIS_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  process.exit(1);
}

export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) {
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  }
  return rows
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] as number))).join("  "))
    .join("\n");
}
