/**
 * Point in time: every unit gets `valid_from`/`valid_to` from its act's own final provisions.
 *
 * A unit applies from the date of the most specific schedule step that covers it (its own eId, else
 * its nearest ancestor, by containment), unless that step excepts it; otherwise from the act's general
 * date of application. When several steps name the same eId (staging by category of addressee: "from
 * 2029 for A, from 2031 for B"), the provision applies from the earliest. Recitals are part of the act
 * from its entry into force. A provision of another act ("nis2/art_43") may end a scope.
 */

import { dayAfter, isoDate, WRITTEN_DATE } from "./dates.ts";
import type { ActCanon, AmendingAct, ScheduleItem, Unit } from "./model.ts";
import type { QualityLog } from "./quality.ts";

export function resolveValidity(canon: ActCanon, units: Unit[], log: QualityLog, parser = 1): void {
  const byNode = new Map(units.map((u) => [u.node, u]));
  const byEid = new Set(units.map((u) => u.eid));
  for (const item of canon.schedule) {
    for (const eid of [...item.scope, ...(item.except ?? [])]) {
      if (!byEid.has(eid)) {
        log.defect(
          "schedule_scope_unresolved",
          eid,
          `schedule step from ${item.from} (${item.provision}) names ${eid}, which the text lacks`,
        );
      }
    }
    if (!item.provision.includes("/") && !byEid.has(item.provision)) {
      log.defect(
        "schedule_provision_unresolved",
        item.provision,
        `schedule step from ${item.from} cites ${item.provision}, which the text lacks`,
      );
    }
    if (item.source_defect) log.defect("source_lost_date", item.provision, item.source_defect);
  }
  for (const caveat of canon.caveats) log.defect("canon_caveat", null, caveat);
  for (const m of canon.amended_by)
    for (const eid of m.amends_text ?? [])
      if (!byEid.has(eid))
        log.defect(
          "amendment_unit_unresolved",
          eid,
          `${m.title} is said to amend ${eid}, which the text lacks`,
        );
  if (canon.type === "dir" && !canon.transposition)
    log.defect("transposition_missing", null, "a directive whose canon names no transposition deadline");
  if (canon.transposition?.provision && !byEid.has(canon.transposition.provision))
    log.defect(
      "transposition_provision_unresolved",
      canon.transposition.provision,
      `the transposition deadline ${canon.transposition.date} cites ${canon.transposition.provision}, which the text lacks`,
    );
  for (const u of units) {
    // A directive binds firms through the national law that transposes it, never by itself.
    if (canon.type === "dir" && canon.transposition && u.kind !== "recital") {
      u.binding = "through national law";
      u.transposition_deadline = canon.transposition.date;
    }
    if (u.kind === "recital") {
      u.valid_from = canon.entry_into_force.date;
      u.valid_to = null;
      continue;
    }
    const step = governingStep(canon.schedule, u, byNode);
    u.valid_from = step ? step.from : canon.application.date;
    u.valid_to = step?.until ?? null;
    if (step?.until) u.ended_by = step.provision;
    if (parser >= 3) dateInText(u, log);
    if (parser >= 4) untilInText(u, log);
    const dated = step ? step.set_by : canon.application.set_by;
    const changes = [
      ...(dated ? [{ by: dated.celex, what: "date" as const, provision: dated.provision }] : []),
      ...textAmendments(canon, u, byNode).map((m) => ({
        by: m.celex,
        what: "text" as const,
        provision: m.provision,
      })),
    ];
    if (changes.length > 0)
      u.amended_by = changes.map((c) => {
        const act = canon.amended_by.find((m) => m.celex === c.by) as AmendingAct;
        return { celex: act.celex, title: act.title, what: c.what, provision: c.provision };
      });
  }
}

/** The amending acts that changed the text of the unit or of a unit it sits in. */
function textAmendments(canon: ActCanon, unit: Unit, byNode: Map<string, Unit>): AmendingAct[] {
  return canon.amended_by.filter((m) => {
    for (let u: Unit | undefined = unit; u; u = u.parent ? byNode.get(u.parent) : undefined)
      if (m.amends_text?.includes(u.eid)) return true;
    return false;
  });
}

function governingStep(schedule: ScheduleItem[], unit: Unit, byNode: Map<string, Unit>): ScheduleItem | null {
  // Walk from the unit up through its ancestors; the first eId a step names decides, among the steps
  // that do not except the unit or an ancestor passed on the way ("Titles III and IV apply from 30 June
  // 2024, except Article 17(8)" leaves Art 17(8) to the step that names it, MiCA Art 149(3)-(4)).
  const excepting = new Set<ScheduleItem>();
  for (let u: Unit | undefined = unit; u; u = u.parent ? byNode.get(u.parent) : undefined) {
    for (const s of schedule) if (s.except?.includes(u.eid)) excepting.add(s);
    const steps = schedule.filter((s) => s.scope.includes(u.eid) && !excepting.has(s));
    if (steps.length > 0) return steps.reduce((a, b) => (b.from < a.from ? b : a));
  }
  return null;
}

const DAY = WRITTEN_DATE;
/** A provision that opens with the date it governs from: "From 12 January 2027, providers … shall not …". */
const OPENS_WITH_DATE = new RegExp(`^(?:As )?[Ff]rom ${DAY}(?: to ${DAY})?,`, "u");
const OPENS_WITH_UNTIL = new RegExp(`^Until ${DAY},`, "u");

/**
 * Parser 3: a date written at the head of a provision governs it when it is later than its act's date
 * (Data Act Art 29(1), CSDDD Art 17(1), RED Art 5(1)); "from A to B" also ends it after B, the last day
 * the period includes. A date earlier than the act's own is the act's business, not the provision's.
 */
function dateInText(u: Unit, log: QualityLog): void {
  const m = OPENS_WITH_DATE.exec(u.own_text);
  if (!m) return;
  const from = isoDate(m[1] as string, m[2] as string, m[3] as string);
  if (from > u.valid_from) {
    log.repair("date_in_text", u.eid, `"${m[0]}": applies from ${from}, not ${u.valid_from}`);
    u.valid_from = from;
  }
  if (m[4]) endsAfter(u, isoDate(m[4], m[5] as string, m[6] as string), m[0], log);
}

/** Parser 4: "Until 3 July 2020, …" states the last day the provision applies (a transitional rule). */
function untilInText(u: Unit, log: QualityLog): void {
  const m = OPENS_WITH_UNTIL.exec(u.own_text);
  if (m) endsAfter(u, isoDate(m[1] as string, m[2] as string, m[3] as string), m[0], log);
}

/** The provision stops applying after `last`, unless something ends it earlier. */
function endsAfter(u: Unit, last: string, words: string, log: QualityLog): void {
  const until = dayAfter(last);
  if (u.valid_to === null || until < u.valid_to) {
    log.repair("date_in_text", u.eid, `"${words}": applies until ${until} (exclusive)`);
    u.valid_to = until;
    u.ended_by = u.eid;
  }
}
