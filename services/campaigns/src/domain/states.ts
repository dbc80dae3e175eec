// The campaign state machine as far as the API drives it: start and stop, and what each refuses, and
// the schedule's part: a draft with a schedule is `scheduled`. The dialer (pacing, windows, retries)
// moves running campaigns to paused and completed, and starts scheduled ones at their times.
import type { CampaignStatus } from '@voice/contracts/campaigns';
import type { LeadCounts } from '../store/store.js';

/** Leads the dialer may still call: a campaign without any has nothing to start for. */
export const callableLeads = (counts: LeadCounts): number => counts.pending + counts.retry_scheduled + counts.calling;

export const alreadyRunning = 'the campaign is already running';

/** Why the campaign cannot start now, or undefined. */
export function startRefusal(status: CampaignStatus, counts: LeadCounts): string | undefined {
  if (status === 'running') return alreadyRunning;
  if (callableLeads(counts) === 0) return 'the campaign has no leads left to call; add leads (or target a segment that matches some) first';
  return undefined;
}

/** Why the campaign cannot stop now, or undefined: only a running campaign stops (SPEC.md 3). */
export const stopRefusal = (status: CampaignStatus): string | undefined => (status === 'running' ? undefined : `the campaign is not running (it is ${status})`);

/**
 * The status a campaign takes when its schedule is set or removed: a draft with one is `scheduled`, a
 * scheduled one without is a `draft` again. Every other state keeps its own: a stopped, paused or
 * completed campaign with a schedule starts again at the schedule's next time, a running one at the
 * first time after its run.
 */
export function statusWithSchedule(status: CampaignStatus, scheduled: boolean): CampaignStatus {
  if (status === 'draft' && scheduled) return 'scheduled';
  if (status === 'scheduled' && !scheduled) return 'draft';
  return status;
}
