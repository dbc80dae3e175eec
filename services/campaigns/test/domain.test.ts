// Tier 1: the campaign rules without I/O: start and stop refusals, the settings a running campaign
// refuses, defaults, time zone names and the stored form of a filter's times.
import { isTimeZone, type CampaignSettings } from '@voice/contracts/campaigns';
import { CallStatus } from '@voice/proto/voice/calls/v1/calls';
import { callOutcomeOf, leadStatusAfter } from '../src/domain/lead-outcome.js';
import { dueTimesChanged, dueTimesVersion, newSettings, unsafeWhileRunning } from '../src/domain/settings.js';
import { startRefusal, stopRefusal } from '../src/domain/states.js';
import { storedFilter } from '../src/domain/segment-filter.js';
import { emptyLeadCounts } from '../src/store/store.js';

const counts = (changes: Partial<ReturnType<typeof emptyLeadCounts>>) => ({ ...emptyLeadCounts(), ...changes });

test('only a campaign that is not running and has a lead left to call starts', () => {
  expect(startRefusal('running', counts({ pending: 3 }))).toMatch(/already running/);
  for (const status of ['draft', 'stopped', 'paused', 'completed', 'scheduled'] as const) {
    expect(startRefusal(status, counts({ completed: 4, failed: 1, removed: 2, do_not_call: 1 }))).toMatch(/no leads/);
    expect(startRefusal(status, counts({ pending: 1 }))).toBeUndefined();
    expect(startRefusal(status, counts({ retry_scheduled: 1 }))).toBeUndefined();
  }
});

test('only a running campaign stops', () => {
  expect(stopRefusal('running')).toBeUndefined();
  for (const status of ['draft', 'stopped', 'paused', 'completed', 'scheduled'] as const) expect(stopRefusal(status)).toMatch(new RegExp(`it is ${status}`));
});

test('a running campaign takes name, pacing and window changes only', () => {
  expect(unsafeWhileRunning({ name: 'x', pacing: { max_concurrent: 1, calls_per_minute: 1 } })).toEqual([]);
  expect(unsafeWhileRunning({ name: 'x', retry: { max_attempts: 1, delay_minutes: 1, on: [] }, segment_id: null })).toEqual(['retry', 'segment_id']);
});

test('a new campaign gets the default window, pacing and retry policy unless given', () => {
  const settings = newSettings({ name: 'n', assistant_id: 'a', from_number_ids: ['f'] });
  expect(settings).toMatchObject({ segment_id: null, window: { time_zone: 'UTC', start: '09:00', end: '17:00' }, pacing: { max_concurrent: 5 }, retry: { max_attempts: 3 } });
  expect(newSettings({ name: 'n', assistant_id: 'a', from_number_ids: ['f'], pacing: { max_concurrent: 2, calls_per_minute: 3 } }).pacing).toEqual({ max_concurrent: 2, calls_per_minute: 3 });
});

test('time zones are canonical IANA names', () => {
  for (const zone of ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'Europe/Kyiv', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) expect(isTimeZone(zone)).toBe(true);
  for (const zone of ['', 'utc', 'europe/berlin', 'Mars/Olympus', 'Europe/Atlantis', '+02:00', 'X'.repeat(65)]) expect(isTimeZone(zone)).toBe(false);
});

test('filter times are stored with milliseconds so they compare as strings', () => {
  expect(storedFilter({ created_after: '2026-01-01T00:00:00Z', statuses: ['pending'] })).toEqual({ created_after: '2026-01-01T00:00:00.000Z', statuses: ['pending'] });
});

test('a completed call a voicemail box answered is the voicemail outcome; the policy retries it, or it completes the lead', () => {
  expect(callOutcomeOf(CallStatus.COMPLETED, 'voicemail')).toBe('voicemail');
  expect(callOutcomeOf(CallStatus.COMPLETED, 'assistant_ended')).toBe('completed');
  expect(callOutcomeOf(CallStatus.BUSY, 'busy')).toBe('busy');
  expect(callOutcomeOf(CallStatus.IN_PROGRESS, '')).toBeUndefined();
  const retried = { max_attempts: 2, delay_minutes: 1, on: ['voicemail' as const] };
  expect(leadStatusAfter('voicemail', 1, retried)).toBe('retry_scheduled');
  expect(leadStatusAfter('voicemail', 2, retried)).toBe('failed');
  expect(leadStatusAfter('voicemail', 1, { ...retried, on: ['busy'] })).toBe('completed');
  expect(leadStatusAfter('busy', 1, { ...retried, on: [] })).toBe('failed');
});

test('the calling window’s version changes with each of its fields and with nothing else', () => {
  type Window = CampaignSettings['window'];
  const settings = newSettings({ name: 'Spring', assistant_id: 'a', from_number_ids: ['n'] });
  const before = { ...settings, window: { days: ['mon', 'tue'], start: '09:00', end: '17:00', time_zone: 'Europe/Berlin' } as Window };
  // The same window with its fields in another order, as a store may hand them back.
  const { days, start, end, time_zone } = before.window;
  expect(dueTimesVersion({ window: { time_zone, end, start, days } })).toBe(dueTimesVersion(before));
  expect(dueTimesChanged(before, { ...before, name: 'Renamed', pacing: { ...before.pacing, calls_per_minute: 1 } })).toBe(false);
  const changes: Partial<Window>[] = [{ days: ['mon'] }, { start: '10:00' }, { end: '18:00' }, { time_zone: 'Europe/Paris' }];
  for (const change of changes) expect(dueTimesChanged(before, { ...before, window: { ...before.window, ...change } })).toBe(true);
  // A field the window may gain later counts without a change to the version's rule.
  expect(dueTimesVersion({ window: { ...before.window, closed_dates: ['2026-12-25'] } as Window })).not.toBe(dueTimesVersion(before));
});
