// The funds a call needs before it is dialled: a hold for its longest possible length in whole
// minutes, or, when the wallet covers less, for what it covers (at least one minute), which then
// bounds the call. Billing's holds never let concurrent calls overspend one wallet together.
import { Code, ConnectError } from '@connectrpc/connect';
import { formatCredits, formatMinutes } from '@voice/runtime/amounts';
import { serviceError } from '@voice/runtime/errors';
import { BillingUnreachable, type MinutesHoldRequest } from '../billing/holds.js';
import { callDescription, callUsageEvent, callUsageKind } from '../billing/usage-events.js';
import { coveredMinutes, minutesFor } from '../domain/minutes.js';
import type { CallsDeps } from '../deps.js';
import type { CallRecord } from '../store/store.js';

/** Holds the call's minutes; answers the longest the call may now last, in seconds. */
export async function holdCallFunds(deps: CallsDeps, call: CallRecord, requestId: string): Promise<number> {
  const request = (minutes: number): MinutesHoldRequest => ({
    workspaceId: call.workspaceId,
    holdId: call.holdId,
    minutes,
    creditUnitsPerMinute: deps.terms.creditUnitsPerMinute,
    kind: callUsageKind,
    reference: call.id,
    description: callDescription(call),
    expiresInSeconds: minutes * 60 + deps.terms.holdMarginSeconds,
    requestId,
  });
  const authorize = async (minutes: number) => {
    try {
      return await deps.holds.authorize(request(minutes));
    } catch (error) {
      if (!(error instanceof BillingUnreachable)) throw error;
      // Billing may have made the hold before its answer was lost: its release goes through the outbox.
      await deps.store.enqueue([callUsageEvent(call, 0, deps.now().toISOString())]);
      deps.wakeRelay();
      throw new ConnectError('billing could not be reached; nothing was dialled or charged', Code.Unavailable, undefined, undefined, error);
    }
  };
  const wanted = minutesFor(call.maxDurationSeconds);
  const first = await authorize(wanted);
  if (first.kind === 'held') return call.maxDurationSeconds;
  const covered = Math.min(wanted, coveredMinutes(first.available, deps.terms.creditUnitsPerMinute));
  const refusal = (available: { minuteUnits: number; creditUnits: number }) =>
    serviceError(
      'conflict',
      `not enough funds: a call needs at least one minute (${formatCredits(deps.terms.creditUnitsPerMinute)} credits beyond included minutes); ` +
        `available are ${formatMinutes(Math.max(0, available.minuteUnits))} minutes and ${formatCredits(Math.max(0, available.creditUnits))} credits`,
      { condition: 'insufficient_funds' },
    );
  if (covered < 1) throw refusal(first.available);
  const second = await authorize(covered);
  if (second.kind === 'refused') throw refusal(second.available);
  return covered * 60;
}
