import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { generateKeyPair, readPrivateKey } from "../release/keys.ts";
import { META_FILE } from "../release/meta.ts";
import { releaseDir } from "../release/releases.ts";
import { signRelease } from "../release/sign.ts";
import { LocalLog } from "../release/tlog.ts";
import { defaultRoot } from "./root.ts";

const password = () => process.env.COSIGN_PASSWORD ?? "";

export function registerTrust(program: Command): void {
  program
    .command("keygen")
    .description(
      "write a P-256 key pair: <prefix>.pub (PEM SubjectPublicKeyInfo) and <prefix>.key (cosign's encrypted format)",
    )
    .argument("<prefix>", "path prefix of the two files, e.g. cosign")
    .option("--force", "overwrite existing files")
    .addHelpText(
      "after",
      `
The private key is encrypted with the password in COSIGN_PASSWORD (empty allowed), as cosign does, and
cosign can use it (docs/trust.md).

Example:
  COSIGN_PASSWORD=... acquis keygen release      writes release.pub and release.key`,
    )
    .action((prefix: string, o: { force?: boolean }) => {
      const pub = `${prefix}.pub`;
      const key = `${prefix}.key`;
      for (const f of [pub, key])
        if (existsSync(f) && !o.force) throw new Error(`${f} exists; pass --force to overwrite`);
      const pair = generateKeyPair(password());
      writeFileSync(key, pair.privatePem, { mode: 0o600 });
      writeFileSync(pub, pair.publicPem);
      process.stdout.write(`wrote ${pub} and ${key}\n`);
    });

  program
    .command("sign")
    .description(
      "sign a built release: a Sigstore bundle over release-meta.yaml and a DSSE envelope over provenance.json",
    )
    .argument("<release>", "release, e.g. eu@2026.11.2")
    .requiredOption(
      "--key <cosign.key>",
      "private key (cosign's encrypted format; password in COSIGN_PASSWORD)",
    )
    .option(
      "--log <dir>",
      "also append the signature to the local transparency log in this folder (created if missing)",
    )
    .option("--root <dir>", "repository root", defaultRoot())
    .addHelpText(
      "after",
      `
Writes release-meta.yaml.sigstore.json and provenance.sigstore.json beside the release's artifacts.

Example:
  acquis sign eu@2026.11.2 --key release.key --log .acquis/log`,
    )
    .action((ref: string, o: { key: string; log?: string; root: string }) => {
      const m = /^([a-z0-9_-]+)@([A-Za-z0-9._-]+)$/u.exec(ref);
      if (!m) throw new Error(`release "${ref}" is not of the form <regime>@<tag>`);
      const dir = releaseDir(resolve(o.root), m[1] as string, m[2] as string);
      if (!existsSync(join(dir, META_FILE)))
        throw new Error(`release ${ref} is not built; run \`acquis build ${m[1]} --tag ${m[2]}\``);
      let keyText: string;
      try {
        keyText = readFileSync(o.key, "utf8");
      } catch {
        throw new Error(`--key ${o.key}: cannot read the key file`);
      }
      const key = readPrivateKey(keyText, password());
      const log = o.log ? new LocalLog(resolve(o.log), password()) : null;
      const r = signRelease(dir, key, log);
      process.stdout.write(
        `signed ${ref} with key ${r.keyId.slice(0, 16)}…${r.logged ? `; logged in ${o.log} (log key ${join(o.log as string, "log.pub")})` : ""}\n`,
      );
    });
}
