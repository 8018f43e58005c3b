/**
 * What is checked before a release is served. Until releases are signed (issue [5/7]) a release is
 * verified as a build of the local checkout: `digests` (every artifact against release-meta.yaml) and
 * `provenance` (its statement's subjects are the artifacts, it names the canon commit of
 * release-meta.yaml, and the checkout's history holds that commit). The failing check is named.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { historyHolds } from "../release/git.ts";
import { type LoadedRelease, loadRelease, ReleaseIntegrityError } from "../release/load.ts";

export interface Verification {
  status: "verified" | "skipped";
  mode: "local-build" | "unverified";
  checks: string[];
}

export class VerificationError extends Error {
  readonly check: string;
  constructor(check: string, message: string) {
    super(`verification failed: ${check}: ${message}`);
    this.check = check;
  }
}

interface Statement {
  subject?: { name: string; digest: { sha256: string } }[];
  predicate?: {
    buildDefinition?: { resolvedDependencies?: { name: string; digest: Record<string, string> }[] };
  };
}

export function verifyAndLoad(
  dir: string,
  root: string,
  skip: boolean,
): { release: LoadedRelease; verification: Verification } {
  if (skip)
    return {
      release: loadRelease(dir, { checkDigests: false }),
      verification: { status: "skipped", mode: "unverified", checks: [] },
    };
  let release: LoadedRelease;
  try {
    release = loadRelease(dir);
  } catch (e) {
    if (e instanceof ReleaseIntegrityError) throw new VerificationError("digests", e.message);
    throw e;
  }
  let statement: Statement;
  try {
    statement = JSON.parse(readFileSync(join(dir, "provenance.json"), "utf8")) as Statement;
  } catch {
    throw new VerificationError("provenance", "provenance.json is missing or not JSON");
  }
  const declared = new Map(
    release.meta.artifacts.filter((a) => a.name !== "provenance.json").map((a) => [a.name, a.sha256]),
  );
  const subjects = new Map((statement.subject ?? []).map((s) => [s.name, s.digest.sha256]));
  for (const [name, sha] of declared) {
    if (subjects.get(name) !== sha)
      throw new VerificationError(
        "provenance",
        `the statement's subject ${name} does not match release-meta.yaml`,
      );
  }
  if (subjects.size !== declared.size)
    throw new VerificationError(
      "provenance",
      "the statement names artifacts release-meta.yaml does not declare",
    );
  const canon = statement.predicate?.buildDefinition?.resolvedDependencies?.find((d) => d.name === "canon");
  if (canon?.digest.gitCommit !== release.meta.commit) {
    throw new VerificationError(
      "provenance",
      `the statement's canon commit differs from release-meta.yaml's ${release.meta.commit}`,
    );
  }
  if (!historyHolds(root, release.meta.commit)) {
    throw new VerificationError(
      "provenance",
      `unsigned release built from commit ${release.meta.commit}, which the checkout at ${root} does not hold; only a signed release is served from elsewhere`,
    );
  }
  return {
    release,
    verification: { status: "verified", mode: "local-build", checks: ["digests", "provenance"] },
  };
}
