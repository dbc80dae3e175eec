// A call's states and how its carrier leg moves them: queued -> ringing -> in_progress -> one end
// state. A leg's reports may come late or twice: a report never moves a call backwards, and an ended
// call stays as it ended.
import type { CallStatusName } from '@voice/contracts/calls';

export const endStatuses: ReadonlySet<CallStatusName> = new Set(['completed', 'no_answer', 'busy', 'failed', 'canceled']);

export const isEnded = (status: CallStatusName): boolean => endStatuses.has(status);

const rank: Record<CallStatusName, number> = {
  queued: 0,
  ringing: 1,
  in_progress: 2,
  completed: 3,
  no_answer: 3,
  busy: 3,
  failed: 3,
  canceled: 3,
};

/** Whether a call in `current` moves to `next`: forward only, and never out of an end state. */
export const movesTo = (current: CallStatusName, next: CallStatusName): boolean => !isEnded(current) && rank[next] > rank[current];

/** The end reason a call gets from the state its leg ended in, unless the session gave one first. */
export function endReasonOf(status: CallStatusName, sessionReason: string | null): string {
  if (status === 'completed') return sessionReason ?? 'completed';
  return status;
}
