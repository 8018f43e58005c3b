/**
 * The verification options `serve`, `pull` and `verify` share: accepted signer keys (which replace the
 * trust roster), transparency-log keys, the roster file, and the checkout.
 */
import type { KeyObject } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { readPublicKey } from "../trust/keys.ts";
import { parseRoster, type TrustOptions } from "../trust/verify.ts";
import { defaultRoot } from "./root.ts";

const collect = (v: string, prev: string[]) => [...prev, v];

/**
 * Where `acquis keygen` writes this machine's key pair and `acquis sign` reads it: outside any
 * checkout, under the user's configuration folder ($XDG_CONFIG_HOME or ~/.config).
 */
export function defaultKeyPrefix(): string {
  const config = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(config, "acquis", "keys", "release");
}

export function trustFlags(cmd: Command): Command {
  return cmd
    .option(
      "--key <cosign.pub>",
      "signing key to accept (repeatable; replaces the trust roster)",
      collect,
      [],
    )
    .option("--log-key <log.pub>", "transparency-log key to accept (repeatable)", collect, [])
    .option("--trust <file>", "trust roster (default: <root>/config/trust.yaml)")
    .option("--root <dir>", "repository root", defaultRoot());
}

/** Public keys given on the command line: each file must exist and hold a PEM public key. */
function readKeyFiles(files: string[], option: string): KeyObject[] {
  return files.map((f) => {
    let text: string;
    try {
      text = readFileSync(f, "utf8");
    } catch {
      throw new Error(`${option} ${f}: cannot read the key file`);
    }
    try {
      return readPublicKey(text);
    } catch {
      throw new Error(`${option} ${f}: not a PEM public key`);
    }
  });
}

/** The trust options every verifying command reads the same way. */
export function trustOptions(o: {
  root: string;
  key: string[];
  logKey: string[];
  trust?: string;
  insecureSkipVerify?: boolean;
}): TrustOptions {
  const rosterFile = o.trust ? resolve(o.trust) : join(o.root, "config", "trust.yaml");
  if (o.trust !== undefined && !existsSync(rosterFile)) throw new Error(`--trust ${o.trust}: no such file`);
  const own = `${defaultKeyPrefix()}.pub`;
  return {
    root: o.root,
    keys: readKeyFiles(o.key, "--key"),
    ownKey: existsSync(own) ? (readKeyFiles([own], "this machine's key")[0] ?? null) : null,
    logKeys: readKeyFiles(o.logKey, "--log-key"),
    roster: existsSync(rosterFile) ? parseRoster(readFileSync(rosterFile, "utf8"), rosterFile) : [],
    skip: o.insecureSkipVerify ?? false,
  };
}
