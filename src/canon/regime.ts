/**
 * Reading a regime's canon: `regimes/<regime>/regime.yaml` (the regime) and one file per act,
 * `regimes/<regime>/acts/<id>.yaml`, each checked against its JSON Schema (canon-schema.ts) with errors
 * naming file, line and key. Canon written before one file per act (every act under `acts:` in
 * regime.yaml) is still read, so a release recorded then rebuilds from its own commit.
 */
import { parse } from "yaml";
import { ActFile, CanonError, PARSER_VERSIONS, RegimeFile, validateYaml } from "./canon-schema.ts";
import type {
  ActCanon,
  ActType,
  AmendingAct,
  DateAmendment,
  RegimeCanon,
  ScheduleItem,
  StatedDate,
} from "./model.ts";
import type { Reader } from "./reader.ts";

const DATE = /^\d{4}-\d{2}-\d{2}$/u;
const ACT_TYPES: ActType[] = ["reg", "dir", "reg_del", "reg_impl", "un_reg"];

export { CanonError, PARSER_VERSIONS };

/** The canon of a regime as a commit (or the working tree) holds it. */
export function readRegimeCanon(reader: Reader, regime: string): RegimeCanon {
  const file = `regimes/${regime}/regime.yaml`;
  const text = reader.read(file);
  if (text === null) throw new CanonError(`no canon for regime "${regime}": ${file} does not exist`);
  let legacy = false;
  try {
    const doc = parse(text) as Record<string, unknown> | null;
    legacy = doc !== null && typeof doc === "object" && "acts" in doc;
  } catch {
    // validateYaml below reports the YAML error with its line
  }
  if (legacy) return parseRegime(text, file);
  const head = validateYaml(RegimeFile, text, file);
  const dir = `regimes/${regime}/acts`;
  const files = reader.list(dir).filter((f) => f.endsWith(".yaml"));
  if (files.length === 0)
    throw new CanonError(`${dir}/: no act files (<act id>.yaml) for regime "${regime}"`);
  const acts = files.map((f) => {
    const path = `${dir}/${f}`;
    const value = validateYaml(ActFile, reader.read(path) as string, path);
    if (`${value.id}.yaml` !== f)
      throw new CanonError(
        `${path}: id "${value.id}" does not match the file name; name the file ${value.id}.yaml`,
      );
    return readAct(value, path);
  });
  return {
    regime: head.regime,
    title: head.title,
    as_of: head.as_of,
    parser: head.parser ?? 1,
    licence: head.licence,
    acts,
  };
}

