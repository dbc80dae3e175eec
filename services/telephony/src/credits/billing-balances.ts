// Billing's current word on a wallet, asked only when the local view would refuse a send: a
// top-up that billing committed a moment ago must not wait for its event to arrive here.
import type { Client } from '@connectrpc/connect';
import { callHeaders, type CallerSigner, type Logger } from '@voice/runtime';
import type { BillingService } from '@voice/proto/voice/billing/v1/billing';
import type { WalletView } from '../store/store.js';
import { walletViewOf } from './wallet-view.js';

/** How long a send waits for billing's word before the local view decides. */
export const balanceCheckTimeoutMs = 2_000;

export interface BillingBalances {
  /** The wallet as billing sees it now, or undefined when billing does not answer. */
  current(workspaceId: string, requestId: string): Promise<WalletView | undefined>;
}

export class ConnectBillingBalances implements BillingBalances {
  constructor(
    private readonly client: Client<typeof BillingService>,
    private readonly signer: CallerSigner,
    private readonly logger: Logger,
    private readonly timeoutMs = balanceCheckTimeoutMs,
  ) {}

  async current(workspaceId: string, requestId: string): Promise<WalletView | undefined> {
    try {
      const { wallet } = await this.client.getBalance(
        {},
        {
          headers: callHeaders(this.signer, { workspaceId, principal: { type: 'internal', id: 'telephony', name: 'telephony' }, scopes: null, requestId }),
          timeoutMs: this.timeoutMs,
        },
      );
      if (!wallet) return undefined;
      return walletViewOf(wallet, workspaceId);
    } catch (error) {
      this.logger.warn('billing did not answer a balance check; the local credit view decides', { error, workspace_id: workspaceId });
      return undefined;
    }
  }
}
