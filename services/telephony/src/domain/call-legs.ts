// How a call leg's state may move: forward only (queued, ringing, in progress, then one end state
// that never changes; the rule a call's states follow too, @voice/contracts/calls' movesForward),
// each move counted in the leg's sequence so consumers can order reports that arrive out of order.
import { endedCallStatuses, isEndedStatus, movesForward } from '@voice/contracts/calls';
import type { CallLegRecord, CallLegStatus } from '../store/store.js';

/** Its end states, for stores that select legs still running. */
export const endStatuses = endedCallStatuses;

export const hasEnded = (leg: Pick<CallLegRecord, 'status'>): boolean => isEndedStatus(leg.status);

/** What names a new leg; the rest of it is how every leg starts. */
export type LegStart = Omit<CallLegRecord, 'sequence' | 'answeredAt' | 'endedAt' | 'durationSeconds' | 'failureReason' | 'createdAt' | 'updatedAt'>;

/** A leg in its first state (sequence 1): nothing answered or ended yet. */
export const startedLeg = (start: LegStart, at: string): CallLegRecord => ({
  ...start,
  sequence: 1,
  answeredAt: null,
  endedAt: null,
  durationSeconds: 0,
  failureReason: '',
  createdAt: at,
  updatedAt: at,
});

/** What a carrier reported about a leg. */
export interface LegChange {
  status: CallLegStatus;
  at: string;
  /** End states: the carrier's duration of the answered leg (whole seconds). */
  durationSeconds?: number;
  /** failed: the carrier's reason, in words a client may read. */
  failureReason?: string;
}

/** The leg after the change, or undefined when the change would not move it forward. */
export function advancedLeg(leg: CallLegRecord, change: LegChange): CallLegRecord | undefined {
  if (!movesForward(leg.status, change.status)) return undefined;
  const ends = isEndedStatus(change.status);
  return {
    ...leg,
    status: change.status,
    sequence: leg.sequence + 1,
    answeredAt: change.status === 'in_progress' ? change.at : leg.answeredAt,
    endedAt: ends ? change.at : leg.endedAt,
    durationSeconds: ends ? Math.max(0, Math.trunc(change.durationSeconds ?? 0)) : leg.durationSeconds,
    failureReason: change.status === 'failed' ? change.failureReason || 'the carrier could not connect the call' : '',
    updatedAt: change.at,
  };
}

/** Whole seconds between answer and end, rounded up (a carrier bills a started second). */
export function answeredSeconds(answeredAtMs: number | undefined, endedAtMs: number): number {
  if (answeredAtMs === undefined) return 0;
  return Math.max(0, Math.ceil((endedAtMs - answeredAtMs) / 1000));
}
