// A lead's time zone derived from its number (issue 17: "taken from the lead or derived from its
// number"), by libphonenumber's prefix table: the longest prefix of the E.164 digits that the table
// names decides. A prefix that maps to one zone gives it; one that maps to several (a whole country
// such as +7, a country's mobile range, North America's +1 toll-free numbers) gives none, so the
// campaign window's `time_zone` applies: the zone the campaign's owner chose beats a guess among
// zones hours apart. A zone this platform's clock does not know is never given either.
import { isTimeZone } from '@voice/contracts/campaigns';
import { prefixTimeZoneLines } from './data.js';

let table: Map<string, readonly string[]> | undefined;
let longestPrefix = 0;

function prefixTable(): Map<string, readonly string[]> {
  if (!table) {
    table = new Map();
    for (const line of prefixTimeZoneLines.split('\n')) {
      const [prefix, zones] = line.split('|') as [string, string];
      table.set(prefix, zones.split('&'));
      longestPrefix = Math.max(longestPrefix, prefix.length);
    }
  }
  return table;
}

/** The zones the table names for an E.164 number (longest prefix first), or [] when no prefix is known. */
export function numberTimeZones(e164: string): readonly string[] {
  const digits = e164.replace(/^\+/, '');
  const zones = prefixTable();
  for (let length = Math.min(digits.length, longestPrefix); length > 0; length -= 1) {
    const found = zones.get(digits.slice(0, length));
    if (found) return found;
  }
  return [];
}

/** The number's one time zone, or null when it has none or several. */
export function derivedTimeZone(e164: string): string | null {
  const zones = numberTimeZones(e164);
  return zones.length === 1 && isTimeZone(zones[0]!) ? zones[0]! : null;
}
