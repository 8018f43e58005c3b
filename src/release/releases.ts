/**
 * `regimes/<regime>/releases.yaml`: the committed record of which canon commit each tag was built
 * from, in release order, so any tag can be rebuilt byte for byte and each release names its
 * predecessor.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { REGIME_NAME, TAG_NAME } from "./meta.ts";

export interface ReleaseRecord {
  tag: string;
  commit: string;
}

export const TAG = TAG_NAME;

/** Every path under regimes/ is made here, from names that match the strict patterns or not at all. */
export function regimeDir(root: string, regime: string): string {
  if (!REGIME_NAME.test(regime)) throw new Error(`regime ${JSON.stringify(regime)} is not a regime name`);
  return join(root, "regimes", regime);
}

export function releaseDir(root: string, regime: string, tag: string): string {
  if (!TAG_NAME.test(tag)) throw new Error(`tag ${JSON.stringify(tag)} is not a release tag`);
  return join(regimeDir(root, regime), "releases", tag);
}

export function readReleases(root: string, regime: string): ReleaseRecord[] {
  const file = join(regimeDir(root, regime), "releases.yaml");
  if (!existsSync(file)) return [];
  const doc = parse(readFileSync(file, "utf8")) as { releases?: ReleaseRecord[] } | null;
  const list = doc?.releases ?? [];
  for (const r of list) {
    if (
      typeof r?.tag !== "string" ||
      !TAG.test(r.tag) ||
      typeof r.commit !== "string" ||
      !/^[0-9a-f]{40}$/u.test(r.commit)
    ) {
      throw new Error(
        `${file}: each release needs a tag (${TAG.source}) and a 40-hex commit; found ${JSON.stringify(r)}`,
      );
    }
  }
  return list;
}

export function writeReleases(root: string, regime: string, list: ReleaseRecord[]): void {
  const file = join(regimeDir(root, regime), "releases.yaml");
  const header =
    "# Tag -> canon commit, oldest first. `acquis build` appends; commit this file with the canon.\n";
  writeFileSync(file, header + stringify({ releases: list.map((r) => ({ tag: r.tag, commit: r.commit })) }));
}

/** The newest release of a regime that is built in the checkout, if any. */
export function newestBuilt(root: string, regime: string): ReleaseRecord | null {
  const list = readReleases(root, regime);
  for (let i = list.length - 1; i >= 0; i--) {
    const r = list[i] as ReleaseRecord;
    if (existsSync(join(releaseDir(root, regime, r.tag), "release-meta.yaml"))) return r;
  }
  return null;
}
