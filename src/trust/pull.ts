/**
 * `acquis pull`: install a release into the checkout after full verification, from a release
 * directory, a `.tar.gz` of one, or an http(s) URL serving such an archive. The source is hostile until
 * verified (docs/security.md):
 *   - a download streams to disk under a byte cap, never into memory, and never follows a redirect;
 *   - an archive may hold only plain files and folders (no links, no `..`, no absolute names), under
 *     the same cap;
 *   - only the files the manifest declares (plus its signature bundles) are taken, each no larger
 *     than declared, and every name in the manifest matches a strict pattern before it becomes a path;
 *   - the release must be signed: a release from elsewhere is never a "build of the local checkout".
 * Everything happens in a temporary folder; the release is renamed into place only once verified, so a
 * failure installs nothing and leaves no partial directory.
 */
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { extract } from "tar";
import { META_FILE, MetaError, parseMeta } from "../release/meta.ts";
import { releaseDir } from "../release/releases.ts";
import { META_BUNDLE, PROVENANCE_BUNDLE } from "./sign.ts";
import { type ReleaseVerification, type TrustOptions, verifyRelease } from "./verify.ts";

export class PullError extends Error {}

/** Default cap on what a pull may download or unpack: the eu release is about 70 MB. */
export const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024;

export interface PullOptions {
  /** Cap on the bytes downloaded and on the bytes an archive unpacks to. */
  maxBytes?: number;
}

/** The folder in `root` (or one level below) that holds release-meta.yaml. */
function findRelease(root: string): string {
  if (existsSync(join(root, META_FILE))) return root;
  for (const d of readdirSync(root)) {
    const candidate = join(root, d);
    if (lstatSync(candidate).isDirectory() && existsSync(join(candidate, META_FILE))) return candidate;
  }
  throw new PullError(`no ${META_FILE} in the source`);
}

/** Counts bytes through a stream and fails it past `max`. */
function byteCap(max: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) done(new PullError(`${what} is larger than the cap of ${max} bytes (--max-bytes)`));
      else done(null, chunk);
    },
  });
}

async function fetchArchive(url: string, into: string, max: number): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(120_000) });
  } catch (e) {
    throw new PullError(`${url}: ${(e as Error).message}`);
  }
  if (res.status >= 300 && res.status < 400)
    throw new PullError(`${url}: HTTP ${res.status} redirect refused; give the final URL`);
  if (!res.ok || !res.body) throw new PullError(`${url}: HTTP ${res.status}`);
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > max) {
    await res.body.cancel();
    throw new PullError(`${url}: ${declared} bytes is larger than the cap of ${max} bytes (--max-bytes)`);
  }
  const file = join(into, "release.tar.gz");
  await pipeline(
    Readable.fromWeb(res.body as import("node:stream/web").ReadableStream),
    byteCap(max, url),
    createWriteStream(file),
  );
  return file;
}

async function unpack(archive: string, into: string, max: number, source: string): Promise<void> {
  let total = 0;
  let refused: string | null = null;
  try {
    await extract({
      file: archive,
      cwd: into,
      strict: true,
      preservePaths: false,
      filter: (path, entry) => {
        const type = "type" in entry ? entry.type : "File";
        total += "size" in entry && typeof entry.size === "number" ? entry.size : 0;
        if (type !== "File" && type !== "OldFile" && type !== "Directory")
          refused ??= `${path}: a ${type} entry (only plain files and folders are accepted)`;
        else if (path.startsWith("/") || path.split("/").includes(".."))
          refused ??= `${path}: a name outside the archive`;
        else if (total > max) refused ??= `unpacks to more than the cap of ${max} bytes (--max-bytes)`;
        return refused === null;
      },
    });
  } catch (e) {
    throw new PullError(`${source}: not a readable .tar.gz (${(e as Error).message})`);
  }
  if (refused) throw new PullError(`${source}: refused: ${refused}`);
}

/**
 * Copies into `staged` only what the manifest declares, each a regular file no larger than declared
 * (the signature bundles, which the manifest cannot declare, under a small cap).
 */
function stageDeclared(from: string, staged: string): void {
  let metaText: string;
  try {
    if (!lstatSync(join(from, META_FILE)).isFile()) throw new Error("not a file");
    metaText = readFileSync(join(from, META_FILE), "utf8");
  } catch {
    throw new PullError(`${META_FILE} in the source is not a regular file`);
  }
  let meta: ReturnType<typeof parseMeta>;
  try {
    meta = parseMeta(metaText);
  } catch (e) {
    if (e instanceof MetaError) throw new PullError(`refused: ${e.message}`);
    throw e;
  }
  mkdirSync(staged);
  const take = (name: string, cap: number, required: boolean) => {
    const file = join(from, name);
    if (!existsSync(file)) {
      if (required) throw new PullError(`${name}, declared in ${META_FILE}, is missing from the source`);
      return;
    }
    const st = lstatSync(file);
    if (!st.isFile()) throw new PullError(`${name} in the source is not a regular file`);
    if (st.size > cap) throw new PullError(`${name} is ${st.size} bytes, more than ${cap} declared`);
    copyFileSync(file, join(staged, name));
  };
  take(META_FILE, 1024 * 1024, true);
  for (const a of meta.artifacts) take(a.name, a.size, true);
  for (const b of [META_BUNDLE, PROVENANCE_BUNDLE]) take(b, 4 * 1024 * 1024, false);
}

export async function pull(
  source: string,
  checkout: string,
  trust: TrustOptions,
  opts: PullOptions = {},
): Promise<{
  regime: string;
  tag: string;
  dir: string;
  verification: ReleaseVerification;
  installed: boolean;
}> {
  const max = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const work = mkdtempSync(join(tmpdir(), "acquis-pull-"));
  try {
    let from: string;
    if (/^https?:\/\//u.test(source) || /\.(tar\.gz|tgz)$/u.test(source)) {
      const archive = /^https?:\/\//u.test(source) ? await fetchArchive(source, work, max) : source;
      if (!/^https?:\/\//u.test(source) && statSync(archive, { throwIfNoEntry: false })?.isFile() !== true)
        throw new PullError(`${source}: no such archive`);
      const into = join(work, "extracted");
      mkdirSync(into);
      await unpack(archive, into, max, source);
      from = findRelease(into);
    } else {
      if (!existsSync(source) || !statSync(source).isDirectory())
        throw new PullError(`${source}: no such directory, archive or URL`);
      from = findRelease(source);
    }
    const staged = join(work, "staged");
    stageDeclared(from, staged);
    const meta = parseMeta(readFileSync(join(staged, META_FILE), "utf8"));
    const target = releaseDir(checkout, meta.regime, meta.tag);
    const { verification } = verifyRelease(staged, {
      ...trust,
      predecessors: join(target, ".."),
      requireSignature: true,
    });
    if (existsSync(join(target, META_FILE))) {
      if (readFileSync(join(target, META_FILE)).equals(readFileSync(join(staged, META_FILE)))) {
        return { regime: meta.regime, tag: meta.tag, dir: target, verification, installed: false };
      }
      throw new PullError(
        `${meta.regime}@${meta.tag} is already installed with a different release-meta.yaml; remove ${target} first`,
      );
    }
    mkdirSync(join(target, ".."), { recursive: true });
    // Copy beside the target, then one rename: a reader sees no release or the whole release.
    const landing = `${target}.pulling-${process.pid}`;
    try {
      mkdirSync(landing);
      for (const f of readdirSync(staged)) copyFileSync(join(staged, f), join(landing, f));
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
