// Applies what a call's carrier leg reports (CallLegChanged) to the call, once: a stale or repeated
// report changes nothing; an answer publishes calls.calls.started; an end settles the call's hold
// with the minutes it lasted through the outbox (billing captures them), and a call that lasted
// nothing is charged nothing and published as ended at once. Each in one store write.
import type { NewOutboxEvent } from '@voice/runtime/events';
import { callUsageEvent } from '../billing/usage-events.js';
import type { CallsDeps } from '../deps.js';
import { planLegReport, type LegReport } from '../domain/leg-transition.js';
import { callEndedEvent, callStartedEvent } from '../events/call-changed.js';
import { callAfter } from '../events/call-view.js';
import type { CallChanges } from '../store/store.js';
import { retryOnConflict } from '@voice/runtime/retry-on-conflict';

export type LegOutcome = 'applied' | 'stale' | 'unknown_call';

export function applyLegReport(deps: Pick<CallsDeps, 'store' | 'terms' | 'now' | 'wakeRelay'>, workspaceId: string, callId: string, leg: LegReport): Promise<LegOutcome> {
  return retryOnConflict(`leg report of call ${callId}`, async () => {
    const call = await deps.store.getCall(workspaceId, callId);
    if (!call) return { done: 'unknown_call' as const };
    const plan = planLegReport(call, leg, deps.terms.minuteRounding);
    if (plan.kind === 'stale') return { done: 'stale' as const };
    const now = deps.now().toISOString();
    const changes: CallChanges = { ...plan.changes };
    const reports = plan.kind === 'moved' ? [plan.report] : [];
    const events: NewOutboxEvent[] = [];
    if (plan.kind === 'moved' && plan.answered) events.push(callStartedEvent(callAfter(call, changes, reports, now), leg.at));
    if (plan.kind === 'moved' && plan.ended) {
      const usage = callUsageEvent(call, plan.ended.minuteUnits, leg.at);
      changes.usageEventId = usage.id;
      events.push(usage);
      // Nothing to capture: the release settles the hold, and the call is charged nothing.
      if (plan.ended.minuteUnits === 0) {
        changes.charged = true;
        events.push(callEndedEvent(callAfter(call, changes, reports, now), leg.at));
      }
    }
    const updated = await deps.store.updateCall(call.id, call.version, changes, reports, events, now);
    if (!updated) return undefined;
    if (events.length > 0) deps.wakeRelay();
    return { done: 'applied' as const };
  });
}
