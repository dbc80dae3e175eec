// The callback time rules: in the future, at most 90 days ahead, within 08:00-21:00 in the person's
// zone (across an offset change too), and expired once held past the grace period.
import { callbackExpired, callbackHoursOpenInMs, callbackTimeIssue, callbackZone } from '../src/domain/callback-time.js';

const window = { days: ['mon' as const], start: '09:00', end: '17:00', time_zone: 'Europe/Berlin' };
const at = (iso: string) => Date.parse(iso);
const now = at('2026-11-24T12:00:00.000Z');

test('the zone is the lead’s, else the given one, else the one the number names, else the campaign window’s', () => {
  expect(callbackZone('America/New_York', 'Asia/Tokyo', '+14155550123', window)).toBe('America/New_York');
  expect(callbackZone(null, 'Asia/Tokyo', '+14155550123', window)).toBe('Asia/Tokyo');
  // San Francisco's prefix names one zone; +1 500 names several, so none is derived.
  expect(callbackZone(null, null, '+14155550123', window)).toBe('America/Los_Angeles');
  expect(callbackZone(null, null, '+15005550123', window)).toBe('Europe/Berlin');
});

test('a time must be ahead, at most 90 days, and within the calling hours of the zone', () => {
  expect(callbackTimeIssue(now, now, 'UTC')).toBe('must be in the future');
  expect(callbackTimeIssue(now + 91 * 86_400_000, now, 'UTC')).toMatch(/90 days/);
  // 20:59 in New York (EST, UTC-5) is within the hours, 21:00 is not, 08:00 is again.
  expect(callbackTimeIssue(at('2026-11-25T01:59:00.000Z'), now, 'America/New_York')).toBeUndefined();
  expect(callbackTimeIssue(at('2026-11-25T02:00:00.000Z'), now, 'America/New_York')).toMatch(/between 08:00 and 21:00/);
  expect(callbackTimeIssue(at('2026-11-25T13:00:00.000Z'), now, 'America/New_York')).toBeUndefined();
  // The same instant in Tokyo is 22:00: outside.
  expect(callbackTimeIssue(at('2026-11-25T13:00:00.000Z'), now, 'Asia/Tokyo')).toMatch(/Asia\/Tokyo/);
});

test('closed hours answer the time until 08:00 local, across a daylight-saving change', () => {
  // 2026-03-08 in New York: 02:00 EST becomes 03:00 EDT; at 01:00 EST (06:00Z) the hours open at 08:00 EDT (12:00Z).
  expect(callbackHoursOpenInMs('America/New_York', at('2026-03-08T06:00:00.000Z'))).toBe(6 * 3600_000);
  expect(callbackHoursOpenInMs('America/New_York', at('2026-03-08T12:00:00.000Z'))).toBe(0);
});

test('a callback expires 24 hours after its time', () => {
  expect(callbackExpired('2026-11-23T12:00:00.000Z', now)).toBe(false);
  expect(callbackExpired('2026-11-23T11:59:59.000Z', now)).toBe(true);
});
