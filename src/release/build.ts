/**
 * `acquis build`: compile one tag of a regime into `regimes/<regime>/releases/<tag>/`.
 *
 * A tag is built from the canon commit `releases.yaml` records for it (a new tag records HEAD), with
 * sources checked against the canon's digests. Everything written is a function of that commit and
 * those sources: `built_at` is the commit's committer date, JSON is canonical (RFC 8785), and the
 * release directory appears only once complete.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runChecks } from "../canon/checks.ts";
import { type Compiled, compile, sha256 } from "../canon/compile.ts";
import { committerDate, existsAtCommit, headCommit, readAtCommit, uncommitted } from "../canon/git.ts";
import { buildGraph } from "../canon/graph.ts";
import type { RegimeCanon, Unit } from "../canon/model.ts";
import { countByKind } from "../canon/quality.ts";
import { BASELINE_FILE, BaselineError, excesses, parseBaseline } from "../canon/quality-baseline.ts";
import { atCommit } from "../canon/reader.ts";
import { CanonError, readRegimeCanon } from "../canon/regime.ts";
import { type ObligationsCanon, readObligationsCanon } from "../obligations/canon.ts";
import { LedgerOutOfDate, type ReleasedAtom, releaseAtoms } from "../obligations/release-atoms.ts";
import { parseRouter, type RouterFile } from "../search/act-router.ts";
import { buildIndex } from "../search/chunk-index.ts";
import type { StoredCorpus } from "./load.ts";
import { META_FILE, parseMeta } from "./meta.ts";
import { type ReleaseRecord, readReleases, releaseDir, TAG, writeReleases } from "./releases.ts";
import { type CompiledRelease, type PreviousRelease, writeRelease } from "./write.ts";

export class BuildError extends Error {
  /** Lines a reader needs to act on the failure (what exceeded the quality baseline, with examples). */
  readonly detail?: string;
  constructor(message: string, detail?: string) {
    super(message);
    if (detail !== undefined) this.detail = detail;
  }
}

export interface BuildOptions {
  root: string;
  regime: string;
  tag?: string;
  sources?: string;
  /** Rebuild even when the release directory exists. */
  force?: boolean;
  progress?: (message: string) => void;
}

export interface BuildSummary {
  regime: string;
  tag: string;
  commit: string;
  dir: string;
  built: boolean;
  counts: Record<string, number>;
  unitsByKind: Record<string, number>;
  edges: Record<string, number>;
  unresolvedShare: number;
  /** Findings per defect check (quality.json `checks`); absent for canon without a quality baseline. */
  checks?: Record<string, number>;
  atoms: {
    total: number;
    byModality: Record<string, number>;
    obligations: number;
    byBasis: Record<string, number>;
  };
  acts: {
    id: string;
    short_name: string;
    units: number;
    articles: number;
    atoms: Record<string, number>;
    repairs: Record<string, number>;
    defects: Record<string, number>;
  }[];
}

export function build(opts: BuildOptions): BuildSummary {
  const root = resolve(opts.root);
  const sources = resolve(opts.sources ?? join(root, "..", "shared", "corpus"));
  const releases = readReleases(root, opts.regime);
  const record = chooseRecord(root, opts.regime, releases, opts.tag);
  const dir = releaseDir(root, opts.regime, record.tag);
  if (existsSync(join(dir, META_FILE)) && !opts.force) {
    return summarise(opts.regime, record, dir, false);
  }
  const position = releases.findIndex((r) => r.tag === record.tag);
  const prev = previousRelease(opts, root, releases, position);
  const release = compileRelease(opts, root, sources, record, prev, position >= 0);
  writeRelease(dir, release);
  if (position < 0) writeReleases(root, opts.regime, [...releases, record]);
  return summarise(opts.regime, record, dir, true);
}

/**
 * The release before this tag in releases.yaml (for a new tag, the newest recorded), built first if its
 * directory is missing; null for the first release.
 */
function previousRelease(
  opts: BuildOptions,
  root: string,
  releases: ReleaseRecord[],
  position: number,
): PreviousRelease | null {
  const previous = (position >= 0 ? releases[position - 1] : releases[releases.length - 1]) ?? null;
  let prev: PreviousRelease | null = null;
  if (previous) {
    const prevDir = releaseDir(root, opts.regime, previous.tag);
    if (!existsSync(join(prevDir, META_FILE))) {
      opts.progress?.(`building predecessor ${opts.regime}@${previous.tag} first`);
      build({ ...opts, tag: previous.tag, force: false });
    }
    const stored = JSON.parse(readFileSync(join(prevDir, "corpus.json"), "utf8")) as StoredCorpus;
    const prevAtoms = existsSync(join(prevDir, "atoms.json"))
      ? (JSON.parse(readFileSync(join(prevDir, "atoms.json"), "utf8")) as { atoms: ReleasedAtom[] }).atoms
      : [];
    prev = {
      tag: previous.tag,
      commit: previous.commit,
      metaSha: sha256(readFileSync(join(prevDir, META_FILE))),
      units: stored.units as Unit[],
      atoms: prevAtoms,
    };
  }
  return prev;
}

