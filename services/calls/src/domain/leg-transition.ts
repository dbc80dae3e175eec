// What one report of a call's carrier leg does to the call: a newer report moves it forward
// (ringing, answered, ended), a stale or repeated one changes nothing, and an end states how long
// the call lasted in billed minutes. Pure: the use case turns the plan into one store write.
import type { CallStatusName } from '@voice/contracts/calls';
import { billedMinuteUnits, type MinuteRounding } from './minutes.js';
import { isEndedStatus, movesForward } from '@voice/contracts/calls';
import { endReasonOf } from './statuses.js';
import type { CallChanges, CallRecord, CallReport } from '../store/store.js';

export interface LegReport {
  status: CallStatusName;
  /** The leg's report order; older than what the call holds is stale. */
  sequence: number;
  at: string;
  /** Answered seconds, for an end state. */
  durationSeconds: number;
  /** The carrier's reason of a failure, in words a client may read. */
  failureReason: string;
}

export type LegPlan =
  | { kind: 'stale' }
  /** A newer report that moves nothing (an end after the call ended otherwise): only its sequence is kept. */
  | { kind: 'noted'; changes: CallChanges }
  | { kind: 'moved'; changes: CallChanges; report: CallReport; answered: boolean; ended?: { minuteUnits: number } };

const eventTypes: Record<'ringing' | 'in_progress' | 'ended', string> = { ringing: 'call.ringing', in_progress: 'call.answered', ended: 'call.ended' };

export function planLegReport(call: CallRecord, leg: LegReport, rounding: MinuteRounding): LegPlan {
  if (leg.sequence <= call.legSequence) return { kind: 'stale' };
  if (!movesForward(call.status, leg.status)) return { kind: 'noted', changes: { legSequence: leg.sequence } };
  const base = { source: 'leg' as const, kind: 'event' as const, sequence: leg.sequence, at: leg.at };
  if (!isEndedStatus(leg.status)) {
    const answered = leg.status === 'in_progress';
    return {
      kind: 'moved',
      changes: { status: leg.status, legSequence: leg.sequence, ...(answered ? { answeredAt: leg.at } : {}) },
      report: { ...base, type: eventTypes[leg.status as 'ringing' | 'in_progress'], data: {} },
      answered,
    };
  }
  // Only an answered call lasted: one that ends without an answer bills nothing.
  const durationSeconds = leg.status === 'completed' ? Math.max(0, leg.durationSeconds) : 0;
  const endReason = endReasonOf(leg.status, call.endReason);
  const minuteUnits = billedMinuteUnits(durationSeconds, rounding);
  const data = { status: leg.status, duration_seconds: durationSeconds, end_reason: endReason, ...(leg.failureReason ? { reason: leg.failureReason } : {}) };
  return {
    kind: 'moved',
    changes: { status: leg.status, legSequence: leg.sequence, endedAt: leg.at, durationSeconds, endReason, billedMinuteUnits: minuteUnits },
    report: { ...base, type: eventTypes.ended, data },
    answered: false,
    ended: { minuteUnits },
  };
}
