/**
 * `acquis sign`: ECDSA P-256 over SHA-256 of the exact bytes of release-meta.yaml, packed as a
 * Sigstore bundle v0.3 with a public-key hint (`release-meta.yaml.sigstore.json`), and provenance.json
 * signed as a DSSE envelope in a bundle of its own (`provenance.sigstore.json`). With a log, each
 * signature is also appended to it and the bundle carries the entry.
 */
import { createHash, createPublicKey, type KeyObject, sign } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import canonicalize from "canonicalize";
import { META_FILE } from "../release/meta.ts";
import { keyId } from "./keys.ts";
import type { LocalLog, TlogEntry } from "./tlog.ts";

export const META_BUNDLE = `${META_FILE}.sigstore.json`;
export const PROVENANCE_BUNDLE = "provenance.sigstore.json";
export const BUNDLE_V03 = "application/vnd.dev.sigstore.bundle.v0.3+json";
export const IN_TOTO = "application/vnd.in-toto+json";

/** DSSE pre-authentication encoding: what a DSSE signature covers. */
export function pae(payloadType: string, payload: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${Buffer.byteLength(payloadType)} ${payloadType} ${payload.length} `),
    payload,
  ]);
}

/** The hashedrekord body a log records for a signature over an artifact digest. */
export function hashedRekord(digestHex: string, signature: Buffer, publicKey: KeyObject): Buffer {
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
  return Buffer.from(
    canonicalize({
      apiVersion: "0.0.1",
      kind: "hashedrekord",
      spec: {
        data: { hash: { algorithm: "sha256", value: digestHex } },
        signature: {
          content: signature.toString("base64"),
          publicKey: { content: Buffer.from(pem).toString("base64") },
        },
      },
    }) as string,
  );
}

export function signRelease(
  dir: string,
  key: KeyObject,
  log: LocalLog | null,
): { keyId: string; logged: boolean } {
  const publicKey = createPublicKey(key);
  const hint = keyId(publicKey);
  const entries = (digestHex: string, sig: Buffer): TlogEntry[] =>
    log ? [log.append(hashedRekord(digestHex, sig, publicKey))] : [];

  const meta = readFileSync(join(dir, META_FILE));
  const digest = createHash("sha256").update(meta).digest();
  const metaSig = sign("sha256", meta, { key, dsaEncoding: "der" });
  const metaBundle = {
    mediaType: BUNDLE_V03,
    verificationMaterial: { publicKey: { hint }, tlogEntries: entries(digest.toString("hex"), metaSig) },
    messageSignature: {
      messageDigest: { algorithm: "SHA2_256", digest: digest.toString("base64") },
      signature: metaSig.toString("base64"),
    },
  };
  writeFileSync(join(dir, META_BUNDLE), `${JSON.stringify(metaBundle, null, 2)}\n`);

  const provenance = readFileSync(join(dir, "provenance.json"));
  const dsseSig = sign("sha256", pae(IN_TOTO, provenance), { key, dsaEncoding: "der" });
  const provenanceBundle = {
    mediaType: BUNDLE_V03,
    verificationMaterial: { publicKey: { hint }, tlogEntries: [] },
    dsseEnvelope: {
      payload: provenance.toString("base64"),
      payloadType: IN_TOTO,
      signatures: [{ sig: dsseSig.toString("base64"), keyid: hint }],
    },
  };
  writeFileSync(join(dir, PROVENANCE_BUNDLE), `${JSON.stringify(provenanceBundle, null, 2)}\n`);
  return { keyId: hint, logged: log !== null };
}
