// Billing's Wallet message as telephony's credit view keeps it: the one conversion the wallet
// events and the balance check share.
import type { Wallet } from '@voice/proto/voice/billing/v1/billing';
import type { WalletView } from '../store/store.js';

export const walletViewOf = (wallet: Wallet, workspaceId: string = wallet.workspaceId): WalletView => ({
  workspaceId,
  creditUnits: Number(wallet.balance?.creditUnits ?? 0n),
  version: Number(wallet.version),
  issuer: wallet.issuer,
});
