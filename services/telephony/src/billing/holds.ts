// Billing's holds as telephony uses them: before anything is sent or bought, the price is held at
// billing against the workspace's available balance; the usage event that captures (or releases)
// the hold travels later through the outbox. Billing either answers (held, or refused with what is
// available) or could not be asked, and then nothing may go ahead.
import { Code, ConnectError, type Client } from '@connectrpc/connect';
import { callHeaders, type CallerSigner } from '@voice/runtime/caller';
import type { Logger } from '@voice/runtime/logger';
import type { BillingService } from '@voice/proto/voice/billing/v1/billing';

/** How long a send or a purchase waits for billing's answer to a hold. */
export const holdTimeoutMs = 2_000;

export interface HoldRequest {
  workspaceId: string;
  /** Unique in the workspace: a retry of the same request is the same hold. */
  holdId: string;
  creditUnits: number;
  /** The ledger kind of its capture, e.g. "sms.outbound". */
  kind: string;
  reference: string;
  description: string;
  expiresInSeconds: number;
  /** The request id the hold is logged under at billing. */
  requestId: string;
}

export type HoldAnswer = { kind: 'held' } | { kind: 'refused'; availableUnits: number };

/** Billing did not answer (down, unreachable, too slow): whether it holds anything is unknown. */
export class BillingUnreachable extends Error {
  constructor(cause: unknown) {
    super('billing could not be asked for a hold', { cause });
  }
}

export interface BillingHolds {
  /** Rejects with BillingUnreachable when billing gives no answer. */
  authorize(request: HoldRequest): Promise<HoldAnswer>;
  /** Gives a hold back now; when billing cannot be told, the hold is left to expire (logged). */
  release(request: Pick<HoldRequest, 'workspaceId' | 'holdId' | 'requestId'>): Promise<void>;
}

/** Billing's answers that decide something; any other failure means billing could not be asked. */
const answeredCodes = new Set([Code.InvalidArgument, Code.NotFound, Code.FailedPrecondition, Code.PermissionDenied, Code.AlreadyExists]);

export class ConnectBillingHolds implements BillingHolds {
  constructor(
    private readonly client: Client<typeof BillingService>,
    private readonly signer: CallerSigner,
    private readonly logger: Logger,
    private readonly timeoutMs = holdTimeoutMs,
  ) {}

  async release(request: Pick<HoldRequest, 'workspaceId' | 'holdId' | 'requestId'>): Promise<void> {
    try {
      await this.client.release({ holdId: request.holdId, workspaceId: request.workspaceId }, { headers: this.headers(request), timeoutMs: this.timeoutMs });
    } catch (error) {
      this.logger.warn('billing did not take a hold back; it expires on its own', { error, workspace_id: request.workspaceId, hold_id: request.holdId });
    }
  }

  private headers(request: Pick<HoldRequest, 'workspaceId' | 'requestId'>) {
    return callHeaders(this.signer, {
      workspaceId: request.workspaceId,
      principal: { type: 'internal', id: 'telephony', name: 'telephony' },
      scopes: null,
      requestId: request.requestId,
    });
  }

  async authorize(request: HoldRequest): Promise<HoldAnswer> {
    let answer;
    try {
      answer = await this.client.authorize(
        {
          holdId: request.holdId,
          workspaceId: request.workspaceId,
          amount: { creditUnits: BigInt(request.creditUnits), minuteUnits: 0n },
          expiresInSeconds: request.expiresInSeconds,
          kind: request.kind,
          reference: request.reference,
          description: request.description,
        },
        { headers: this.headers(request), timeoutMs: this.timeoutMs },
      );
    } catch (error) {
      if (error instanceof ConnectError && answeredCodes.has(error.code)) throw error;
      this.logger.warn('billing did not answer a hold; nothing goes ahead', { error, workspace_id: request.workspaceId, hold_id: request.holdId });
      throw new BillingUnreachable(error);
    }
    if (answer.outcome.case === 'hold') return { kind: 'held' };
    if (answer.outcome.case === 'refused') return { kind: 'refused', availableUnits: Number(answer.outcome.value.available?.creditUnits ?? 0n) };
    throw new Error('billing answered a hold with neither a hold nor a refusal');
  }
}
