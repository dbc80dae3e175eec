// The billing calls this service makes, as an internal caller, each failing as
// downstreamFailure says.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import type { CallerSigner } from '@voice/runtime/caller';
import type { Amount, BillingService, TransferRequestSchema, TransferResponse } from '@voice/proto/voice/billing/v1/billing';
import { internalCallOptions, type OnBehalfOf } from './caller.js';
import { answered, callDownstream } from './failures.js';

export class BillingCalls {
  constructor(
    private readonly client: Client<typeof BillingService>,
    private readonly signer: CallerSigner,
  ) {}

  /** The balance of the wallet of the workspace the call is made for. */
  async balance(on: OnBehalfOf): Promise<Amount> {
    const answer = await callDownstream('billing', () => this.client.getBalance({}, internalCallOptions(this.signer, on)));
    return answered('billing', answered('billing', answer.wallet, 'a wallet').balance, 'a balance');
  }

  /** Rejects with billing's own errors, conflicts included, for the caller to explain. */
  async transfer(request: MessageInitShape<typeof TransferRequestSchema>, on: OnBehalfOf): Promise<TransferResponse> {
    return callDownstream('billing', () => this.client.transfer(request, internalCallOptions(this.signer, on)));
  }
}
