/**
 * The canon is read from git objects, never from the working tree, so a release is a function of a
 * commit: rebuilding a tag reads exactly the bytes that commit holds.
 */
import { execFileSync } from "node:child_process";

export class GitError extends Error {}

function git(root: string, args: string[]): string {
  try {
    return execFileSync("git", args, {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 << 20,
    });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    const detail = (err.stderr ?? err.message).trim().split("\n")[0];
    throw new GitError(`git ${args.join(" ")} failed in ${root}: ${detail}`);
  }
}

export function headCommit(root: string): string {
  return git(root, ["rev-parse", "--verify", "HEAD^{commit}"]).trim();
}

/** The committer date of a commit, in UTC, as RFC 3339 ("2026-11-22T04:13:09Z"). */
export function committerDate(root: string, commit: string): string {
  const seconds = Number(git(root, ["show", "-s", "--format=%ct", commit]).trim());
  return new Date(seconds * 1000).toISOString().replace(/\.000Z$/u, "Z");
}

export function readAtCommit(root: string, commit: string, path: string): string {
  return git(root, ["show", `${commit}:${path}`]);
}

export function existsAtCommit(root: string, commit: string, path: string): boolean {
  try {
    git(root, ["cat-file", "-e", `${commit}:${path}`]);
    return true;
  } catch {
    return false;
  }
}

/** Whether the checkout's history holds this commit (it is HEAD or an ancestor of HEAD). */
export function historyHolds(root: string, commit: string): boolean {
  if (!/^[0-9a-f]{40}$/u.test(commit)) return false;
  try {
    execFileSync("git", ["merge-base", "--is-ancestor", commit, "HEAD"], { cwd: root, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Paths under `dir` whose working-tree state differs from HEAD. */
export function uncommitted(root: string, dir: string): string[] {
  return git(root, ["status", "--porcelain", "--", dir])
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => l.slice(3));
}

/** File names directly under `dir` at a commit (empty when the folder does not exist there). */
export function listAtCommit(root: string, commit: string, dir: string): string[] {
  if (!existsAtCommit(root, commit, dir)) return [];
  return git(root, ["ls-tree", "--name-only", `${commit}:${dir}`])
    .split("\n")
    .filter((l) => l !== "")
    .sort();
}