export function parseRegime(text: string, file: string): RegimeCanon {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new CanonError(`${file}: not valid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  const r = obj(doc, file);
  known(r, ["regime", "title", "as_of", "licence", "parser", "acts"], file);
  const acts = arr(r.acts, `${file}: acts`).map((a, i) => readAct(a, `${file}: acts[${i}]`));
  const ids = new Set<string>();
  for (const a of acts) {
    if (ids.has(a.id)) throw new CanonError(`${file}: act id "${a.id}" appears twice`);
    ids.add(a.id);
  }
  const licence = obj(r.licence, `${file}: licence`);
  return {
    regime: str(r.regime, `${file}: regime`),
    title: str(r.title, `${file}: title`),
    as_of: date(r.as_of, `${file}: as_of`),
    parser: r.parser === undefined ? 1 : parserVersion(r.parser, `${file}: parser`),
    licence: {
      corpus: str(licence.corpus, `${file}: licence.corpus`),
      attribution: str(licence.attribution, `${file}: licence.attribution`),
    },
    acts,
  };
}

const ACT_KEYS = [
  "id",
  "source",
  "sha256",
  "short_name",
  "aliases",
  "title",
  "number",
  "type",
  "celex",
  "eli",
  "jurisdiction",
  "language",
  "published",
  "entry_into_force",
  "application",
  "schedule",
  "caveats",
  "amended_by",
  "transposition",
  "notes",
];

function readAct(v: unknown, where: string): ActCanon {
  const a = obj(v, where);
  known(a, ACT_KEYS, where);
  const id = str(a.id, `${where}.id`);
  const at = `${where} (${id})`;
  const type = str(a.type, `${at}.type`) as ActType;
  if (!ACT_TYPES.includes(type))
    throw new CanonError(`${at}.type: "${type}" is not one of ${ACT_TYPES.join(", ")}`);
  const sha = str(a.sha256, `${at}.sha256`);
  if (!/^[0-9a-f]{64}$/u.test(sha)) throw new CanonError(`${at}.sha256: not a lowercase hex SHA-256`);
  const act: ActCanon = {
    id,
    source: str(a.source, `${at}.source`),
    sha256: sha,
    short_name: str(a.short_name, `${at}.short_name`),
    aliases:
      a.aliases === undefined
        ? []
        : arr(a.aliases, `${at}.aliases`).map((x, i) => str(x, `${at}.aliases[${i}]`)),
    title: str(a.title, `${at}.title`),
    number: str(a.number, `${at}.number`),
    type,
    celex: str(a.celex, `${at}.celex`),
    jurisdiction: str(a.jurisdiction, `${at}.jurisdiction`),
    language: str(a.language, `${at}.language`),
    entry_into_force: stated(a.entry_into_force, `${at}.entry_into_force`),
    application: stated(a.application, `${at}.application`),
    schedule:
      a.schedule === undefined
        ? []
        : arr(a.schedule, `${at}.schedule`).map((s, i) => step(s, `${at}.schedule[${i}]`)),
    caveats:
      a.caveats === undefined
        ? []
        : arr(a.caveats, `${at}.caveats`).map((x, i) => str(x, `${at}.caveats[${i}]`)),
    amended_by:
      a.amended_by === undefined
        ? []
        : arr(a.amended_by, `${at}.amended_by`).map((x, i) => amending(x, `${at}.amended_by[${i}]`)),
  };
  const setters: [string, DateAmendment | undefined][] = [
    ["application", act.application.set_by],
    ...act.schedule.map((s, i): [string, DateAmendment | undefined] => [`schedule[${i}]`, s.set_by]),
  ];
  for (const [key, by] of setters) {
    if (by && !act.amended_by.some((m) => m.celex === by.celex))
      throw new CanonError(
        `${at}.${key}.set_by.celex: ${by.celex} is not one of the act's amended_by (${act.amended_by.map((m) => m.celex).join(", ") || "none"})`,
      );
  }
  // Canon recorded before transposition deadlines were carried still builds: a directive without one is
  // reported in quality.json (`transposition_missing`), and test/release/canon-amendments.test.ts holds the
  // current canon to naming every directive's deadline.
  if (a.transposition !== undefined) act.transposition = stated(a.transposition, `${at}.transposition`);
  if (act.transposition?.set_by && !act.amended_by.some((m) => m.celex === act.transposition?.set_by?.celex))
    throw new CanonError(
      `${at}.transposition.set_by.celex: ${act.transposition.set_by.celex} is not one of the act's amended_by`,
    );
  if (a.eli !== undefined) act.eli = str(a.eli, `${at}.eli`);
  else if (type !== "un_reg") throw new CanonError(`${at}.eli: required for an EU act`);
  if (a.published !== undefined) act.published = date(a.published, `${at}.published`);
  if (a.notes !== undefined) act.notes = str(a.notes, `${at}.notes`);
  return act;
}

function parserVersion(v: unknown, where: string): number {
  if (typeof v !== "number" || !(PARSER_VERSIONS as readonly number[]).includes(v))
    throw new CanonError(
      `${where}: ${JSON.stringify(v)} is not one of the parser versions ${PARSER_VERSIONS.join(", ")}`,
    );
  return v;
}

