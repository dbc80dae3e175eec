// Tier 1: a lead's time zone from its number, by libphonenumber's prefix table: the longest known
// prefix decides; a prefix naming several zones derives none (the window's zone applies).
import { derivedTimeZone, numberTimeZones } from '../src/domain/number-time-zones/number-time-zone.js';
import { newLead } from '../src/leads/new-lead.js';

test('a number whose prefix names one zone derives it; the longest prefix wins', () => {
  expect(derivedTimeZone('+12125550123')).toBe('America/New_York');
  expect(derivedTimeZone('+18085550123')).toBe('Pacific/Honolulu');
  expect(derivedTimeZone('+442079460123')).toBe('Europe/London');
  expect(derivedTimeZone('+81312345678')).toBe('Asia/Tokyo');
  // +1 alone names every North American zone; +1212 only New York's.
  expect(numberTimeZones('+1').length).toBeGreaterThan(10);
});

test('a number whose prefix names several zones, or none, derives no zone', () => {
  expect(numberTimeZones('+18005550123').length).toBeGreaterThan(1);
  expect(derivedTimeZone('+18005550123')).toBeNull();
  expect(derivedTimeZone('+999123')).toBeNull();
});

test('a new lead keeps a given zone, else takes the derived one, and says which', () => {
  const at = '2026-11-24T00:00:00.000Z';
  expect(newLead('w', 'c', { phone: '+12125550123', time_zone: 'Europe/Berlin' }, at)).toMatchObject({ timeZone: 'Europe/Berlin', timeZoneSource: 'given' });
  expect(newLead('w', 'c', { phone: '+12125550123' }, at)).toMatchObject({ timeZone: 'America/New_York', timeZoneSource: 'derived' });
  expect(newLead('w', 'c', { phone: '+18005550123' }, at)).toMatchObject({ timeZone: null, timeZoneSource: null });
});
