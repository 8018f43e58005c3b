/**
 * Booting a release for serving, shared by the REST and MCP transports: pick the release directory,
 * verify and load it, and build the engine with its verification and disclaimer stamps.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createEngine, type Engine } from "../engine/context.ts";
import { parseInstruments, ScopeReader } from "../engine/scope.ts";
import { newestBuilt, releaseDir } from "../release/releases.ts";
import { type TrustOptions, verifyRelease } from "../trust/verify.ts";

export interface ReleaseChoice {
  release?: string;
  path?: string;
  root: string;
}

/** `--path` wins, then `--release <regime>@<tag>`, then the newest built release in the checkout. */
export function releaseDirectory(c: ReleaseChoice): string {
  if (c.path) {
    const dir = resolve(c.path);
    if (!existsSync(join(dir, "release-meta.yaml")))
      throw new Error(`--path ${c.path}: no release-meta.yaml there`);
    return dir;
  }
  if (c.release) {
    const m = /^([a-z0-9_-]+)@([A-Za-z0-9._-]+)$/u.exec(c.release);
    if (!m) throw new Error(`--release "${c.release}" is not of the form <regime>@<tag>`);
    const dir = releaseDir(c.root, m[1] as string, m[2] as string);
    if (!existsSync(join(dir, "release-meta.yaml")))
      throw new Error(
        `--release ${c.release}: not built in ${c.root}; run \`acquis build ${m[1]} --tag ${m[2]}\``,
      );
    return dir;
  }
  const regimes = existsSync(join(c.root, "regimes")) ? readdirSync(join(c.root, "regimes")).sort() : [];
  for (const regime of ["eu", ...regimes.filter((r) => r !== "eu")]) {
    const newest = newestBuilt(c.root, regime);
    if (newest) return releaseDir(c.root, regime, newest.tag);
  }
  throw new Error(`no release is built in ${c.root}; run \`acquis build eu\``);
}

export function bootEngine(opts: { dir: string; root: string; trust: TrustOptions; disclaimer: string }): {
  engine: Engine;
  scope: ScopeReader;
} {
  const { release, verification } = verifyRelease(opts.dir, opts.trust);
  const engine = createEngine(release, {
    verification: { ...verification },
    disclaimer: { release: `${release.meta.regime}@${release.meta.tag}`, text: opts.disclaimer },
  });
  const instruments = join(opts.root, "config", "foreign-instruments.yaml");
  const scope = new ScopeReader(
    release.acts,
    existsSync(instruments) ? parseInstruments(readFileSync(instruments, "utf8")) : [],
  );
  return { engine, scope };
}

/** The disclaimer every response carries: `<root>/config/disclaimer.txt`, read at startup. */
export function readDisclaimer(root: string): string {
  const file = join(root, "config", "disclaimer.txt");
  return existsSync(file)
    ? readFileSync(file, "utf8").trim()
    : "Informational only; not legal advice. Only the Official Journal of the European Union is authentic.";
}
