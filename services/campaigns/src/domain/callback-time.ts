// When a callback may ring: at or after the time the person asked for, within the legal calling hours
// of their own time zone (callbackHours), at most maxCallbackDaysAhead ahead, and no later than the
// grace period after its time. The campaign's calling window does not apply: the person chose the time.
import { callbackGraceHours, callbackHours, maxCallbackDaysAhead } from '@voice/contracts/callbacks';
import { weekdays, type CampaignSettings } from '@voice/contracts/campaigns';
import { windowOpensInMs } from './calling-window.js';
import { derivedTimeZone } from './number-time-zones/number-time-zone.js';

const dayMs = 24 * 3600_000;

/**
 * The zone a callback's hours are judged in: the lead's, else the one given with it, else the one its
 * number names (as a lead's is derived), else the campaign window's.
 */
export const callbackZone = (leadZone: string | null, givenZone: string | null, phone: string, window: CampaignSettings['window']): string =>
  leadZone ?? givenZone ?? derivedTimeZone(phone) ?? window.time_zone;

/** 0 while the calling hours are open in `zone`, else the ms until they open. */
export const callbackHoursOpenInMs = (zone: string, now: number): number => windowOpensInMs({ days: [...weekdays], ...callbackHours, time_zone: zone }, null, now);

/** Why `at` cannot be a callback's time (asked at `now`, for a person in `zone`), or undefined. */
export function callbackTimeIssue(at: number, now: number, zone: string): string | undefined {
  if (at <= now) return 'must be in the future';
  if (at > now + maxCallbackDaysAhead * dayMs) return `must be at most ${maxCallbackDaysAhead} days ahead`;
  if (callbackHoursOpenInMs(zone, at) > 0) return `must be between ${callbackHours.start} and ${callbackHours.end} in the person’s time zone (${zone})`;
  return undefined;
}

/** Whether a callback held back this long past its time is too late to place. */
export const callbackExpired = (at: string, now: number): boolean => now > Date.parse(at) + callbackGraceHours * 3600_000;
