/**
 * `acquis pull`: install a release into the checkout after full verification, from a release
 * directory, a `.tar.gz` of one, or an http(s) URL serving such an archive. Everything happens in a
 * temporary folder; the release is renamed into place only once verified, so a failure installs
 * nothing and leaves no partial directory.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { extract } from "tar";
import { META_FILE, parseMeta } from "./meta.ts";
import { releaseDir } from "./releases.ts";
import { type TrustOptions, type Verification, verifyRelease } from "./verify.ts";

export class PullError extends Error {}

/** The folder in `root` (or one level below) that holds release-meta.yaml. */
function findRelease(root: string): string {
  if (existsSync(join(root, META_FILE))) return root;
  for (const d of readdirSync(root)) {
    if (existsSync(join(root, d, META_FILE))) return join(root, d);
  }
  throw new PullError(`no ${META_FILE} in the source`);
}

async function fetchArchive(url: string, into: string): Promise<string> {
  const res = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(120_000) });
  if (!res.ok) throw new PullError(`${url}: HTTP ${res.status}`);
  const file = join(into, "release.tar.gz");
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

export async function pull(
  source: string,
  checkout: string,
  trust: TrustOptions,
): Promise<{ regime: string; tag: string; dir: string; verification: Verification; installed: boolean }> {
  const work = mkdtempSync(join(tmpdir(), "acquis-pull-"));
  try {
    let staged: string;
    if (/^https?:\/\//u.test(source) || /\.(tar\.gz|tgz)$/u.test(source)) {
      const archive = /^https?:\/\//u.test(source) ? await fetchArchive(source, work) : source;
      const into = join(work, "extracted");
      mkdirSync(into);
      try {
        await extract({ file: archive, cwd: into, strict: true });
      } catch (e) {
        throw new PullError(`${source}: not a readable .tar.gz (${(e as Error).message})`);
      }
      staged = findRelease(into);
    } else {
      if (!existsSync(source) || !statSync(source).isDirectory())
        throw new PullError(`${source}: no such directory, archive or URL`);
      staged = join(work, "copy");
      cpSync(findRelease(source), staged, { recursive: true });
    }
    const meta = parseMeta(readFileSync(join(staged, META_FILE), "utf8"));
    const target = releaseDir(checkout, meta.regime, meta.tag);
    const { verification } = verifyRelease(staged, { ...trust, predecessors: join(target, "..") });
    if (existsSync(join(target, META_FILE))) {
      if (readFileSync(join(target, META_FILE)).equals(readFileSync(join(staged, META_FILE)))) {
        return { regime: meta.regime, tag: meta.tag, dir: target, verification, installed: false };
      }
      throw new PullError(
        `${meta.regime}@${meta.tag} is already installed with a different release-meta.yaml; remove ${target} first`,
      );
    }
    mkdirSync(join(target, ".."), { recursive: true });
    const landing = `${target}.pulling-${process.pid}`;
    try {
      cpSync(staged, landing, { recursive: true });
      renameSync(landing, target);
    } catch (e) {
      rmSync(landing, { recursive: true, force: true });
      throw e;
    }
    return { regime: meta.regime, tag: meta.tag, dir: target, verification, installed: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
