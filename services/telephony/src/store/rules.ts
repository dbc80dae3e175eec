// The rules both store adapters apply, written once: what an idempotency claim decides, which
// delivery reports move a message on, which numbers may be routed through a SIP trunk, and which
// caller ID a new one of its number replaces.
import { claimBinding } from '@voice/runtime/idempotency';
import type { CallerIdRecord, ClaimOutcome, DeliveryUpdate, MessageRecord, MessageStatus, RoutingRefusal, SendClaim } from './store.js';

/** A claim as either adapter keeps it. */
export interface StoredClaim {
  fingerprint: string;
  messageId: string;
  createdAt: string;
  /** The message as its send answered (accepted), once it did: what a replay answers. */
  firstResponse?: MessageRecord;
}

/**
 * What a stored claim decides for a new send under its key, before billing is asked:
 * undefined when it does not bind (there is none, it expired, or the message of the same body is
 * gone) and the send goes ahead, replacing it.
 */
export function claimDecision(stored: StoredClaim | undefined, claim: SendClaim, message: MessageRecord | undefined): ClaimOutcome | undefined {
  const binding = claimBinding(stored, claim);
  if (binding !== 'replay') return binding && { kind: binding };
  if (!message) return undefined;
  return message.status === 'sending' ? { kind: 'in_progress' } : { kind: 'replayed', message: stored!.firstResponse ?? message };
}

/** A begun message waits for the carrier, whatever the caller filled in. */
export const awaitingCarrier = (message: MessageRecord): MessageRecord => ({ ...message, status: 'sending', carrierMessageId: null });

type ReportedStatus = DeliveryUpdate['status'];

const deliveryRank: Record<ReportedStatus, number> = { queued: 1, sent: 2, delivered: 3, failed: 3 };

/**
 * The statuses a report of `next` moves a message on from: only those ranked strictly lower, so
 * a repeated or late report changes nothing and delivered and failed never replace each other.
 */
export const statusesOvertakenBy = (next: ReportedStatus): MessageStatus[] =>
  (Object.keys(deliveryRank) as ReportedStatus[]).filter((status) => deliveryRank[status] < deliveryRank[next]);

/** Only a failure keeps a reason. */
export const failureReasonOf = (update: DeliveryUpdate): string => (update.status === 'failed' ? (update.failureReason ?? '') : '');

/**
 * The states a just-accepted message passes through as the reports kept for its carrier id (those
 * that came before the acceptance was recorded) move it, in the order they came, each by the
 * forward-only rule; one per move, the last being where it ends. It never moves back in time.
 */
export function movesByEarlyReports(accepted: MessageRecord, reports: DeliveryUpdate[]): MessageRecord[] {
  const moves: MessageRecord[] = [];
  let current = accepted;
  for (const update of reports) {
    if (!statusesOvertakenBy(update.status).includes(current.status)) continue;
    current = { ...current, status: update.status, failureReason: failureReasonOf(update), updatedAt: update.at > current.updatedAt ? update.at : current.updatedAt };
    moves.push(current);
  }
  return moves;
}

/**
 * Why numbers cannot go through a trunk, or undefined when they can: `routes` holds the trunk (or
 * null) of each of them the workspace has; one missing is not the workspace's, one on another trunk is taken.
 */
export function routingRefusal(trunkId: string, numberIds: string[], routes: Map<string, string | null>): RoutingRefusal | undefined {
  const missing = numberIds.filter((id) => !routes.has(id));
  if (missing.length > 0) return { kind: 'numbers_not_found', ids: missing };
  const taken = numberIds.filter((id) => {
    const trunk = routes.get(id);
    return trunk !== null && trunk !== trunkId;
  });
  return taken.length > 0 ? { kind: 'numbers_taken', ids: taken } : undefined;
}

/** A new caller ID of the number replaces this one when it failed, or is pending with a code expired by `now`. */
export const isReplaceableCallerId = (existing: Pick<CallerIdRecord, 'status' | 'codeExpiresAt'>, now: string): boolean =>
  existing.status === 'failed' || (existing.status === 'pending' && existing.codeExpiresAt <= now);
