import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { META_FILE } from "../release/meta.ts";
import { releaseDir } from "../release/releases.ts";
import { generateKeyPair, readPrivateKey } from "../trust/keys.ts";
import { signRelease } from "../trust/sign.ts";
import { LocalLog } from "../trust/tlog.ts";
import { defaultRoot } from "./root.ts";
import { defaultKeyPrefix } from "./trust-options.ts";

const password = () => process.env.COSIGN_PASSWORD ?? "";

/** The work tree holding `file` when git would track it (inside a tree, not ignored), else null. */
function trackedByGit(file: string): string | null {
  const top = spawnSync("git", ["-C", dirname(file), "rev-parse", "--show-toplevel"], { encoding: "utf8" });
  if (top.status !== 0) return null;
  const ignored = spawnSync("git", ["-C", dirname(file), "check-ignore", "-q", file]);
  return ignored.status === 0 ? null : top.stdout.trim();
}

export function registerTrust(program: Command): void {
  program
    .command("keygen")
    .description(
      "write a P-256 key pair: <prefix>.pub (PEM SubjectPublicKeyInfo) and <prefix>.key (cosign's encrypted format, mode 0600)",
    )
    .argument("[prefix]", "path prefix of the two files", defaultKeyPrefix())
    .addHelpText(
      "after",
      `
The private key is encrypted with the password in COSIGN_PASSWORD (empty allowed), as cosign does, and
cosign can use it (docs/trust.md). By default the pair is written outside any checkout, under
$XDG_CONFIG_HOME/acquis/keys (or ~/.config/acquis/keys). A private key is never written inside a git
work tree unless git ignores that path, and never over an existing file.

Example:
  COSIGN_PASSWORD=... acquis keygen              writes ~/.config/acquis/keys/release.{pub,key}
  COSIGN_PASSWORD=... acquis keygen /secure/release`,
    )
    .action((prefix: string) => {
      const pub = resolve(`${prefix}.pub`);
      const key = resolve(`${prefix}.key`);
      for (const f of [pub, key])
        if (existsSync(f)) throw new Error(`${f} exists; keygen never overwrites a key (move it away first)`);
      mkdirSync(dirname(key), { recursive: true, mode: 0o700 });
      const tracked = trackedByGit(key);
      if (tracked)
        throw new Error(
          `${key} is inside the git work tree ${tracked} and not ignored by git: a private key there is one \`git add -A\` from being published; choose a path outside the checkout (the default is ${defaultKeyPrefix()})`,
        );
      const pair = generateKeyPair(password());
      writeFileSync(key, pair.privatePem, { mode: 0o600, flag: "wx" });
      writeFileSync(pub, pair.publicPem, { flag: "wx" });
      process.stdout.write(`wrote ${pub} and ${key} (mode 0600)\n`);
    });

  program
    .command("sign")
    .description(
      "sign a built release: a Sigstore bundle over release-meta.yaml and a DSSE envelope over provenance.json",
    )
    .argument("<release>", "release, e.g. eu@2026.11.2")
    .option(
      "--key <cosign.key>",
      "private key (cosign's encrypted format; password in COSIGN_PASSWORD); default: the one `acquis keygen` wrote",
      `${defaultKeyPrefix()}.key`,
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
        throw new Error(`--key ${o.key}: cannot read the key file (make a pair with \`acquis keygen\`)`);
      }
      const key = readPrivateKey(keyText, password());
      const log = o.log ? new LocalLog(resolve(o.log), password()) : null;
      const r = signRelease(dir, key, log);
      process.stdout.write(
        `signed ${ref} with key ${r.keyId.slice(0, 16)}…${r.logged ? `; logged in ${o.log} (log key ${join(o.log as string, "log.pub")})` : ""}\n`,
      );
    });
}
