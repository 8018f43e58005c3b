/**
 * Reading the canon from git objects (src/canon/git.ts), on a small repository made here: what a commit
 * holds, not what the working tree says; a commit's date in UTC; whether the history holds a commit;
 * what is uncommitted; and the error that names the failing git command.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import {
  committerDate,
  existsAtCommit,
  GitError,
  headCommit,
  historyHolds,
  listAtCommit,
  readAtCommit,
  uncommitted,
} from "../../src/canon/git.ts";

const root = mkdtempSync(join(tmpdir(), "acquis-git-"));
after(() => rmSync(root, { recursive: true, force: true }));
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: root,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.org",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.org",
      GIT_COMMITTER_DATE: "2026-11-22T04:13:09+02:00",
      GIT_AUTHOR_DATE: "2026-11-22T04:13:09+02:00",
    },
  }).trim();

git("init", "-q", "-b", "main");
mkdirSync(join(root, "regimes", "x", "acts"), { recursive: true });
writeFileSync(join(root, "regimes", "x", "regime.yaml"), "regime: x\n");
writeFileSync(join(root, "regimes", "x", "acts", "b.yaml"), "id: b\n");
writeFileSync(join(root, "regimes", "x", "acts", "a.yaml"), "id: a\n");
git("add", "-A");
git("commit", "-q", "-m", "first");
const first = git("rev-parse", "HEAD");

describe("the canon as a commit holds it", () => {
  test("HEAD, and a commit's date in UTC", () => {
    assert.equal(headCommit(root), first);
    assert.equal(committerDate(root, first), "2026-11-22T02:13:09Z");
  });

  test("a file as the commit holds it, not as the working tree has it since", () => {
    writeFileSync(join(root, "regimes", "x", "regime.yaml"), "regime: edited\n");
    assert.equal(readAtCommit(root, first, "regimes/x/regime.yaml"), "regime: x\n");
    assert.deepEqual(uncommitted(root, "regimes/x"), ["regimes/x/regime.yaml"]);
    assert.deepEqual(uncommitted(root, "regimes/y"), []);
  });

  test("what a commit holds: files and folders, listed in name order", () => {
    assert.equal(existsAtCommit(root, first, "regimes/x/acts/a.yaml"), true);
    assert.equal(existsAtCommit(root, first, "regimes/x/acts/c.yaml"), false);
    assert.deepEqual(listAtCommit(root, first, "regimes/x/acts"), ["a.yaml", "b.yaml"]);
    assert.deepEqual(listAtCommit(root, first, "regimes/nowhere"), []);
  });

  test("the history holds HEAD and its ancestors, not other commits or what is not a commit id", () => {
    git("commit", "-q", "-am", "second");
    assert.equal(historyHolds(root, first), true);
    assert.equal(historyHolds(root, git("rev-parse", "HEAD")), true);
    assert.equal(historyHolds(root, "0".repeat(40)), false);
    assert.equal(historyHolds(root, "HEAD"), false, "a name is not a commit id");
  });

  test("a failing git command is a GitError naming the command, the folder and git's first line", () => {
    assert.throws(
      () => readAtCommit(root, first, "regimes/x/missing.yaml"),
      (e: Error) =>
        e instanceof GitError &&
        e.message.startsWith(`git show ${first}:regimes/x/missing.yaml failed in ${root}: `) &&
        !e.message.includes("\n"),
    );
  });
});
