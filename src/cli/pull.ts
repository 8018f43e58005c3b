import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import canonicalize from "canonicalize";
import type { Command } from "commander";
import { sha256 } from "../canon/compile.ts";
import type { AnswerRequest } from "../contract/schemas.ts";
import { answer } from "../engine/answer.ts";
import { bootEngine, readDisclaimer } from "../serve/boot.ts";
import { payloadBytes } from "../serve/state.ts";
import { DEFAULT_MAX_BYTES, pull } from "../trust/pull.ts";
import { trustFlags, trustOptions } from "./trust-options.ts";

interface TrustFlags {
  maxBytes?: string;
  key: string[];
  logKey: string[];
  trust?: string;
  root: string;
}

export function registerPull(program: Command): void {
  trustFlags(
    program
      .command("pull")
      .description(
        "verify a release (signature chain, digests, provenance), then install it into the checkout",
      )
      .argument("<source>", "a release directory, a .tar.gz of one, or an http(s):// URL of such an archive")
      .option("--max-bytes <n>", `cap on the bytes downloaded and unpacked (default ${DEFAULT_MAX_BYTES})`),
  )
    .addHelpText(
      "after",
      `
Only a signed release is installed: a release from elsewhere is never a build of this checkout. A
release that fails any check is not installed, and no partial directory is left. Redirects are not
followed; archives may hold only plain files and folders; only the files release-meta.yaml declares are
taken, each no larger than declared.

Example:
  acquis pull https://releases.example/eu-2026.11.2.tar.gz --key release.pub --log-key log.pub`,
    )
    .action(pullRelease);

  trustFlags(
    program
      .command("verify")
      .description(
        "check a stored answer against its release: the release it names is here and verified, and answering again gives the same body",
      )
      .argument(
        "<answer.json>",
        "a response body of POST /v1/answer (or search_regulation's structuredContent)",
      ),
  ).action(verifyAnswer);
}

/** `acquis pull`: the release verified and installed, and what was checked. */
async function pullRelease(source: string, o: TrustFlags): Promise<void> {
  const root = resolve(o.root);
  const maxBytes = o.maxBytes === undefined ? undefined : Number(o.maxBytes);
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes > 0))
    throw new Error(`--max-bytes ${o.maxBytes}: not a positive whole number of bytes`);
  const r = await pull(source, root, trustOptions({ ...o, root }), { maxBytes });
  const checks = r.verification.checks.join(", ");
  process.stdout.write(
    `${r.installed ? "installed" : "already installed"} ${r.regime}@${r.tag} in ${r.dir}\n  verified (${r.verification.mode}): ${checks}${r.verification.key_id ? `; signer ${r.verification.key_id}` : ""}\n`,
  );
}

/** A response body of POST /v1/answer as stored: the release it was answered from, and the request echoed. */
type StoredAnswer = Record<string, unknown> & {
  corpus?: { regime?: string; tag?: string; release_meta_sha256?: string };
  request?: Record<string, unknown>;
};

/** The request an answer echoes, as POST /v1/answer writes it. */
type EchoedRequest = {
  query: string;
  as_of: string;
  as_of_defaulted: boolean;
  release: string;
  release_defaulted: boolean;
  matches: number;
  mode: AnswerRequest["mode"];
  filters: Record<string, unknown>;
};

/**
 * `acquis verify`: the release a stored answer names (by the SHA-256 of its release-meta.yaml) is here
 * and verifies, and answering the echoed request again gives the same body. Exits 1 on a mismatch.
 */
function verifyAnswer(file: string, o: TrustFlags): void {
  const root = resolve(o.root);
  let stored: StoredAnswer;
  try {
    stored = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: not a JSON answer (${(e as Error).message})`);
  }
  const corpus = stored.corpus;
  if (!corpus?.release_meta_sha256 || !corpus.regime || !stored.request)
    throw new Error(`${file}: not an answer of the serving API (no corpus or request)`);
  const dir = releaseWithMeta(root, corpus.regime, corpus.release_meta_sha256);
  const lines = [
    `release: ${corpus.regime}@${corpus.tag}, release-meta.yaml sha256 ${corpus.release_meta_sha256} found in ${dir}`,
  ];
  const { engine, scope } = bootEngine({
    dir,
    root,
    trust: trustOptions({ ...o, root }),
    disclaimer: readDisclaimer(root),
  });
  const v = engine.stamps.verification as { mode: string; checks: string[]; key_id?: string };
  lines.push(`verified (${v.mode}): ${v.checks.join(", ")}${v.key_id ? `; signer ${v.key_id}` : ""}`);
  const req = stored.request as EchoedRequest;
  const fresh = JSON.parse(payloadBytes(answer(engine, scope, askedAgain(req), req.as_of))) as Record<
    string,
    unknown
  >;
  // The verification stamp says how the answering server checked the release; this command checks it itself.
  const strip = (x: Record<string, unknown>) => canonicalize({ ...x, verification: null });
  const same = strip(fresh) === strip(stored);
  lines.push(
    same
      ? "answer: answering the echoed request again gives the identical body"
      : "answer: MISMATCH: the release answers the echoed request differently",
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  if (!same) process.exit(1);
}

/** The release of the regime whose release-meta.yaml has this SHA-256; it must be in the checkout. */
function releaseWithMeta(root: string, regime: string, metaSha256: string): string {
  const releases = join(root, "regimes", regime, "releases");
  const dir = existsSync(releases)
    ? readdirSync(releases)
        .map((t) => join(releases, t))
        .find(
          (d) =>
            existsSync(join(d, "release-meta.yaml")) &&
            sha256(readFileSync(join(d, "release-meta.yaml"))) === metaSha256,
        )
    : undefined;
  if (!dir)
    throw new Error(`no release in ${releases} has release-meta.yaml SHA-256 ${metaSha256}; pull it first`);
  return dir;
}

/** The echoed request asked again, with defaults left out as the original left them out. */
function askedAgain(req: EchoedRequest): AnswerRequest {
  const filters = Object.fromEntries(
    Object.entries(req.filters ?? {}).filter(
      ([k, val]) =>
        val !== null &&
        !(Array.isArray(val) && val.length === 0 && k.startsWith("exclude_")) &&
        k !== "entity_profile",
    ),
  );
  return {
    query: req.query,
    matches: req.matches,
    mode: req.mode,
    ...(req.as_of_defaulted ? {} : { as_of: req.as_of }),
    ...(req.release_defaulted ? {} : { release: req.release }),
    ...(typeof req.filters?.entity_profile === "string"
      ? { entity_profile: req.filters.entity_profile }
      : {}),
    ...(Object.keys(filters).length > 0 ? { filters } : {}),
  };
}
