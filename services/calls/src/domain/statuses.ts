// The reason an ended call shows. How its states move (with its carrier leg's) is
// @voice/contracts/calls' movesForward.
import type { CallStatusName } from '@voice/contracts/calls';

/** The end reason a call gets from the state its leg ended in, unless the session gave one first. */
export function endReasonOf(status: CallStatusName, sessionReason: string | null): string {
  if (status === 'completed') return sessionReason ?? 'completed';
  return status;
}
