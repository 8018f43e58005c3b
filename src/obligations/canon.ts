/**
 * The obligations canon of a regime, read from one commit (for a build) or from the working tree
 * (for `acquis atoms sync`): taxonomy, actor map, profiles, derogations and the atom ledger.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { existsAtCommit, listAtCommit, readAtCommit } from "../release/git.ts";
import { type Derogation, type Profile, parseDerogations, parseProfile } from "./applicability.ts";
import { type Ledger, parseLedger } from "./ledger.ts";
import { parseTaxonomy, type Taxonomy } from "./taxonomy.ts";

export interface ObligationsCanon {
  taxonomy: Taxonomy;
  profiles: Profile[];
  derogations: Derogation[];
  ledger: Ledger | null;
}

interface Reader {
  read(path: string): string | null;
  list(dir: string): string[];
}

export function atCommit(root: string, commit: string): Reader {
  return {
    read: (p) => (existsAtCommit(root, commit, p) ? readAtCommit(root, commit, p) : null),
    list: (d) => listAtCommit(root, commit, d),
  };
}

export function inWorkingTree(root: string): Reader {
  return {
    read: (p) => (existsSync(join(root, p)) ? readFileSync(join(root, p), "utf8") : null),
    list: (d) => (existsSync(join(root, d)) ? readdirSync(join(root, d)).sort() : []),
  };
}

export function readObligationsCanon(reader: Reader, regime: string): ObligationsCanon {
  const dir = `regimes/${regime}`;
  const taxonomy = parseTaxonomy(reader.read(`${dir}/taxonomy.yaml`), reader.read(`${dir}/actors.yaml`), dir);
  const profiles = reader
    .list(`${dir}/profiles`)
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => parseProfile(reader.read(`${dir}/profiles/${f}`) as string, `${dir}/profiles/${f}`));
  const derogationsText = reader.read(`${dir}/derogations.yaml`);
  const derogations = derogationsText ? parseDerogations(derogationsText, `${dir}/derogations.yaml`) : [];
  const lockText = reader.read(`${dir}/atoms.lock`);
  const ledger = lockText ? parseLedger(lockText, `${dir}/atoms.lock`) : null;
  const known = new Set(taxonomy.types.map((t) => t.id));
  for (const p of profiles) {
    for (const t of p.entity_types)
      if (!known.has(t)) throw new Error(`${dir}/profiles: profile ${p.id} names unknown entity type ${t}`);
  }
  return { taxonomy, profiles, derogations, ledger };
}
