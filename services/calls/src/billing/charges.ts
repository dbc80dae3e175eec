// What an ended call was charged, from billing's WalletChanged event for the usage event that
// settled its hold: the ledger entry billing wrote (included minutes first, then credits at the
// hold's rate) is exactly what the call shows, once. Then the call is published as ended.
import type { WalletChanged } from '@voice/proto/voice/billing/v1/events';
import type { CallsDeps } from '../deps.js';
import { callEndedEvent } from '../events/call-changed.js';
import { callAfter } from '../events/call-view.js';
import { retryOnConflict } from '@voice/runtime/retry-on-conflict';

export type ChargeOutcome = 'charged' | 'not_a_call' | 'already_charged';

export function recordCharge(deps: Pick<CallsDeps, 'store' | 'now' | 'wakeRelay'>, changed: WalletChanged): Promise<ChargeOutcome> {
  const transaction = changed.transaction;
  if (!changed.appliedUsageEventId || !transaction) return Promise.resolve('not_a_call');
  return retryOnConflict(`charge of usage event ${changed.appliedUsageEventId}`, async () => {
    const call = await deps.store.findCallByUsageEvent(changed.appliedUsageEventId);
    if (!call) return { done: 'not_a_call' as const };
    if (call.charged) return { done: 'already_charged' as const };
    const now = deps.now().toISOString();
    // A debit is negative in the ledger; the call shows what it cost.
    const changes = {
      charged: true,
      minuteUnitsCharged: -Number(transaction.amount?.minuteUnits ?? 0n),
      creditUnitsCharged: -Number(transaction.amount?.creditUnits ?? 0n),
    };
    const ended = callEndedEvent(callAfter(call, changes, [], now), now);
    const updated = await deps.store.updateCall(call.id, call.version, changes, [], [ended], now);
    if (!updated) return undefined;
    deps.wakeRelay();
    return { done: 'charged' as const };
  });
}
