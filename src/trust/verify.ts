/**
 * Release verification, one implementation for `serve`, `pull` and `verify` (docs/trust.md). Checks,
 * each named when it fails:
 *   signature        the release-meta bundle verifies with an accepted key (the --key keys, which replace
 *                    the trust roster, else the roster), valid at signing time and not revoked;
 *   transparency-log with log keys: the bundle's log entry (signed entry timestamp, inclusion proof,
 *                    checkpoint) verifies and records this very signature;
 *   digests          every artifact against release-meta.yaml;
 *   provenance       the statement (DSSE-signed by the same key when signed) has the artifacts as subjects,
 *                    the canon commit and the sources release-meta.yaml declares;
 *   chain            when the predecessor is present, its release-meta.yaml has the declared SHA-256.
 * An unsigned release passes only as a build of the local checkout (provenance and a commit the
 * checkout's history holds), only when no signer key is configured, and then says so: its status is
 * `digests-only`, because digests recomputed by whoever altered a unit prove nothing about who built it.
 * With a key configured (--key or the roster) a release without a valid signature is refused, so deleting
 * the bundles never turns a forged release into a local build. `pull` installs signed releases only.
 */
import { createHash, type KeyObject, verify as verifySignature } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { historyHolds } from "../canon/git.ts";
import { type LoadedRelease, loadRelease, ReleaseIntegrityError } from "../release/load.ts";
import { META_FILE, type ReleaseMeta } from "../release/meta.ts";
import { keyId, readPublicKey } from "./keys.ts";
import { IN_TOTO, META_BUNDLE, PROVENANCE_BUNDLE, pae } from "./sign.ts";
import { checkEntry, type TlogEntry } from "./tlog.ts";

export interface ReleaseVerification {
  status: "verified" | "digests-only" | "skipped";
  mode: "signed" | "local-build" | "unverified";
  checks: string[];
  key_id?: string;
  /** What the checks do and do not prove, in words a reader of a stored answer understands. */
  statement: string;
}

export const STATEMENTS = {
  signed: "Signed release: the signature chain, every artifact's digest and the provenance were verified.",
  "local-build":
    "Unsigned build of the local checkout: only the digests in release-meta.yaml and the provenance were checked. Nothing verified who built these bytes; do not rely on them beyond this machine.",
  unverified: "Verification was skipped (--insecure-skip-verify): nothing about this release was checked.",
} as const;

export class VerificationError extends Error {
  readonly check: string;
  constructor(check: string, message: string) {
    super(`verification failed: ${check}: ${message}`);
    this.check = check;
  }
}

export interface RosterKey {
  id: string;
  key: KeyObject;
  valid_from: string | null;
  valid_until: string | null;
  revoked: { at: string; reason?: string } | null;
}

export interface TrustOptions {
  /** The checkout whose history makes an unsigned release a local build. */
  root: string;
  /** --key keys: when given they replace the roster. */
  keys: KeyObject[];
  roster: RosterKey[];
  logKeys: KeyObject[];
  skip: boolean;
  /** Where the predecessor release lives, when not beside this one (pull verifies in a temporary folder). */
  predecessors?: string;
  /** Refuse an unsigned release even without keys (`pull`: a release from elsewhere is never a local build). */
  requireSignature?: boolean;
  /**
   * This machine's own public key (`acquis keygen`'s default), used only when neither --key nor a
   * roster names a key: a release signed here verifies with no flags, and an unsigned one is still a
   * local build, not refused.
   */
  ownKey?: KeyObject | null;
}

/** `config/trust.yaml`: accepted signer keys with ids, validity windows and revocations. */
export function parseRoster(text: string, file: string): RosterKey[] {
  const doc = (parse(text) as { keys?: Record<string, unknown>[] } | null) ?? {};
  return (doc.keys ?? []).map((k, i) => {
    const where = `${file}: keys[${i}]`;
    if (typeof k.id !== "string" || typeof k.public_key !== "string")
      throw new Error(`${where}: needs id and public_key (PEM)`);
    const revoked = k.revoked as { at?: unknown; reason?: string } | null | undefined;
    return {
      id: k.id,
      key: readPublicKey(k.public_key),
      valid_from: k.valid_from ? String(k.valid_from) : null,
      valid_until: k.valid_until ? String(k.valid_until) : null,
      revoked: revoked ? { at: String(revoked.at ?? "1970-01-01"), reason: revoked.reason } : null,
    };
  });
}

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest();

interface MetaBundle {
  mediaType?: string;
  verificationMaterial?: { publicKey?: { hint?: string }; tlogEntries?: TlogEntry[] };
  messageSignature?: { messageDigest?: { algorithm?: string; digest?: string }; signature?: string };
}

