/**
 * Canon + sources -> corpus. Each source is read by the digest the canon names; a source whose bytes
 * differ is refused before anything is parsed.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildActUnits } from "./act.ts";
import { expressionIri, workIri } from "./citation.ts";
import type { Act, Corpus, RegimeCanon } from "./model.ts";
import { type ActQuality, QualityLog } from "./quality.ts";
import type { SourceAct } from "./source.ts";

export class SourceError extends Error {}

export interface Compiled {
  corpus: Corpus;
  quality: ActQuality[];
  /** Source file (relative to the sources folder) -> SHA-256, sorted by file. */
  sources: { file: string; sha256: string }[];
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function readSource(sourcesDir: string, file: string, expected: string): SourceAct {
  const path = join(sourcesDir, file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new SourceError(
      `source ${file}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  const found = sha256(bytes);
  if (found !== expected) {
    throw new SourceError(`source ${file}: SHA-256 mismatch: expected ${expected}, found ${found}`);
  }
  try {
    return JSON.parse(bytes.toString("utf8")) as SourceAct;
  } catch (e) {
    throw new SourceError(`source ${file}: not valid JSON: ${(e as Error).message}`);
  }
}

export function compile(canon: RegimeCanon, sourcesDir: string, onAct?: (id: string) => void): Compiled {
  const acts: Act[] = [];
  const units = [];
  const quality: ActQuality[] = [];
  for (const a of canon.acts) {
    onAct?.(a.id);
    const src = readSource(sourcesDir, a.source, a.sha256);
    const log = new QualityLog(a.id);
    units.push(...buildActUnits(a, src, log, canon.parser));
    quality.push(log.toJSON());
    acts.push({
      id: a.id,
      short_name: a.short_name,
      aliases: a.aliases,
      title: a.title,
      number: a.number,
      type: a.type,
      celex: a.celex,
      work_iri: workIri(a),
      expression_iri: expressionIri(a),
      jurisdiction: a.jurisdiction,
      language: a.language,
      source: a.source,
      source_sha256: a.sha256,
      entry_into_force: a.entry_into_force,
      application: a.application,
      schedule: a.schedule,
      ...(a.amended_by.length > 0 ? { amended_by: a.amended_by } : {}),
      ...(a.transposition ? { transposition: a.transposition } : {}),
    });
  }
  const sources = canon.acts
    .map((a) => ({ file: a.source, sha256: a.sha256 }))
    .sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0));
  return { corpus: { regime: canon.regime, acts, units }, quality, sources };
}
