/**
 * Signing keys in cosign's formats (src/trust/keys.ts): a generated pair opens with its password and
 * not with another; anything that is not such a key is refused with a KeyError saying what it is not.
 */
import assert from "node:assert/strict";
import { createHash, createPublicKey, sign, verify } from "node:crypto";
import { describe, test } from "node:test";
import {
  generateKeyPair,
  KeyError,
  keyId,
  PRIVATE_PEM,
  readPrivateKey,
  readPublicKey,
} from "../../src/trust/keys.ts";

// scrypt at cosign's cost takes a tenth of a second or more each time: the pair is made and opened once.
const pair = generateKeyPair("s3cret");
const opened = readPrivateKey(pair.privatePem, "s3cret");

describe("signing keys", () => {
  test("a pair is a PEM public key and an encrypted PEM private key that sign and verify together", () => {
    assert.match(pair.publicPem, /^-----BEGIN PUBLIC KEY-----\n/u);
    assert.match(
      pair.privatePem,
      new RegExp(`^-----BEGIN ${PRIVATE_PEM}-----\\n[A-Za-z0-9+/=\\n]+-----END ${PRIVATE_PEM}-----\\n$`, "u"),
    );
    const body = JSON.parse(
      Buffer.from(pair.privatePem.split("\n").slice(1, -2).join(""), "base64").toString("utf8"),
    );
    assert.deepEqual(
      [body.kdf.name, body.kdf.params, body.cipher.name],
      ["scrypt", { N: 32768, r: 8, p: 1 }, "nacl/secretbox"],
    );
    const priv = opened;
    const pub = readPublicKey(pair.publicPem);
    const sig = sign("sha256", Buffer.from("release"), priv);
    assert.ok(verify("sha256", Buffer.from("release"), pub, sig));
  });

  test("a key id is the hex SHA-256 of the public key's DER, the same from either half", () => {
    const pub = readPublicKey(pair.publicPem);
    const der = pub.export({ type: "spki", format: "der" });
    assert.equal(keyId(pub), createHash("sha256").update(der).digest("hex"));
    assert.equal(keyId(createPublicKey(opened)), keyId(pub));
  });

  test("the wrong password, a non-key PEM or another encryption is refused", () => {
    assert.throws(
      () => readPrivateKey(pair.privatePem, "wrong"),
      (e: Error) =>
        e instanceof KeyError &&
        e.message === "the private key does not open with this password (COSIGN_PASSWORD)",
    );
    assert.throws(
      () => readPrivateKey(pair.publicPem, "s3cret"),
      (e: Error) => e instanceof KeyError && e.message === `not a PEM "${PRIVATE_PEM}" block`,
    );
    const other = Buffer.from(
      JSON.stringify({ kdf: { name: "argon2" }, cipher: { name: "aes" }, ciphertext: "" }),
    ).toString("base64");
    assert.throws(
      () => readPrivateKey(`-----BEGIN ${PRIVATE_PEM}-----\n${other}\n-----END ${PRIVATE_PEM}-----\n`, ""),
      (e: Error) => e instanceof KeyError && e.message === "unsupported key encryption argon2/aes",
    );
    assert.throws(
      () => readPublicKey("not a key"),
      (e: Error) => e instanceof KeyError && e.message === "not a PEM public key",
    );
  });

  test("an empty password is allowed, as with cosign", () => {
    const empty = generateKeyPair("");
    assert.equal(
      keyId(createPublicKey(readPrivateKey(empty.privatePem, ""))),
      keyId(readPublicKey(empty.publicPem)),
    );
  });
});
