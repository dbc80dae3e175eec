// A bought number's monthly fee as billing sees it: one hold per number and month (its id names
// both, so however often a month is tried it is one hold, captured once), captured through a usage
// event of kind `number.monthly`.
import type { NewOutboxEvent } from '@voice/runtime/events';
import type { NumberRecord } from '../store/store.js';
import { settlementEvent } from '../billing/usage-events.js';

export const numberFeeKind = 'number.monthly';

/**
 * How long a fee's hold lasts. Its capture follows at once through the outbox, and billing still
 * charges a capture that comes after the expiry; this only bounds how long a purchase the carrier
 * refused keeps the amount reserved when billing could not be told at once.
 */
export const numberFeeHoldSeconds = 3600;

/** Month 0 is paid at purchase, month n on the n-th anniversary. */
export const numberFeeHoldId = (numberId: string, month: number): string => `number-fee:${numberId}:${month}`;

export const numberFeeDescription = (number: Pick<NumberRecord, 'number'>, month: number): string => `Monthly fee of ${number.number}, month ${month + 1}`;

/** The fee was held: this captures it. */
export const numberFeeCaptureEvent = (number: Pick<NumberRecord, 'id' | 'workspaceId' | 'number'>, month: number, creditUnits: number, at: string): NewOutboxEvent =>
  settlementEvent('numbers', {
    workspaceId: number.workspaceId,
    holdId: numberFeeHoldId(number.id, month),
    kind: numberFeeKind,
    creditUnits,
    reference: number.id,
    description: numberFeeDescription(number, month),
    at,
  });
