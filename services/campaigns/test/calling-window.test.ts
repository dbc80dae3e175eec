// Tier 1: the calling window in the lead's own time zone, on a moved clock: open inside the hours of
// a listed day, and otherwise exactly how long until it next opens (across days, weeks and DST).
import { windowOpensInMs } from '../src/domain/calling-window.js';

const weekdays = { days: ['mon', 'tue', 'wed', 'thu', 'fri'] as ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[], start: '09:00', end: '17:00', time_zone: 'UTC' };
const at = (iso: string) => Date.parse(iso);
const hours = (n: number) => n * 3_600_000;

test('open inside the hours of a listed day, in the window zone for a lead without one', () => {
  // Tuesday 2026-11-24.
  expect(windowOpensInMs(weekdays, null, at('2026-11-24T09:00:00Z'))).toBe(0);
  expect(windowOpensInMs(weekdays, null, at('2026-11-24T16:59:59Z'))).toBe(0);
  expect(windowOpensInMs(weekdays, null, at('2026-11-24T17:00:00Z'))).toBe(hours(16));
  expect(windowOpensInMs(weekdays, null, at('2026-11-24T08:30:00Z'))).toBe(hours(0.5));
});

test('the lead’s own zone decides, not the window’s', () => {
  // 15:00 UTC is 10:00 in New York (EST) and 00:00 next day in Tokyo.
  const now = at('2026-11-24T15:00:00Z');
  expect(windowOpensInMs(weekdays, 'America/New_York', now)).toBe(0);
  expect(windowOpensInMs(weekdays, 'Asia/Tokyo', now)).toBe(hours(9));
  expect(windowOpensInMs({ ...weekdays, time_zone: 'Asia/Tokyo' }, null, now)).toBe(hours(9));
});

test('a closed day waits for the next listed one', () => {
  // Friday 17:30 UTC: Monday 09:00 is 2 days 15.5 hours away.
  expect(windowOpensInMs(weekdays, 'UTC', at('2026-11-27T17:30:00Z'))).toBe(hours(63.5));
  // Only Sundays, on a Sunday after hours: a week less the hours passed.
  expect(windowOpensInMs({ ...weekdays, days: ['sun'] }, 'UTC', at('2026-11-29T18:00:00Z'))).toBe(hours(24 * 7 - 9));
});

test('across a change of offset the local opening time holds', () => {
  // Berlin leaves summer time on 2026-10-25 (03:00 CEST -> 02:00 CET): Saturday 18:00 CEST to Monday 09:00 CET.
  const saturdayEvening = at('2026-10-24T16:00:00Z');
  expect(windowOpensInMs(weekdays, 'Europe/Berlin', saturdayEvening)).toBe(at('2026-10-26T08:00:00Z') - saturdayEvening);
  // New York enters summer time on 2026-03-08: Sunday 12:00 EST to Monday 09:00 EDT (13:00 UTC).
  const sundayNoon = at('2026-03-08T17:00:00Z');
  expect(windowOpensInMs(weekdays, 'America/New_York', sundayNoon)).toBe(at('2026-03-09T13:00:00Z') - sundayNoon);
});