export function verifyRelease(
  dir: string,
  t: TrustOptions,
): { release: LoadedRelease; verification: ReleaseVerification } {
  if (t.skip)
    return {
      release: loadRelease(dir, { checkDigests: false }),
      verification: { status: "skipped", mode: "unverified", checks: [], statement: STATEMENTS.unverified },
    };
  const checks: string[] = [];
  const metaBytes = readFileSync(join(dir, META_FILE));
  const bundleFile = join(dir, META_BUNDLE);
  const signed = existsSync(bundleFile);
  let signer: { key: KeyObject; id: string } | null = null;
  if (!signed) refuseUnsigned(t);
  else {
    signer = verifySignedMeta(bundleFile, metaBytes, t);
    checks.push("signature");
    if (t.logKeys.length > 0) checks.push("transparency-log");
  }

  let release: LoadedRelease;
  try {
    release = loadRelease(dir);
  } catch (e) {
    if (e instanceof ReleaseIntegrityError) throw new VerificationError("digests", e.message);
    throw e;
  }
  checks.push("digests");
  checkProvenance(dir, release.meta, signer?.key ?? null);
  if (!signed && !historyHolds(t.root, release.meta.commit)) {
    throw new VerificationError(
      "signature",
      `unsigned release built from commit ${release.meta.commit}, which the checkout at ${t.root} does not hold; only a signed release is accepted from elsewhere`,
    );
  }
  checks.push("provenance");
  if (chainHolds(dir, release.meta, t)) checks.push("chain");
  const mode = signed ? "signed" : "local-build";
  const verification: ReleaseVerification = {
    status: signed ? "verified" : "digests-only",
    mode,
    checks,
    statement: STATEMENTS[mode],
  };
  if (signer) verification.key_id = signer.id;
  return { release, verification };
}

/** With signer keys configured, or for a release from elsewhere, an unsigned release is refused. */
function refuseUnsigned(t: TrustOptions): void {
  const configured = t.keys.length > 0 ? "--key" : t.roster.length > 0 ? "the trust roster" : null;
  if (configured || t.requireSignature)
    throw new VerificationError(
      "signature",
      `${META_BUNDLE} is missing: the release is unsigned, and ${configured ? `signer keys are configured (${configured})` : "only signed releases are installed from elsewhere"}; sign it with \`acquis sign\``,
    );
}

/**
 * The release-meta bundle signs these very bytes, its log entry (with log keys) records this signature,
 * and the signature verifies with an accepted key valid when it was made: that key.
 */
function verifySignedMeta(
  bundleFile: string,
  metaBytes: Buffer,
  t: TrustOptions,
): { key: KeyObject; id: string } {
  let bundle: MetaBundle;
  try {
    bundle = JSON.parse(readFileSync(bundleFile, "utf8")) as MetaBundle;
  } catch {
    throw new VerificationError("signature", `${META_BUNDLE} is not JSON`);
  }
  const ms = bundle.messageSignature;
  if (
    bundle.mediaType !== "application/vnd.dev.sigstore.bundle.v0.3+json" ||
    !ms?.signature ||
    ms.messageDigest?.algorithm !== "SHA2_256"
  ) {
    throw new VerificationError(
      "signature",
      `${META_BUNDLE} is not a Sigstore v0.3 message-signature bundle`,
    );
  }
  if (ms.messageDigest.digest !== sha256(metaBytes).toString("base64")) {
    throw new VerificationError("signature", `the bundle signs another ${META_FILE} (digest differs)`);
  }
  const signature = Buffer.from(ms.signature, "base64");
  const entry = bundle.verificationMaterial?.tlogEntries?.[0];
  if (t.logKeys.length > 0) checkLogEntry(entry, t.logKeys, metaBytes, ms.signature);
  // When the signature was made: the log says so when its entry verified; else the release's built_at.
  const meta = parse(metaBytes.toString("utf8")) as ReleaseMeta;
  const at =
    t.logKeys.length > 0 && entry
      ? new Date(Number(entry.integratedTime) * 1000).toISOString()
      : meta.built_at;
  return acceptedSigner(t, bundle.verificationMaterial?.publicKey?.hint, metaBytes, signature, at);
}

/** The bundle's transparency-log entry verifies with the log keys and records this very signature. */
function checkLogEntry(
  entry: TlogEntry | undefined,
  logKeys: KeyObject[],
  metaBytes: Buffer,
  signature: string,
): void {
  if (!entry) throw new VerificationError("transparency-log", "the bundle carries no log entry");
  const problem = checkEntry(entry, logKeys);
  if (problem) throw new VerificationError("transparency-log", problem);
  const body = JSON.parse(Buffer.from(entry.canonicalizedBody, "base64").toString("utf8")) as {
    spec?: { data?: { hash?: { value?: string } }; signature?: { content?: string } };
  };
  if (
    body.spec?.data?.hash?.value !== sha256(metaBytes).toString("hex") ||
    body.spec?.signature?.content !== signature
  ) {
    throw new VerificationError("transparency-log", "the log entry records another signature");
  }
}

/**
 * Whether the predecessor's release-meta.yaml is present and has the SHA-256 this release declares for
 * it; a different predecessor present is refused.
 */
