// Billing's holds as calls use them: before a call is dialled, its longest possible length is held
// in minutes (the wallet's included minutes first, the rest as credits at the per-minute rate);
// the usage event that captures or releases the hold travels later through the outbox.
import type { Client } from '@connectrpc/connect';
import { minuteScale } from '@voice/runtime/amounts';
import { askBillingForHold, holdCallOptions, releaseHold, type HoldKey } from '@voice/runtime/billing-holds';
import type { CallerSigner } from '@voice/runtime/caller';
import type { Logger } from '@voice/runtime/logger';
import type { BillingService } from '@voice/proto/voice/billing/v1/billing';

export { BillingUnreachable } from '@voice/runtime/billing-holds';

export interface MinutesHoldRequest extends HoldKey {
  minutes: number;
  creditUnitsPerMinute: number;
  /** The ledger kind of its capture. */
  kind: string;
  reference: string;
  description: string;
  expiresInSeconds: number;
}

export type MinutesHoldAnswer = { kind: 'held' } | { kind: 'refused'; available: { minuteUnits: number; creditUnits: number } };

export interface MinutesHolds {
  /** Rejects with BillingUnreachable when billing gives no answer. */
  authorize(request: MinutesHoldRequest): Promise<MinutesHoldAnswer>;
  /** Gives a hold back now; when billing cannot be told, the hold is left to expire (logged). */
  release(request: HoldKey): Promise<void>;
}

export class ConnectMinutesHolds implements MinutesHolds {
  constructor(
    private readonly client: Client<typeof BillingService>,
    private readonly signer: CallerSigner,
    private readonly logger: Logger,
  ) {}

  async authorize(request: MinutesHoldRequest): Promise<MinutesHoldAnswer> {
    const answer = await askBillingForHold(
      () =>
        this.client.authorize(
          {
            holdId: request.holdId,
            workspaceId: request.workspaceId,
            amount: { creditUnits: 0n, minuteUnits: BigInt(request.minutes * minuteScale) },
            creditUnitsPerMinute: BigInt(request.creditUnitsPerMinute),
            expiresInSeconds: request.expiresInSeconds,
            kind: request.kind,
            reference: request.reference,
            description: request.description,
          },
          holdCallOptions(this.signer, 'calls', request),
        ),
      this.logger,
      request,
    );
    if (answer.outcome.case === 'hold') return { kind: 'held' };
    if (answer.outcome.case === 'refused') {
      const available = answer.outcome.value.available;
      return { kind: 'refused', available: { minuteUnits: Number(available?.minuteUnits ?? 0n), creditUnits: Number(available?.creditUnits ?? 0n) } };
    }
    throw new Error('billing answered a hold with neither a hold nor a refusal');
  }

  release(request: HoldKey): Promise<void> {
    return releaseHold(this.client, this.signer, 'calls', this.logger, request);
  }
}
