// TransferPlatformCredits: credits between the platform's wallet and its user's first workspace,
// in both ledgers, through billing; billing's refusals explained in the platform's terms.
import { create } from '@bufbuild/protobuf';
import { ConnectError } from '@connectrpc/connect';
import { errorDetailOf, serviceError } from '@voice/runtime/errors';
import type { TransferResponse } from '@voice/proto/voice/billing/v1/billing';
import { TransferPlatformCreditsResponseSchema, type TransferPlatformCreditsResponse } from '@voice/proto/voice/platform/v1/platform_users';
import type { BillingCalls } from '../downstream/billing.js';
import type { PlatformCall } from './platform.js';
import { presentEntry } from '../presenter.js';
import type { TransferInput } from './requests.js';
import { transferIdOf } from './transfer-id.js';

/** Billing's two conflicts of a transfer, told apart by the field each names. */
function explained(error: unknown, toUser: boolean): unknown {
  if (!(error instanceof ConnectError)) return error;
  const detail = errorDetailOf(error);
  if (detail.reason !== 'conflict') return error;
  const field = detail.fields[0]?.field;
  if (field === 'amount') {
    return serviceError(
      'conflict',
      toUser
        ? "the platform's wallet does not hold enough credits for this transfer; nothing was moved"
        : "the user's wallet does not hold enough credits to take back; nothing was moved",
    );
  }
  if (field === 'transfer_id') return serviceError('conflict', 'this Idempotency-Key was already used with a different request body');
  return error;
}

export async function transferCredits(
  billing: Pick<BillingCalls, 'transfer'>,
  platform: PlatformCall,
  userWorkspaceId: string,
  input: TransferInput,
): Promise<TransferPlatformCreditsResponse> {
  const toUser = input.creditUnits > 0n;
  const platformWorkspaceId = platform.workspace.id;
  let answer: TransferResponse;
  try {
    answer = await billing.transfer(
      {
        fromWorkspaceId: toUser ? platformWorkspaceId : userWorkspaceId,
        toWorkspaceId: toUser ? userWorkspaceId : platformWorkspaceId,
        amount: { creditUnits: toUser ? input.creditUnits : -input.creditUnits, minuteUnits: 0n },
        transferId: transferIdOf(platformWorkspaceId, input.idempotencyKey),
        reference: `platform_user:${input.userId}`,
        description: input.description,
      },
      platform.on,
    );
  } catch (error) {
    throw explained(error, toUser);
  }
  const platformEntry = toUser ? answer.debit : answer.credit;
  const userEntry = toUser ? answer.credit : answer.debit;
  return create(TransferPlatformCreditsResponseSchema, {
    userId: input.userId,
    workspaceId: userWorkspaceId,
    creditUnits: input.creditUnits,
    description: input.description,
    platformEntry: presentEntry(platformEntry, platformWorkspaceId),
    userEntry: presentEntry(userEntry, userWorkspaceId),
    replayed: answer.replayed,
  });
}
