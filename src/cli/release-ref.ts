import { existsSync } from "node:fs";
import { join } from "node:path";
import { isCalendarDate } from "../engine/request.ts";
import { type LoadedRelease, loadRelease } from "../release/load.ts";
import { newestBuilt, releaseDir } from "../release/releases.ts";

/** "eu@2026.11.1" -> that release directory; no reference -> the newest built release of `regime`. */
export function openRelease(root: string, ref: string | undefined, regime = "eu"): LoadedRelease {
  if (ref === undefined) {
    const newest = newestBuilt(root, regime);
    if (!newest) throw new Error(`no ${regime} release is built in ${root}; run \`acquis build ${regime}\``);
    return loadRelease(releaseDir(root, regime, newest.tag));
  }
  const m = /^([a-z0-9_-]+)@([A-Za-z0-9._-]+)$/u.exec(ref);
  if (!m) throw new Error(`release "${ref}" is not of the form <regime>@<tag>, e.g. eu@2026.11.1`);
  const dir = releaseDir(root, m[1] as string, m[2] as string);
  if (!existsSync(join(dir, "release-meta.yaml"))) {
    throw new Error(`release ${ref} is not built in ${root}; run \`acquis build ${m[1]} --tag ${m[2]}\``);
  }
  return loadRelease(dir);
}
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export function checkDate(d: string, option: string): string {
  if (!isCalendarDate(d)) {
    throw new Error(`${option} "${d}" is not a date (YYYY-MM-DD)`);
  }
  return d;
}
