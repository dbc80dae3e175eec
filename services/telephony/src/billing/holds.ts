// Billing's holds as telephony uses them: before anything is sent or bought, the price is held at
// billing against the workspace's available balance; the usage event that captures (or releases)
// the hold travels later through the outbox. Billing either answers (held, or refused with what is
// available) or could not be asked, and then nothing may go ahead (@voice/runtime/billing-holds).
import type { Client } from '@connectrpc/connect';
import { askBillingForHold, holdCallOptions, releaseHold, type HoldKey } from '@voice/runtime/billing-holds';
import type { CallerSigner } from '@voice/runtime/caller';
import type { Logger } from '@voice/runtime/logger';
import type { BillingService } from '@voice/proto/voice/billing/v1/billing';

export { BillingUnreachable, holdTimeoutMs } from '@voice/runtime/billing-holds';

export interface HoldRequest extends HoldKey {
  /** Unique in the workspace: a retry of the same request is the same hold. */
  holdId: string;
  creditUnits: number;
  /** The ledger kind of its capture, e.g. "sms.outbound". */
  kind: string;
  reference: string;
  description: string;
  expiresInSeconds: number;
}

export type HoldAnswer = { kind: 'held' } | { kind: 'refused'; availableUnits: number };

export interface BillingHolds {
  /** Rejects with BillingUnreachable when billing gives no answer. */
  authorize(request: HoldRequest): Promise<HoldAnswer>;
  /** Gives a hold back now; when billing cannot be told, the hold is left to expire (logged). */
  release(request: HoldKey): Promise<void>;
}

export class ConnectBillingHolds implements BillingHolds {
  constructor(
    private readonly client: Client<typeof BillingService>,
    private readonly signer: CallerSigner,
    private readonly logger: Logger,
  ) {}

  release(request: HoldKey): Promise<void> {
    return releaseHold(this.client, this.signer, 'telephony', this.logger, request);
  }

  async authorize(request: HoldRequest): Promise<HoldAnswer> {
    const answer = await askBillingForHold(
      () =>
        this.client.authorize(
          {
            holdId: request.holdId,
            workspaceId: request.workspaceId,
            amount: { creditUnits: BigInt(request.creditUnits), minuteUnits: 0n },
            expiresInSeconds: request.expiresInSeconds,
            kind: request.kind,
            reference: request.reference,
            description: request.description,
          },
          holdCallOptions(this.signer, 'telephony', request),
        ),
      this.logger,
      request,
    );
    if (answer.outcome.case === 'hold') return { kind: 'held' };
    if (answer.outcome.case === 'refused') return { kind: 'refused', availableUnits: Number(answer.outcome.value.available?.creditUnits ?? 0n) };
    throw new Error('billing answered a hold with neither a hold nor a refusal');
  }
}
