/**
 * Signing keys: ECDSA P-256 pairs as cosign writes them. The public key is a PEM SubjectPublicKeyInfo
 * (`cosign.pub`); the private key is cosign's encrypted format, a PEM block "ENCRYPTED SIGSTORE PRIVATE
 * KEY" whose body is JSON: scrypt (N 32768, r 8, p 1, 32-byte salt) derives a key from the password,
 * and nacl/secretbox seals the PKCS#8 DER of the private key (securesystemslib's `encrypted` package,
 * which cosign uses). The password comes from COSIGN_PASSWORD, empty allowed, as with cosign.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  scryptSync,
} from "node:crypto";
import nacl from "tweetnacl";

export const PRIVATE_PEM = "ENCRYPTED SIGSTORE PRIVATE KEY";
const SCRYPT = { N: 32768, r: 8, p: 1 };

export class KeyError extends Error {}

function pem(type: string, der: Buffer): string {
  const b64 = der.toString("base64").replace(/.{1,64}/gu, "$&\n");
  return `-----BEGIN ${type}-----\n${b64}-----END ${type}-----\n`;
}

function unpem(text: string, type: string): Buffer {
  const m = new RegExp(`-----BEGIN ${type}-----([\\s\\S]*?)-----END ${type}-----`, "u").exec(text);
  if (!m) throw new KeyError(`not a PEM "${type}" block`);
  return Buffer.from((m[1] as string).replace(/\s+/gu, ""), "base64");
}

function derive(password: string, salt: Buffer, p: typeof SCRYPT): Buffer {
  return scryptSync(Buffer.from(password, "utf8"), salt, 32, {
    N: p.N,
    r: p.r,
    p: p.p,
    maxmem: 256 * 1024 * 1024,
  });
}

export function generateKeyPair(password: string): { publicPem: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const der = privateKey.export({ type: "pkcs8", format: "der" });
  const salt = randomBytes(32);
  const nonce = randomBytes(24);
  const sealed = nacl.secretbox(
    new Uint8Array(der),
    new Uint8Array(nonce),
    new Uint8Array(derive(password, salt, SCRYPT)),
  );
  const body = {
    kdf: { name: "scrypt", params: SCRYPT, salt: salt.toString("base64") },
    cipher: { name: "nacl/secretbox", nonce: nonce.toString("base64") },
    ciphertext: Buffer.from(sealed).toString("base64"),
  };
  return {
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    privatePem: pem(PRIVATE_PEM, Buffer.from(JSON.stringify(body))),
  };
}

export function readPrivateKey(text: string, password: string): KeyObject {
  const body = JSON.parse(unpem(text, PRIVATE_PEM).toString("utf8")) as {
    kdf: { name: string; params: typeof SCRYPT; salt: string };
    cipher: { name: string; nonce: string };
    ciphertext: string;
  };
  if (body.kdf?.name !== "scrypt" || body.cipher?.name !== "nacl/secretbox") {
    throw new KeyError(`unsupported key encryption ${body.kdf?.name}/${body.cipher?.name}`);
  }
  const opened = nacl.secretbox.open(
    new Uint8Array(Buffer.from(body.ciphertext, "base64")),
    new Uint8Array(Buffer.from(body.cipher.nonce, "base64")),
    new Uint8Array(derive(password, Buffer.from(body.kdf.salt, "base64"), body.kdf.params)),
  );
  if (!opened) throw new KeyError("the private key does not open with this password (COSIGN_PASSWORD)");
  return createPrivateKey({ key: Buffer.from(opened), format: "der", type: "pkcs8" });
}

export function readPublicKey(text: string): KeyObject {
  try {
    return createPublicKey(text);
  } catch {
    throw new KeyError("not a PEM public key");
  }
}

/** A key's id: the hex SHA-256 of its SubjectPublicKeyInfo DER (what bundles carry as the key hint). */
export function keyId(key: KeyObject): string {
  return createHash("sha256")
    .update(key.export({ type: "spki", format: "der" }))
    .digest("hex");
}
