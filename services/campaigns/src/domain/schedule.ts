// When a campaign's schedule next starts it, as the stored time (next_run_at).
import { nextScheduledRun } from '@voice/contracts/campaign-schedule';
import type { CampaignSettings } from '@voice/contracts/campaigns';

/** The first occurrence after `after`, or null without a schedule (or one that never occurs again). */
export const nextRunAt = (schedule: CampaignSettings['schedule'], after: Date): string | null => (schedule ? (nextScheduledRun(schedule, after)?.toISOString() ?? null) : null);
