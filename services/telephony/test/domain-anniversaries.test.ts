// Monthly anniversaries of a purchase: the same day and time, the month's last day when it is shorter.
import { anniversary, monthsElapsed } from '../src/domain/anniversaries.js';

const at = (iso: string) => new Date(iso);

test('keep the day of the purchase, falling back to the last day of shorter months, computed from the purchase each time', () => {
  const bought = at('2028-01-31T10:15:30.123Z');
  expect(anniversary(bought, 0).toISOString()).toBe('2028-01-31T10:15:30.123Z');
  expect(anniversary(bought, 1).toISOString()).toBe('2028-02-29T10:15:30.123Z');
  expect(anniversary(bought, 2).toISOString()).toBe('2028-03-31T10:15:30.123Z');
  expect(anniversary(bought, 13).toISOString()).toBe('2029-02-28T10:15:30.123Z');
  expect(anniversary(at('2027-11-15T00:00:00.000Z'), 3).toISOString()).toBe('2028-02-15T00:00:00.000Z');
});

test('count the anniversaries passed by an instant', () => {
  const bought = at('2028-01-31T10:00:00.000Z');
  expect(monthsElapsed(bought, at('2028-01-31T10:00:00.000Z'))).toBe(0);
  expect(monthsElapsed(bought, at('2028-02-29T09:59:59.999Z'))).toBe(0);
  expect(monthsElapsed(bought, at('2028-02-29T10:00:00.000Z'))).toBe(1);
  expect(monthsElapsed(bought, at('2028-03-30T23:00:00.000Z'))).toBe(1);
  expect(monthsElapsed(bought, at('2029-02-28T10:00:00.000Z'))).toBe(13);
  expect(monthsElapsed(bought, at('2027-12-01T00:00:00.000Z'))).toBe(0);
});
