/**
 * `acquis sign` (src/trust/sign.ts) on a hand-written release: release-meta.yaml signed as a Sigstore
 * message-signature bundle, provenance.json as a DSSE envelope, and with a log, the signature logged.
 */
import assert from "node:assert/strict";
import { createHash, createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { keyId } from "../../src/trust/keys.ts";
import {
  BUNDLE_V03,
  hashedRekord,
  IN_TOTO,
  META_BUNDLE,
  PROVENANCE_BUNDLE,
  pae,
  signRelease,
} from "../../src/trust/sign.ts";
import { checkEntry, LocalLog } from "../../src/trust/tlog.ts";
import { writeReleaseDir } from "../helpers/release-dir.ts";

const tmp = mkdtempSync(join(tmpdir(), "acquis-sign-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const publicKey = createPublicKey(privateKey);
const json = (dir: string, f: string) => JSON.parse(readFileSync(join(dir, f), "utf8"));

describe("signing a release", () => {
  test("DSSE's pre-authentication encoding names type and payload lengths", () => {
    assert.equal(pae("t/x", Buffer.from("hello")).toString(), "DSSEv1 3 t/x 5 hello");
  });

  test("the hashedrekord body records the digest, the signature and the public key", () => {
    const body = JSON.parse(hashedRekord("ab".repeat(32), Buffer.from("sig"), publicKey).toString());
    assert.deepEqual(body.spec.data.hash, { algorithm: "sha256", value: "ab".repeat(32) });
    assert.equal(body.spec.signature.content, Buffer.from("sig").toString("base64"));
    assert.match(
      Buffer.from(body.spec.signature.publicKey.content, "base64").toString(),
      /^-----BEGIN PUBLIC KEY-----/u,
    );
    assert.equal(body.kind, "hashedrekord");
  });

  test("the manifest's bundle signs the exact bytes of release-meta.yaml, hinting the key", () => {
    const dir = join(tmp, "plain");
    writeReleaseDir(dir);
    assert.deepEqual(signRelease(dir, privateKey, null), { keyId: keyId(publicKey), logged: false });
    const meta = readFileSync(join(dir, "release-meta.yaml"));
    const b = json(dir, META_BUNDLE);
    assert.equal(b.mediaType, BUNDLE_V03);
    assert.equal(b.verificationMaterial.publicKey.hint, keyId(publicKey));
    assert.deepEqual(b.verificationMaterial.tlogEntries, []);
    assert.equal(b.messageSignature.messageDigest.digest, createHash("sha256").update(meta).digest("base64"));
    assert.ok(
      verify(
        "sha256",
        meta,
        { key: publicKey, dsaEncoding: "der" },
        Buffer.from(b.messageSignature.signature, "base64"),
      ),
    );
  });

  test("provenance.json travels in a DSSE envelope whose signature covers its PAE", () => {
    const dir = join(tmp, "plain");
    const p = json(dir, PROVENANCE_BUNDLE);
    const provenance = readFileSync(join(dir, "provenance.json"));
    assert.equal(p.dsseEnvelope.payloadType, IN_TOTO);
    assert.equal(p.dsseEnvelope.payload, provenance.toString("base64"));
    const [s] = p.dsseEnvelope.signatures;
    assert.equal(s.keyid, keyId(publicKey));
    assert.ok(
      verify(
        "sha256",
        pae(IN_TOTO, provenance),
        { key: publicKey, dsaEncoding: "der" },
        Buffer.from(s.sig, "base64"),
      ),
    );
  });

  test("with a log, the manifest's signature is logged and the bundle carries the entry", () => {
    const dir = join(tmp, "logged");
    writeReleaseDir(dir);
    const log = new LocalLog(join(tmp, "log"), "pw");
    assert.equal(signRelease(dir, privateKey, log).logged, true);
    const [entry] = json(dir, META_BUNDLE).verificationMaterial.tlogEntries;
    assert.equal(checkEntry(entry, [log.publicKey]), null);
    const body = JSON.parse(Buffer.from(entry.canonicalizedBody, "base64").toString());
    assert.equal(
      body.spec.data.hash.value,
      createHash("sha256")
        .update(readFileSync(join(dir, "release-meta.yaml")))
        .digest("hex"),
    );
  });
});