/**
 * The tag's canon compiled into units, checked against its quality baseline, with its atoms, citation
 * graph and search index. `recorded`: the tag is already in releases.yaml.
 */
function compileRelease(
  opts: BuildOptions,
  root: string,
  sources: string,
  record: ReleaseRecord,
  prev: PreviousRelease | null,
  recorded: boolean,
): CompiledRelease {
  opts.progress?.(`${opts.regime}@${record.tag}: canon from commit ${record.commit.slice(0, 12)}`);
  const canon = readCanon(root, opts.regime, record.commit);
  let done = 0;
  const compiled = compile(canon, sources, (id) => {
    done++;
    opts.progress?.(`parsing ${done}/${canon.acts.length} ${id}`);
  });
  const { corpus } = compiled;
  const checks = checkQuality(root, opts.regime, record.commit, compiled);
  opts.progress?.("extracting obligations");
  const { obligations, released } = releaseObligations(root, opts.regime, record.commit, corpus, recorded);
  opts.progress?.("resolving references");
  const graph = buildGraph(corpus);
  opts.progress?.("indexing");
  const router = readRouter(root, opts.regime, record.commit);
  const index = buildIndex(corpus.units, router);
  const builtAt = committerDate(root, record.commit);
  const regime = opts.regime;
  return { regime, record, prev, canon, compiled, checks, obligations, released, graph, index, builtAt };
}

/** The regime's canon as the commit holds it; it must name the regime it is built as. */
function readCanon(root: string, regime: string, commit: string): RegimeCanon {
  let canon: ReturnType<typeof readRegimeCanon>;
  try {
    canon = readRegimeCanon(atCommit(root, commit), regime);
  } catch (e) {
    if (e instanceof CanonError)
      throw new BuildError(`${e.message} (canon at commit ${commit.slice(0, 12)})`);
    throw e;
  }
  if (canon.regime !== regime)
    throw new BuildError(`regimes/${regime}/regime.yaml names regime "${canon.regime}", not "${regime}"`);
  return canon;
}

/**
 * The obligations canon at the commit, whose scope and derogations must name nodes the corpus holds,
 * and the atoms released from the corpus under its ledger.
 */
function releaseObligations(
  root: string,
  regime: string,
  commit: string,
  corpus: Compiled["corpus"],
  recorded: boolean,
): { obligations: ObligationsCanon; released: ReturnType<typeof releaseAtoms> } {
  const obligations = readObligationsCanon(atCommit(root, commit), regime);
  const dangling = danglingNodes(obligations, corpus);
  if (dangling.length > 0)
    throw new BuildError(
      `regimes/${regime}: scope.yaml and derogations.yaml name nodes the corpus does not hold: ${dangling.join(", ")}`,
    );
  let released: ReturnType<typeof releaseAtoms>;
  try {
    released = releaseAtoms(corpus.units, obligations, regime, recorded);
  } catch (e) {
    if (e instanceof LedgerOutOfDate) throw new BuildError(e.message);
    throw e;
  }
  return { obligations, released };
}

/** The act router the commit holds for the regime (it steers search towards acts), or null. */
function readRouter(root: string, regime: string, commit: string): RouterFile | null {
  const routerPath = `regimes/${regime}/act-router.json`;
  let router: RouterFile | null = null;
  if (existsAtCommit(root, commit, routerPath)) {
    try {
      router = parseRouter(readAtCommit(root, commit, routerPath), `${routerPath}@${commit.slice(0, 12)}`);
    } catch (e) {
      throw new BuildError((e as Error).message);
    }
  }
  return router;
}

function chooseRecord(
  root: string,
  regime: string,
  releases: ReleaseRecord[],
  tag: string | undefined,
): ReleaseRecord {
  if (tag === undefined) {
    const newest = releases[releases.length - 1];
    if (!newest)
      throw new BuildError(
        `regimes/${regime}/releases.yaml records no release; build the first with --tag <tag>`,
      );
    return newest;
  }
  if (!TAG.test(tag))
    throw new BuildError(`tag "${tag}" is not valid: use letters, digits, ".", "_" and "-" (at most 64)`);
  const known = releases.find((r) => r.tag === tag);
  if (known) return known;
  const dirty = uncommitted(root, `regimes/${regime}`).filter(
    (p) => !p.endsWith("releases.yaml") && !p.includes("/releases/"),
  );
  if (dirty.length > 0) {
    throw new BuildError(
      `regimes/${regime} has uncommitted changes (${dirty.join(", ")}); a release is built from a commit: commit them, then build`,
    );
  }
  return { tag, commit: headCommit(root) };
}

/**
 * Runs the defect checks when the canon at the commit has a quality baseline, and refuses the build when
 * any check or logged defect kind counts more than the baseline allows.
 */
