// A campaign's settings: the defaults a create fills in, and which changes a running campaign takes.
import { settingsChangeableWhileRunning, type CampaignSettings, type createCampaignBodySchema } from '@voice/contracts/campaigns';
import type { z } from 'zod';
import { sha256Hex } from '@voice/runtime/crypto';

/** Weekdays 09:00 to 17:00 (UTC for leads without a zone): the hours callers are least surprised by. */
export const defaultWindow: CampaignSettings['window'] = { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00', time_zone: 'UTC' };
export const defaultPacing: CampaignSettings['pacing'] = { max_concurrent: 5, calls_per_minute: 30 };
export const defaultRetry: CampaignSettings['retry'] = { max_attempts: 3, delay_minutes: 60, on: ['no_answer', 'busy'] };

export const newSettings = (input: z.output<typeof createCampaignBodySchema>): CampaignSettings => ({
  name: input.name,
  assistant_id: input.assistant_id,
  from_number_ids: input.from_number_ids,
  segment_id: input.segment_id ?? null,
  window: input.window ?? defaultWindow,
  pacing: input.pacing ?? defaultPacing,
  retry: input.retry ?? defaultRetry,
  schedule: input.schedule ?? null,
});

/** The settings a PATCH sends that a running campaign refuses (the rest would change whom or how it calls mid-run). */
export const unsafeWhileRunning = (changes: Partial<CampaignSettings>): string[] =>
  Object.keys(changes).filter((field) => !(settingsChangeableWhileRunning as readonly string[]).includes(field));

/**
 * The version of what decides when a running campaign's leads are due (its calling window): a dial job
 * names it, so jobs put off until an old window opens are not the only ones the queue keeps once it
 * changes. Pacing waits are looked at again within a minute, and a name changes nothing: neither counts.
 */
export const dueTimesVersion = ({ window }: Pick<CampaignSettings, 'window'>): string =>
  // Every field of the window, whatever order a store gave them in: a field added to the window counts without a change here.
  sha256Hex(JSON.stringify(window, Object.keys(window).sort())).slice(0, 16);

/** Whether a change of settings moves when a running campaign's leads are due: their jobs have to be enqueued again. */
export const dueTimesChanged = (before: CampaignSettings, after: CampaignSettings): boolean => dueTimesVersion(before) !== dueTimesVersion(after);
