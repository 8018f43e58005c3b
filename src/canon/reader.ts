/**
 * Where canon files are read from: one commit (a build, so a release is a function of that commit) or
 * the working tree (`acquis atoms sync`, before the commit exists). Paths are relative to the root.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { existsAtCommit, listAtCommit, readAtCommit } from "./git.ts";

export interface Reader {
  /** The file's text, or null when it does not exist. */
  read(path: string): string | null;
  /** File names directly under `dir`, sorted; empty when the folder does not exist. */
  list(dir: string): string[];
}

export function atCommit(root: string, commit: string): Reader {
  return {
    read: (p) => (existsAtCommit(root, commit, p) ? readAtCommit(root, commit, p) : null),
    list: (d) => listAtCommit(root, commit, d),
  };
}

export function inWorkingTree(root: string): Reader {
  return {
    read: (p) => (existsSync(join(root, p)) ? readFileSync(join(root, p), "utf8") : null),
    list: (d) => (existsSync(join(root, d)) ? readdirSync(join(root, d)).sort() : []),
  };
}