/** A date and where it is stated: a provision of the act, or (when no article states it) a basis. */
function stated(v: unknown, where: string): StatedDate {
  const o = obj(v, where);
  known(o, ["date", "provision", "basis", "set_by"], where);
  const out: StatedDate = { date: date(o.date, `${where}.date`) };
  if (o.provision !== undefined) out.provision = str(o.provision, `${where}.provision`);
  if (o.basis !== undefined) out.basis = str(o.basis, `${where}.basis`);
  if (o.set_by !== undefined) out.set_by = dateAmendment(o.set_by, `${where}.set_by`);
  if (out.provision === undefined && out.basis === undefined) {
    throw new CanonError(`${where}: name the provision that states the date, or its basis`);
  }
  return out;
}

const CELEX = /^3\d{4}[LRD]\d{4}$/u;

function amending(v: unknown, where: string): AmendingAct {
  const o = obj(v, where);
  known(o, ["celex", "title", "published", "provision", "changes", "amends_text"], where);
  const celex = str(o.celex, `${where}.celex`);
  if (!CELEX.test(celex))
    throw new CanonError(`${where}.celex: "${celex}" is not the CELEX number of an act (3YYYYLNNNN)`);
  const out: AmendingAct = {
    celex,
    title: str(o.title, `${where}.title`),
    published: date(o.published, `${where}.published`),
    provision: str(o.provision, `${where}.provision`),
    changes: str(o.changes, `${where}.changes`),
  };
  if (o.amends_text !== undefined)
    out.amends_text = arr(o.amends_text, `${where}.amends_text`).map((x, i) =>
      str(x, `${where}.amends_text[${i}]`),
    );
  return out;
}

function step(v: unknown, where: string): ScheduleItem {
  const o = obj(v, where);
  known(o, ["from", "until", "scope", "except", "provision", "source_defect", "set_by", "basis"], where);
  const out: ScheduleItem = {
    from: date(o.from, `${where}.from`),
    scope: arr(o.scope, `${where}.scope`).map((x, i) => str(x, `${where}.scope[${i}]`)),
    provision: str(o.provision, `${where}.provision`),
  };
  if (o.until !== undefined) out.until = date(o.until, `${where}.until`);
  if (o.except !== undefined)
    out.except = arr(o.except, `${where}.except`).map((x, i) => str(x, `${where}.except[${i}]`));
  if (o.source_defect !== undefined) out.source_defect = str(o.source_defect, `${where}.source_defect`);
  if (o.basis !== undefined) out.basis = str(o.basis, `${where}.basis`);
  if (o.set_by !== undefined) out.set_by = dateAmendment(o.set_by, `${where}.set_by`);
  return out;
}

function dateAmendment(v: unknown, where: string): DateAmendment {
  const b = obj(v, where);
  known(b, ["celex", "provision", "original_from"], where);
  return {
    celex: str(b.celex, `${where}.celex`),
    provision: str(b.provision, `${where}.provision`),
    original_from: date(b.original_from, `${where}.original_from`),
  };
}

/** A canon key nobody reads is a typo waiting to be trusted: refuse it. */
function known(o: Record<string, unknown>, keys: string[], where: string): void {
  for (const k of Object.keys(o)) {
    if (!keys.includes(k)) throw new CanonError(`${where}: unknown key "${k}" (known: ${keys.join(", ")})`);
  }
}

function obj(v: unknown, where: string): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v))
    throw new CanonError(`${where}: expected a mapping`);
  return v as Record<string, unknown>;
}

function arr(v: unknown, where: string): unknown[] {
  if (!Array.isArray(v)) throw new CanonError(`${where}: expected a list`);
  return v;
}

function str(v: unknown, where: string): string {
  if (typeof v === "number") return String(v);
  if (typeof v !== "string" || v === "") throw new CanonError(`${where}: expected a non-empty string`);
  return v;
}

function date(v: unknown, where: string): string {
  // YAML 1.2 core schema (the `yaml` default) reads 2024-08-01 as a string, which is what we want.
  const s = str(v, where);
  if (!DATE.test(s)) throw new CanonError(`${where}: "${s}" is not a YYYY-MM-DD date`);
  return s;
}
