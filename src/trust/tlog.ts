/**
 * A local transparency log, Rekor-style, so the whole signing chain runs offline and in CI with fresh
 * keys (docs/trust.md). A log is a folder: its key pair (log.pub, log.key in cosign's format) and
 * entries.jsonl, one canonicalized hashedrekord body per line. Appending returns a Sigstore bundle
 * TransparencyLogEntry: a signed entry timestamp over the canonical JSON of body, integratedTime,
 * logIndex and logID, and an RFC 6962 inclusion proof against a checkpoint the log key signs.
 *
 * integratedTime is the wall clock when the entry is logged: it is the log's statement of when it saw
 * the entry, not part of any release's bytes.
 */
import { createHash, type KeyObject, sign, verify } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import canonicalize from "canonicalize";
import { generateKeyPair, keyId, readPrivateKey, readPublicKey } from "./keys.ts";

export interface TlogEntry {
  logIndex: string;
  logId: { keyId: string };
  kindVersion: { kind: string; version: string };
  integratedTime: string;
  inclusionPromise: { signedEntryTimestamp: string };
  inclusionProof: {
    logIndex: string;
    rootHash: string;
    treeSize: string;
    hashes: string[];
    checkpoint: { envelope: string };
  };
  canonicalizedBody: string;
}

// The checkpoint's origin line, also the signer name of its signature line (a signed note allows no spaces there).
const ORIGIN = "log.acquis.invalid";
const sha = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
const leafHash = (body: Buffer) => sha(Buffer.from([0]), body);
const nodeHash = (l: Buffer, r: Buffer) => sha(Buffer.from([1]), l, r);

/** RFC 6962 Merkle tree hash of leaves [lo, hi). */
function treeHash(leaves: Buffer[], lo: number, hi: number): Buffer {
  if (hi - lo === 1) return leaves[lo] as Buffer;
  let k = 1;
  while (k * 2 < hi - lo) k *= 2;
  return nodeHash(treeHash(leaves, lo, lo + k), treeHash(leaves, lo + k, hi));
}

/** RFC 6962 audit path for leaf m in the tree of leaves [lo, hi). */
function auditPath(leaves: Buffer[], m: number, lo: number, hi: number): Buffer[] {
  if (hi - lo === 1) return [];
  let k = 1;
  while (k * 2 < hi - lo) k *= 2;
  return m < lo + k
    ? [...auditPath(leaves, m, lo, lo + k), treeHash(leaves, lo + k, hi)]
    : [...auditPath(leaves, m, lo + k, hi), treeHash(leaves, lo, lo + k)];
}

/** Recompute the root from a leaf, its index, the tree size and the audit path (RFC 9162 2.1.3.2). */
export function rootFromProof(leaf: Buffer, index: number, size: number, path: Buffer[]): Buffer | null {
  if (index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else r = nodeHash(r, p);
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 ? r : null;
}

export function setPayload(
  entry: Pick<TlogEntry, "canonicalizedBody" | "integratedTime" | "logIndex" | "logId">,
): Buffer {
  return Buffer.from(
    canonicalize({
      body: entry.canonicalizedBody,
      integratedTime: Number(entry.integratedTime),
      logIndex: Number(entry.logIndex),
      logID: Buffer.from(entry.logId.keyId, "base64").toString("hex"),
    }) as string,
  );
}

export function checkpointNote(size: number, root: Buffer): string {
  return `${ORIGIN}\n${size}\n${root.toString("base64")}\n`;
}

export class LocalLog {
  readonly dir: string;
  private readonly key: KeyObject;
  readonly publicKey: KeyObject;

  /** Open the log in `dir`, creating it and its key pair (encrypted with `password`) when absent. */
  constructor(dir: string, password: string) {
    this.dir = dir;
    if (!existsSync(join(dir, "log.key"))) {
      mkdirSync(dir, { recursive: true });
      const pair = generateKeyPair(password);
      writeFileSync(join(dir, "log.pub"), pair.publicPem);
      writeFileSync(join(dir, "log.key"), pair.privatePem, { mode: 0o600 });
      writeFileSync(join(dir, "entries.jsonl"), "");
    }
    this.key = readPrivateKey(readFileSync(join(dir, "log.key"), "utf8"), password);
    this.publicKey = readPublicKey(readFileSync(join(dir, "log.pub"), "utf8"));
  }

  append(body: Buffer): TlogEntry {
    const file = join(this.dir, "entries.jsonl");
    const bodies: Buffer[] = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => Buffer.from(l, "base64"));
    bodies.push(body);
    appendFileSync(file, `${body.toString("base64")}\n`);
    const leaves = bodies.map(leafHash);
    const index = leaves.length - 1;
    const root = treeHash(leaves, 0, leaves.length);
    const note = checkpointNote(leaves.length, root);
    const noteSig = sign("sha256", Buffer.from(note), { key: this.key, dsaEncoding: "der" });
    const hint = Buffer.from(keyId(this.publicKey), "hex").subarray(0, 4);
    const entry: TlogEntry = {
      logIndex: String(index),
      logId: { keyId: Buffer.from(keyId(this.publicKey), "hex").toString("base64") },
      kindVersion: { kind: "hashedrekord", version: "0.0.1" },
      integratedTime: String(Math.floor(Date.now() / 1000)),
      inclusionPromise: { signedEntryTimestamp: "" },
      inclusionProof: {
        logIndex: String(index),
        rootHash: root.toString("base64"),
        treeSize: String(leaves.length),
        hashes: auditPath(leaves, index, 0, leaves.length).map((h) => h.toString("base64")),
        checkpoint: {
          envelope: `${note}\n— ${ORIGIN} ${Buffer.concat([hint, noteSig]).toString("base64")}\n`,
        },
      },
      canonicalizedBody: body.toString("base64"),
    };
    entry.inclusionPromise.signedEntryTimestamp = sign("sha256", setPayload(entry), {
      key: this.key,
      dsaEncoding: "der",
    }).toString("base64");
    return entry;
  }
}

/** Check an entry against log keys: its signed entry timestamp, inclusion proof and checkpoint. Returns the problem, or null. */
export function checkEntry(entry: TlogEntry, logKeys: KeyObject[]): string | null {
  const key = logKeys.find((k) => Buffer.from(keyId(k), "hex").toString("base64") === entry.logId?.keyId);
  if (!key) return "the entry's log is none of the --log-key keys";
  if (
    !verify(
      "sha256",
      setPayload(entry),
      { key, dsaEncoding: "der" },
      Buffer.from(entry.inclusionPromise.signedEntryTimestamp, "base64"),
    )
  ) {
    return "the signed entry timestamp does not verify";
  }
  const p = entry.inclusionProof;
  const root = rootFromProof(
    leafHash(Buffer.from(entry.canonicalizedBody, "base64")),
    Number(p.logIndex),
    Number(p.treeSize),
    p.hashes.map((h) => Buffer.from(h, "base64")),
  );
  if (!root || root.toString("base64") !== p.rootHash)
    return "the inclusion proof does not lead to the stated root";
  const [note, sigLine] = p.checkpoint.envelope.split("\n\n") as [string, string | undefined];
  if (`${note}\n` !== checkpointNote(Number(p.treeSize), root))
    return "the checkpoint does not state this tree";
  const sig = Buffer.from((sigLine ?? "").trim().split(" ").pop() ?? "", "base64").subarray(4);
  if (!verify("sha256", Buffer.from(`${note}\n`), { key, dsaEncoding: "der" }, sig))
    return "the checkpoint signature does not verify";
  return null;
}