function checkQuality(root: string, regime: string, commit: string, compiled: ReturnType<typeof compile>) {
  const path = `regimes/${regime}/${BASELINE_FILE}`;
  if (!existsAtCommit(root, commit, path)) return null;
  let baseline: ReturnType<typeof parseBaseline>;
  try {
    baseline = parseBaseline(readAtCommit(root, commit, path), `${path}@${commit.slice(0, 12)}`);
  } catch (e) {
    if (e instanceof BaselineError) throw new BuildError(e.message);
    throw e;
  }
  const results = runChecks(compiled.corpus);
  const defects = compiled.quality.flatMap((q) => q.defects.map((d) => ({ act: q.act, ...d })));
  const over = excesses(baseline, results, defects);
  if (over.length > 0)
    throw new BuildError(
      `the release has more defects than ${path} allows (${over.map((o) => `${o.what}: ${o.count} (baseline ${o.allowed})`).join("; ")})`,
      [
        ...over.flatMap((o) => [
          `  ${o.what}: ${o.count} (baseline ${o.allowed})`,
          ...o.examples.map((e) => `    ${e}`),
        ]),
        `Repair the cause in the parser; if the source itself is defective and cannot be repaired, raise the count in ${path} and say why.`,
      ].join("\n"),
    );
  return results;
}

/** What a build produced, read back from the release directory (the same whether built now or before). */
function summarise(regime: string, record: ReleaseRecord, dir: string, built: boolean): BuildSummary {
  const corpus = JSON.parse(readFileSync(join(dir, "corpus.json"), "utf8")) as StoredCorpus;
  const quality = JSON.parse(readFileSync(join(dir, "quality.json"), "utf8")) as {
    acts: { act: string; repairs: { kind: string }[]; defects: { kind: string }[] }[];
    graph: { counts: Record<string, number>; unresolved_share: number };
    checks?: { check: string; count: number }[];
  };
  const unitsByKind: Record<string, number> = {};
  for (const u of corpus.units) unitsByKind[u.kind] = (unitsByKind[u.kind] ?? 0) + 1;
  const { counts } = parseMeta(readFileSync(join(dir, META_FILE), "utf8"));
  const atomsFile = join(dir, "atoms.json");
  const released = existsSync(atomsFile)
    ? (JSON.parse(readFileSync(atomsFile, "utf8")) as { atoms: ReleasedAtom[] }).atoms
    : [];
  const byModality: Record<string, number> = { obligation: 0, prohibition: 0, permission: 0 };
  const byBasis: Record<string, number> = {};
  for (const a of released) {
    byModality[a.modality] = (byModality[a.modality] ?? 0) + 1;
    if (a.modality === "obligation") byBasis[a.applies_to_basis] = (byBasis[a.applies_to_basis] ?? 0) + 1;
  }
  return {
    regime,
    tag: record.tag,
    commit: record.commit,
    dir,
    built,
    counts,
    unitsByKind,
    edges: quality.graph.counts,
    unresolvedShare: quality.graph.unresolved_share,
    ...(quality.checks ? { checks: Object.fromEntries(quality.checks.map((c) => [c.check, c.count])) } : {}),
    atoms: { total: released.length, byModality, obligations: byModality.obligation ?? 0, byBasis },
    acts: corpus.acts.map((a) => {
      const q = quality.acts.find((x) => x.act === a.id);
      const own = corpus.units.filter((u) => u.act === a.id);
      return {
        id: a.id,
        short_name: a.short_name,
        units: own.length,
        articles: own.filter((u) => u.kind === "article").length,
        atoms: {
          obligation: released.filter((x) => x.act === a.id && x.modality === "obligation").length,
          prohibition: released.filter((x) => x.act === a.id && x.modality === "prohibition").length,
          permission: released.filter((x) => x.act === a.id && x.modality === "permission").length,
        },
        repairs: countByKind(q?.repairs.map((r) => ({ ...r, eid: null, detail: "" })) ?? []),
        defects: countByKind(q?.defects.map((r) => ({ ...r, eid: null, detail: "" })) ?? []),
      };
    }),
  };
}

/** Nodes the act-scope and derogation canon names that are neither an act id nor a unit of the corpus. */
function danglingNodes(
  o: ReturnType<typeof readObligationsCanon>,
  corpus: { acts: { id: string }[]; units: { node: string }[] },
): string[] {
  const known = new Set([...corpus.acts.map((a) => a.id), ...corpus.units.map((u) => u.node)]);
  const named = [
    ...[...o.scope.acts, ...o.scope.parts].flatMap((r) =>
      [r.provision, ...r.nodes].map((n) => `${n} (scope ${r.id})`),
    ),
    ...o.scope.derive.map((d) => `${d.provision} (derive ${d.type})`),
    ...(o.hasScope
      ? o.derogations.flatMap((d) => [d.derogating, ...d.disapplies].map((n) => `${n} (derogation ${d.id})`))
      : []),
  ];
  return [...new Set(named.filter((n) => !known.has(n.slice(0, n.indexOf(" ")))))];
}
