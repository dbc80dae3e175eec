// What a lead becomes when its call ends: completed when answered, else tried again while the retry
// policy names the outcome and attempts are left, else failed.
import type { CampaignSettings, LeadStatus } from '@voice/contracts/campaigns';
import { CallStatus } from '@voice/proto/voice/calls/v1/calls';

export type CallOutcome = 'completed' | 'no_answer' | 'busy' | 'failed';

/** The outcome of an ended call by its final status; undefined for a call that has not ended. */
export function callOutcomeOf(status: CallStatus): CallOutcome | undefined {
  switch (status) {
    case CallStatus.COMPLETED:
      return 'completed';
    case CallStatus.NO_ANSWER:
      return 'no_answer';
    case CallStatus.BUSY:
      return 'busy';
    case CallStatus.FAILED:
    case CallStatus.CANCELED:
      return 'failed';
    default:
      return undefined;
  }
}

/** The lead's status after its `attempt`-th call ended with `outcome`. */
export function leadStatusAfter(outcome: CallOutcome, attempt: number, retry: CampaignSettings['retry']): LeadStatus {
  if (outcome === 'completed') return 'completed';
  return (retry.on as readonly string[]).includes(outcome) && attempt < retry.max_attempts ? 'retry_scheduled' : 'failed';
}

/** When a lead scheduled for a retry at `scheduledAt` may be called again. */
export const retryDueAt = (scheduledAt: string, retry: CampaignSettings['retry']): number => Date.parse(scheduledAt) + retry.delay_minutes * 60_000;
