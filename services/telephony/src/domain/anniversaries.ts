// Monthly anniversaries of a purchase, in UTC: the same day of the month and time of day, on the
// month's last day where the month is shorter (bought on 31 January: due 29 February, 31 March).
// Each is computed from the purchase, never from the previous one, so a short month does not move
// the day for good.

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** The `months`-th anniversary of `start` (0 is `start` itself). */
export function anniversary(start: Date, months: number): Date {
  const totalMonths = start.getUTCFullYear() * 12 + start.getUTCMonth() + months;
  const year = Math.floor(totalMonths / 12);
  const month = totalMonths - year * 12;
  const day = Math.min(start.getUTCDate(), daysInMonth(year, month));
  return new Date(Date.UTC(year, month, day, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()));
}

/** The number of the last anniversary of `start` at or before `at` (0 before the first month is over). */
export function monthsElapsed(start: Date, at: Date): number {
  let months = Math.max(0, (at.getUTCFullYear() - start.getUTCFullYear()) * 12 + at.getUTCMonth() - start.getUTCMonth());
  while (months > 0 && anniversary(start, months).getTime() > at.getTime()) months -= 1;
  return months;
}
