/**
 * Dates as acts write them ("12 January 2027") and as a release stores them ("2027-01-12"), read in one
 * place for the parser's validity repairs, the quality checks and the atoms' date constants.
 */

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A written date as three regex groups: day, month name, year. */
export const WRITTEN_DATE = `(\\d{1,2}) (${MONTHS.join("|")}) (\\d{4})`;

/** "12", "January", "2027" → "2027-01-12"; the month name in any case. */
export function isoDate(day: string, month: string, year: string): string {
  const m = MONTHS.findIndex((x) => x.toLowerCase() === month.toLowerCase()) + 1;
  return `${year}-${String(m).padStart(2, "0")}-${day.padStart(2, "0")}`;
}

/** The day after an ISO date: the exclusive end of a period that includes that day. */
export function dayAfter(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
