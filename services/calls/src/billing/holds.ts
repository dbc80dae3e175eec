// Billing's holds as calls use them: before a call is dialled, its longest possible length is held
// in minutes (the wallet's included minutes first, the rest as credits at the per-minute rate);
// the usage event that captures or releases the hold travels later through the outbox.
import { Code, ConnectError, type Client } from '@connectrpc/connect';
import { minuteScale } from '@voice/runtime/amounts';
import { callHeaders, type CallerSigner } from '@voice/runtime/caller';
import type { Logger } from '@voice/runtime/logger';
import type { BillingService } from '@voice/proto/voice/billing/v1/billing';

/** How long a call's creation waits for billing's answer to a hold. */
const holdTimeoutMs = 2_000;

export interface MinutesHoldRequest {
  workspaceId: string;
  holdId: string;
  minutes: number;
  creditUnitsPerMinute: number;
  /** The ledger kind of its capture. */
  kind: string;
  reference: string;
  description: string;
  expiresInSeconds: number;
  requestId: string;
}

export type MinutesHoldAnswer = { kind: 'held' } | { kind: 'refused'; available: { minuteUnits: number; creditUnits: number } };

/** Billing gave no answer (down, unreachable, too slow): whether it holds anything is unknown. */
export class BillingUnreachable extends Error {
  constructor(cause: unknown) {
    super('billing could not be asked for a hold', { cause });
  }
}

export interface MinutesHolds {
  /** Rejects with BillingUnreachable when billing gives no answer. */
  authorize(request: MinutesHoldRequest): Promise<MinutesHoldAnswer>;
  /** Gives a hold back now; when billing cannot be told, the hold is left to expire (logged). */
  release(request: Pick<MinutesHoldRequest, 'workspaceId' | 'holdId' | 'requestId'>): Promise<void>;
}

/** Billing's answers that decide something; any other failure means billing could not be asked. */
const answeredCodes = new Set([Code.InvalidArgument, Code.NotFound, Code.FailedPrecondition, Code.PermissionDenied, Code.AlreadyExists]);

export class ConnectMinutesHolds implements MinutesHolds {
  constructor(
    private readonly client: Client<typeof BillingService>,
    private readonly signer: CallerSigner,
    private readonly logger: Logger,
  ) {}

  private headers(request: Pick<MinutesHoldRequest, 'workspaceId' | 'requestId'>) {
    return callHeaders(this.signer, { workspaceId: request.workspaceId, principal: { type: 'internal', id: 'calls', name: 'calls' }, scopes: null, requestId: request.requestId });
  }

  async authorize(request: MinutesHoldRequest): Promise<MinutesHoldAnswer> {
    let answer;
    try {
      answer = await this.client.authorize(
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
        { headers: this.headers(request), timeoutMs: holdTimeoutMs },
      );
    } catch (error) {
      if (error instanceof ConnectError && answeredCodes.has(error.code)) throw error;
      this.logger.warn('billing did not answer a hold; the call is not placed', { error, workspace_id: request.workspaceId, hold_id: request.holdId });
      throw new BillingUnreachable(error);
    }
    if (answer.outcome.case === 'hold') return { kind: 'held' };
    if (answer.outcome.case === 'refused') {
      const available = answer.outcome.value.available;
      return { kind: 'refused', available: { minuteUnits: Number(available?.minuteUnits ?? 0n), creditUnits: Number(available?.creditUnits ?? 0n) } };
    }
    throw new Error('billing answered a hold with neither a hold nor a refusal');
  }

  async release(request: Pick<MinutesHoldRequest, 'workspaceId' | 'holdId' | 'requestId'>): Promise<void> {
    try {
      await this.client.release({ holdId: request.holdId, workspaceId: request.workspaceId }, { headers: this.headers(request), timeoutMs: holdTimeoutMs });
    } catch (error) {
      this.logger.warn('billing did not take a hold back; it expires on its own', { error, workspace_id: request.workspaceId, hold_id: request.holdId });
    }
  }
}
