/**
 * The obligations canon of a regime, read from one commit (for a build) or from the working tree
 * (for `acquis atoms sync`): taxonomy, actor map, fact schema, act scope, profiles, derogations and the
 * atom ledger. Everything is checked as it is read: a profile naming an unknown type or fact, or a
 * condition with an unknown operator, is refused with the file and the key.
 *
 * `facts.yaml` and `scope.yaml` arrived with the signable registers; a commit without them is read as
 * it was written (no fact schema, no act scope), so older tags rebuild byte for byte.
 */
import { parse } from "yaml";
import type { Reader } from "../canon/reader.ts";
import { type FactSchema, parseFactSchema } from "./facts.ts";
import { type Ledger, parseLedger } from "./ledger.ts";
import { type Derogation, type Profile, parseDerogations, parseProfile } from "./profiles.ts";
import { NO_SCOPE, parseScope, type Scope } from "./scope.ts";
import { parseTaxonomy, type Taxonomy } from "./taxonomy.ts";

export interface ObligationsCanon {
  taxonomy: Taxonomy;
  profiles: Profile[];
  derogations: Derogation[];
  ledger: Ledger | null;
  /** Null for a canon written before fact schemas. */
  facts: FactSchema | null;
  scope: Scope;
  /** Whether the canon has scope.yaml (a release records scope only then). */
  hasScope: boolean;
}

export function readObligationsCanon(reader: Reader, regime: string): ObligationsCanon {
  const dir = `regimes/${regime}`;
  const taxonomy = parseTaxonomy(reader.read(`${dir}/taxonomy.yaml`), reader.read(`${dir}/actors.yaml`), dir);
  const factsText = reader.read(`${dir}/facts.yaml`);
  const facts = factsText ? parseFactSchema(parse(factsText), `${dir}/facts.yaml`) : null;
  const scopeText = reader.read(`${dir}/scope.yaml`);
  const types = new Set(taxonomy.types.map((t) => t.id));
  const scope = scopeText ? parseScope(scopeText, `${dir}/scope.yaml`, facts, types) : NO_SCOPE;
  const profiles = reader
    .list(`${dir}/profiles`)
    .filter((f) => f.endsWith(".yaml"))
    .map((f) =>
      parseProfile(
        reader.read(`${dir}/profiles/${f}`) as string,
        `${dir}/profiles/${f}`,
        facts,
        facts ? taxonomy : null,
      ),
    );
  const derogationsText = reader.read(`${dir}/derogations.yaml`);
  const derogations = derogationsText
    ? parseDerogations(derogationsText, `${dir}/derogations.yaml`, facts)
    : [];
  for (const d of derogations)
    for (const t of d.exempts.entity_types ?? [])
      if (!types.has(t))
        throw new Error(`${dir}/derogations.yaml: derogation ${d.id} names unknown entity type ${t}`);
  const lockText = reader.read(`${dir}/atoms.lock`);
  const ledger = lockText ? parseLedger(lockText, `${dir}/atoms.lock`) : null;
  const known = new Set(taxonomy.types.map((t) => t.id));
  for (const p of profiles) {
    for (const t of p.entity_types)
      if (!known.has(t)) throw new Error(`${dir}/profiles: profile ${p.id} names unknown entity type ${t}`);
  }
  return { taxonomy, profiles, derogations, ledger, facts, scope, hasScope: scopeText !== null };
}
