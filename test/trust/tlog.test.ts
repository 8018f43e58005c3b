/**
 * The local transparency log (src/trust/tlog.ts): entries appended to a log folder come back with a
 * signed entry timestamp and an RFC 6962 inclusion proof that checkEntry accepts; each way an entry can
 * be wrong is named.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { generateKeyPair, readPublicKey } from "../../src/trust/keys.ts";
import { checkEntry, checkpointNote, LocalLog, rootFromProof, type TlogEntry } from "../../src/trust/tlog.ts";

const dir = mkdtempSync(join(tmpdir(), "acquis-tlog-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const log = new LocalLog(join(dir, "log"), "pw");
const entries = ["one", "two", "three", "four", "five"].map((b) => log.append(Buffer.from(b)));
const keys = [log.publicKey];

const sha = (...p: Buffer[]) => createHash("sha256").update(Buffer.concat(p)).digest();
const leaf = (b: string) => sha(Buffer.from([0]), Buffer.from(b));

describe("the local transparency log", () => {
  test("a new log is a folder with its key pair and its entries, one per line", () => {
    for (const f of ["log.pub", "log.key", "entries.jsonl"]) assert.ok(existsSync(join(dir, "log", f)), f);
    assert.equal(
      readFileSync(join(dir, "log", "entries.jsonl"), "utf8")
        .trim()
        .split("\n").length,
      5,
    );
    const reopened = new LocalLog(join(dir, "log"), "pw");
    assert.ok(reopened.publicKey.equals(log.publicKey), "an existing log keeps its key");
  });

  test("each entry is numbered, checks against the log key, and proves inclusion in the tree as it was", () => {
    assert.deepEqual(
      entries.map((e) => [e.logIndex, e.inclusionProof.treeSize]),
      [
        ["0", "1"],
        ["1", "2"],
        ["2", "3"],
        ["3", "4"],
        ["4", "5"],
      ],
    );
    for (const e of entries) assert.equal(checkEntry(e, keys), null, e.logIndex);
    assert.equal(entries[2]?.kindVersion.kind, "hashedrekord");
    assert.equal(Buffer.from(entries[1]?.canonicalizedBody ?? "", "base64").toString(), "two");
  });

  test("the inclusion proof leads to the RFC 6962 root of the leaves", () => {
    const leaves = ["one", "two", "three"].map(leaf);
    const root = sha(
      Buffer.from([1]),
      sha(Buffer.from([1]), leaves[0] as Buffer, leaves[1] as Buffer),
      leaves[2] as Buffer,
    );
    assert.equal(entries[2]?.inclusionProof.rootHash, root.toString("base64"));
    assert.equal(checkpointNote(3, root), `log.acquis.invalid\n3\n${root.toString("base64")}\n`);
    const e = entries[4] as TlogEntry;
    const path = e.inclusionProof.hashes.map((h) => Buffer.from(h, "base64"));
    assert.equal(rootFromProof(leaf("five"), 4, 5, path)?.toString("base64"), e.inclusionProof.rootHash);
    assert.equal(rootFromProof(leaf("five"), 5, 5, path), null, "an index past the tree");
    assert.equal(rootFromProof(leaf("five"), 4, 5, []), null, "a path too short");
  });

  test("an entry from another log, or altered anywhere, is refused with what is wrong", () => {
    const other = readPublicKey(generateKeyPair("x").publicPem);
    const e = entries[3] as TlogEntry;
    assert.equal(checkEntry(e, [other]), "the entry's log is none of the --log-key keys");
    const altered = (f: (x: TlogEntry) => void) => {
      const x = structuredClone(e);
      f(x);
      return checkEntry(x, keys);
    };
    assert.equal(
      altered((x) => {
        x.integratedTime = String(Number(x.integratedTime) + 1);
      }),
      "the signed entry timestamp does not verify",
    );
    assert.equal(
      altered((x) => {
        x.inclusionProof.rootHash = Buffer.alloc(32).toString("base64");
      }),
      "the inclusion proof does not lead to the stated root",
    );
    assert.equal(
      altered((x) => {
        x.inclusionProof.checkpoint.envelope = x.inclusionProof.checkpoint.envelope.replace("\n4\n", "\n5\n");
      }),
      "the checkpoint does not state this tree",
    );
    assert.equal(
      altered((x) => {
        const [note, sig] = x.inclusionProof.checkpoint.envelope.split("\n\n");
        x.inclusionProof.checkpoint.envelope = `${note}\n\n${(sig ?? "").slice(0, -6)}AAAA=\n`;
      }),
      "the checkpoint signature does not verify",
    );
  });
});
