// What a lead becomes when its call ends: completed when answered, else tried again while the retry
// policy names the outcome and attempts are left, else failed. A call a voicemail box answered is a
// completed call to the calls service (end reason `voicemail`); for the lead it is `voicemail`.
import { voicemailEndReason } from '@voice/contracts/calls';
import type { CampaignSettings, LeadStatus } from '@voice/contracts/campaigns';
import { CallStatus } from '@voice/proto/voice/calls/v1/calls';

export type CallOutcome = 'completed' | 'no_answer' | 'busy' | 'failed' | 'voicemail';

/** The outcome of an ended call by its final status and end reason; undefined for a call that has not ended. */
export function callOutcomeOf(status: CallStatus, endReason: string): CallOutcome | undefined {
  switch (status) {
    case CallStatus.COMPLETED:
      return endReason === voicemailEndReason ? 'voicemail' : 'completed';
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

/**
 * The lead's status after its `attempt`-th call ended with `outcome`. A voicemail the policy does not
 * retry completes the lead (the call reached its line and the assistant's voicemail setting was carried
 * out); one it retries means a person was wanted, so it fails once the attempts are spent.
 */
export function leadStatusAfter(outcome: CallOutcome, attempt: number, retry: CampaignSettings['retry']): LeadStatus {
  if (outcome === 'completed') return 'completed';
  const retried = (retry.on as readonly string[]).includes(outcome);
  if (outcome === 'voicemail' && !retried) return 'completed';
  return retried && attempt < retry.max_attempts ? 'retry_scheduled' : 'failed';
}

/** When a lead scheduled for a retry at `scheduledAt` may be called again. */
export const retryDueAt = (scheduledAt: string, retry: CampaignSettings['retry']): number => Date.parse(scheduledAt) + retry.delay_minutes * 60_000;
