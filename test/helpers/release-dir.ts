/**
 * A small release directory written by hand for the trust unit tests: the fixture corpus and its index
 * as artifacts, a provenance statement naming them, and a release-meta.yaml declaring every digest, as
 * `acquis build` lays them out, without git or a build. Sign it with signRelease to make it a signed one.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../../src/canon/compile.ts";
import { META_FILE, type ReleaseMeta, serialiseMeta } from "../../src/release/meta.ts";
import { provenanceStatement } from "../../src/release/provenance.ts";
import { buildIndex } from "../../src/search/chunk-index.ts";
import { fixtureCorpus } from "./fixture-release.ts";

export interface ReleaseDirOptions {
  tag?: string;
  /** Not 40 hex digits by default, so nothing asks git whether a checkout holds it. */
  commit?: string;
  /** The commit the provenance statement names (the meta's unless given). */
  provenanceCommit?: string;
  previous?: ReleaseMeta["previous"];
}

const corpus = fixtureCorpus();

/** Writes the release into `dir` and returns its manifest. */
export function writeReleaseDir(dir: string, opts: ReleaseDirOptions = {}): ReleaseMeta {
  const tag = opts.tag ?? "2100.1";
  const commit = opts.commit ?? "c0ffee";
  mkdirSync(dir, { recursive: true });
  const artifacts: ReleaseMeta["artifacts"] = [];
  const add = (name: string, body: string) => {
    writeFileSync(join(dir, name), body);
    artifacts.push({ name, sha256: sha256(body), size: Buffer.byteLength(body) });
  };
  add(
    "corpus.json",
    JSON.stringify({
      schema_version: "1",
      regime: "fixture",
      tag,
      acts: corpus.acts,
      units: corpus.units.map(({ text: _text, ...rest }) => rest),
    }),
  );
  add("index.json", JSON.stringify(buildIndex(corpus.units)));
  const sources = [{ file: "fixture/widgets-v2.json", sha256: corpus.acts[0]?.source_sha256 as string }];
  add(
    "provenance.json",
    JSON.stringify(
      provenanceStatement({
        regime: "fixture",
        tag,
        commit: opts.provenanceCommit ?? commit,
        builtAt: "2026-01-01T12:00:00Z",
        engineVersion: "test",
        artifacts: artifacts.map((a) => ({ name: a.name, sha256: a.sha256 })),
        sources,
      }),
    ),
  );
  const meta: ReleaseMeta = {
    schema_version: "1",
    regime: "fixture",
    tag,
    commit,
    built_at: "2026-01-01T12:00:00Z",
    as_of: "2100-06-01",
    previous: opts.previous ?? { tag: null, release_meta_sha256: null },
    licence: { engine: "Apache-2.0", corpus: "CC-BY-4.0", attribution: "test" },
    artifacts,
    sources,
    counts: { units: corpus.units.length },
  };
  writeFileSync(join(dir, META_FILE), serialiseMeta(meta));
  return meta;
}
