// What every service that spends asks billing the same way: a hold's answer either decides (held,
// refused, or a refusal of the request) or billing could not be asked at all, and then whether it
// holds anything is unknown; a hold given back early that billing cannot take back expires on its own.
import { Code, ConnectError, type Client } from '@connectrpc/connect';
import type { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { callHeaders, serviceCaller, type CallerSigner } from './caller.js';
import type { Logger } from './logger.js';

/** How long a request that spends waits for billing's answer to a hold. */
export const holdTimeoutMs = 2_000;

/** Billing did not answer (down, unreachable, too slow): whether it holds anything is unknown. */
export class BillingUnreachable extends Error {
  constructor(cause: unknown) {
    super('billing could not be asked for a hold', { cause });
  }
}

/** Billing's answers that decide something; any other failure means billing could not be asked. */
const answeredCodes = new Set([Code.InvalidArgument, Code.NotFound, Code.FailedPrecondition, Code.PermissionDenied, Code.AlreadyExists]);

export interface HoldKey {
  workspaceId: string;
  holdId: string;
  /** The request id the hold is logged under at billing. */
  requestId: string;
}

/** The spending service's signed call to billing in the workspace of the hold. */
export const holdCallOptions = (signer: CallerSigner, service: string, key: Pick<HoldKey, 'workspaceId' | 'requestId'>) => ({
  headers: callHeaders(signer, serviceCaller(service, key.workspaceId, key.requestId)),
  timeoutMs: holdTimeoutMs,
});

/** Runs an Authorize: billing's deciding answers and refusals pass through, any other failure is BillingUnreachable (logged). */
export async function askBillingForHold<T>(authorize: () => Promise<T>, logger: Logger, key: HoldKey): Promise<T> {
  try {
    return await authorize();
  } catch (error) {
    if (error instanceof ConnectError && answeredCodes.has(error.code)) throw error;
    logger.warn('billing did not answer a hold; nothing goes ahead', { error, workspace_id: key.workspaceId, hold_id: key.holdId });
    throw new BillingUnreachable(error);
  }
}

/** Gives a hold back now; when billing cannot be told, the hold is left to expire (logged). */
export async function releaseHold(client: Client<typeof BillingService>, signer: CallerSigner, service: string, logger: Logger, key: HoldKey): Promise<void> {
  try {
    await client.release({ holdId: key.holdId, workspaceId: key.workspaceId }, holdCallOptions(signer, service, key));
  } catch (error) {
    logger.warn('billing did not take a hold back; it expires on its own', { error, workspace_id: key.workspaceId, hold_id: key.holdId });
  }
}
