/**
 * `provenance.json`: an in-toto Statement v1 with a SLSA provenance v1 predicate. Subjects are the
 * release's artifacts; resolved dependencies are the canon commit and every source by digest.
 * No wall clock: the build's time is the canon commit's committer date.
 */

export const STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
export const SLSA_PROVENANCE = "https://slsa.dev/provenance/v1";
export const BUILD_TYPE = "urn:acquis:build:release:v1";
export const BUILDER_ID = "urn:acquis:builder:acquis-build";

export interface Digested {
  name: string;
  sha256: string;
}

export interface ProvenanceInput {
  regime: string;
  tag: string;
  commit: string;
  builtAt: string;
  engineVersion: string;
  artifacts: Digested[];
  sources: { file: string; sha256: string }[];
}

export function provenanceStatement(p: ProvenanceInput): unknown {
  return {
    _type: STATEMENT_TYPE,
    subject: p.artifacts.map((a) => ({ name: a.name, digest: { sha256: a.sha256 } })),
    predicateType: SLSA_PROVENANCE,
    predicate: {
      buildDefinition: {
        buildType: BUILD_TYPE,
        externalParameters: { regime: p.regime, tag: p.tag },
        internalParameters: { engine: `acquis@${p.engineVersion}` },
        resolvedDependencies: [
          { name: "canon", uri: `urn:acquis:canon:${p.regime}`, digest: { gitCommit: p.commit } },
          ...p.sources.map((s) => ({
            name: s.file,
            uri: `urn:acquis:source:${s.file}`,
            digest: { sha256: s.sha256 },
          })),
        ],
      },
      runDetails: {
        builder: { id: BUILDER_ID },
        metadata: { invocationId: `${p.regime}@${p.tag}`, startedOn: p.builtAt, finishedOn: p.builtAt },
      },
    },
  };
}
