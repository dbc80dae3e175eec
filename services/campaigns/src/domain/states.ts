// The campaign state machine as far as the API drives it: start and stop, and what each refuses.
// The dialer (pacing, windows, retries) moves running campaigns to paused and completed.
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