function chainHolds(dir: string, meta: ReleaseMeta, t: TrustOptions): boolean {
  if (meta.previous?.tag) {
    const prev = join(t.predecessors ?? dirname(dir), meta.previous.tag, META_FILE);
    if (existsSync(prev)) {
      if (sha256(readFileSync(prev)).toString("hex") !== meta.previous.release_meta_sha256) {
        throw new VerificationError(
          "chain",
          `the predecessor ${meta.previous.tag} present here is not the one this release names`,
        );
      }
      return true;
    }
  }
  return false;
}

function acceptedSigner(
  t: TrustOptions,
  hint: string | undefined,
  message: Buffer,
  signature: Buffer,
  at: string,
): { key: KeyObject; id: string } {
  const given = t.keys.length > 0 ? t.keys : t.roster.length === 0 && t.ownKey ? [t.ownKey] : [];
  const candidates: RosterKey[] =
    given.length > 0
      ? given.map((key) => ({ id: keyId(key), key, valid_from: null, valid_until: null, revoked: null }))
      : t.roster;
  if (candidates.length === 0)
    throw new VerificationError(
      "signature",
      "no accepted keys: give --key, list keys in the trust roster, or keep this machine's key where `acquis keygen` writes it",
    );
  const matching = candidates.filter((c) => !hint || keyId(c.key) === hint);
  const verified = matching.find((c) =>
    verifySignature("sha256", message, { key: c.key, dsaEncoding: "der" }, signature),
  );
  if (!verified)
    throw new VerificationError(
      "signature",
      `the signature does not verify with any accepted key (hint ${hint ?? "none"})`,
    );
  if (verified.revoked)
    throw new VerificationError(
      "signature",
      `key ${verified.id} is revoked (${verified.revoked.at}${verified.revoked.reason ? `: ${verified.revoked.reason}` : ""})`,
    );
  if (verified.valid_from && at < verified.valid_from)
    throw new VerificationError(
      "signature",
      `key ${verified.id} is not valid before ${verified.valid_from}; signed ${at}`,
    );
  if (verified.valid_until && at >= verified.valid_until)
    throw new VerificationError(
      "signature",
      `key ${verified.id} expired ${verified.valid_until}; signed ${at}`,
    );
  return { key: verified.key, id: verified.id };
}

interface Statement {
  subject?: { name: string; digest: { sha256: string } }[];
  predicate?: {
    buildDefinition?: { resolvedDependencies?: { name: string; digest: Record<string, string> }[] };
  };
}

function checkProvenance(dir: string, meta: ReleaseMeta, key: KeyObject | null): void {
  const bytes = readFileSync(join(dir, "provenance.json"));
  if (key) {
    let bundle: { dsseEnvelope?: { payload?: string; payloadType?: string; signatures?: { sig: string }[] } };
    try {
      bundle = JSON.parse(readFileSync(join(dir, PROVENANCE_BUNDLE), "utf8"));
    } catch {
      throw new VerificationError("provenance", `${PROVENANCE_BUNDLE} is missing or not JSON`);
    }
    const env = bundle.dsseEnvelope;
    if (env?.payloadType !== IN_TOTO || !env.payload || env.payload !== bytes.toString("base64")) {
      throw new VerificationError("provenance", "the DSSE envelope does not carry this provenance.json");
    }
    const ok = (env.signatures ?? []).some((s) =>
      verifySignature(
        "sha256",
        pae(IN_TOTO, bytes),
        { key, dsaEncoding: "der" },
        Buffer.from(s.sig, "base64"),
      ),
    );
    if (!ok)
      throw new VerificationError(
        "provenance",
        "the DSSE signature does not verify with the release's signer",
      );
  }
  let statement: Statement;
  try {
    statement = JSON.parse(bytes.toString("utf8")) as Statement;
  } catch {
    throw new VerificationError("provenance", "provenance.json is not JSON");
  }
  const declared = new Map(
    meta.artifacts.filter((a) => a.name !== "provenance.json").map((a) => [a.name, a.sha256]),
  );
  const subjects = new Map((statement.subject ?? []).map((s) => [s.name, s.digest.sha256]));
  if (subjects.size !== declared.size || [...declared].some(([n, d]) => subjects.get(n) !== d)) {
    throw new VerificationError(
      "provenance",
      "the statement's subjects are not the artifacts release-meta.yaml declares",
    );
  }
  const deps = statement.predicate?.buildDefinition?.resolvedDependencies ?? [];
  if (deps.find((d) => d.name === "canon")?.digest.gitCommit !== meta.commit) {
    throw new VerificationError("provenance", `the statement's canon commit is not ${meta.commit}`);
  }
  for (const s of meta.sources) {
    if (deps.find((d) => d.name === s.file)?.digest.sha256 !== s.sha256) {
      throw new VerificationError(
        "provenance",
        `the statement does not declare source ${s.file} as release-meta.yaml does`,
      );
    }
  }
}
