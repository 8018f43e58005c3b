/**
 * A throwaway git checkout holding the fictional fixture regime, so tests drive `acquis build` exactly
 * as a user does: canon committed, releases built from commits. Commit dates are fixed, so two repos
 * made the same way produce the same commits.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { acquis } from "./cli.ts";

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "regime");
export const FIXTURE_SOURCES = join(FIXTURE, "sources");

export interface FixtureRepo {
  root: string;
  /**
   * Commit canon revision `rev` (1 or 2) of the fixture regime, with its obligations canon and an atom
   * ledger brought up to date by `acquis atoms sync` (unless `sync` is false); returns the commit id.
   */
  commitRevision(rev: 1 | 2, opts?: { sync?: boolean }): string;
  git(...args: string[]): string;
}

export function fixtureRepo(): FixtureRepo {
  const root = mkdtempSync(join(tmpdir(), "acquis-fixture-"));
  let tick = 0;
  const git = (...args: string[]) => {
    const when = `2026-01-0${Math.min(9, tick + 1)}T12:00:00Z`;
    return execFileSync("git", args, {
      cwd: root,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "Fixture",
        GIT_AUTHOR_EMAIL: "fixture@example.invalid",
        GIT_COMMITTER_NAME: "Fixture",
        GIT_COMMITTER_EMAIL: "fixture@example.invalid",
        GIT_AUTHOR_DATE: when,
        GIT_COMMITTER_DATE: when,
      },
    });
  };
  git("init", "-q", "-b", "main");
  mkdirSync(join(root, "regimes", "fixture"), { recursive: true });
  writeFileSync(join(root, ".gitignore"), "regimes/*/releases/*/\n");
  return {
    root,
    git,
    commitRevision(rev, opts = {}) {
      const dir = join(root, "regimes", "fixture");
      copyFileSync(join(FIXTURE, "canon", `rev${rev}.yaml`), join(dir, "regime.yaml"));
      cpSync(join(FIXTURE, "canon", "obligations"), dir, { recursive: true });
      if (opts.sync !== false) {
        const r = acquis(["atoms", "sync", "fixture", "--root", root, "--sources", FIXTURE_SOURCES]);
        if (r.status !== 0) throw new Error(`atoms sync failed: ${r.stderr}`);
      }
      git("add", "-A");
      git("commit", "-q", "-m", `fixture canon revision ${rev}`);
      tick++;
      return git("rev-parse", "HEAD").trim();
    },
  };
}

/** A fixture checkout with both canon revisions committed and built as t1 and t2. */
export function fixtureWithReleases(): FixtureRepo {
  const repo = fixtureRepo();
  for (const [rev, tag] of [
    [1, "t1"],
    [2, "t2"],
  ] as const) {
    repo.commitRevision(rev);
    const r = acquis(["build", "fixture", "--root", repo.root, "--sources", FIXTURE_SOURCES, "--tag", tag]);
    if (r.status !== 0) throw new Error(`building ${tag} failed: ${r.stderr}`);
  }
  return repo;
}
