// Store records as the messages of voice.billing.v1.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { TransactionSchema, UsageByKindSchema, WalletSchema } from '@voice/proto/voice/billing/v1/billing';
import { toTimestamp } from '@voice/runtime';
import { unitsToWire } from './domain/amounts.js';
import type { LedgerEntry, UsageTotal, WalletRecord } from './store/store.js';

export const presentWallet = (wallet: WalletRecord): MessageInitShape<typeof WalletSchema> => ({
  workspaceId: wallet.workspaceId,
  balance: unitsToWire(wallet.balance),
  version: BigInt(wallet.version),
  issuer: wallet.issuer,
});

export const presentEntry = (entry: LedgerEntry): MessageInitShape<typeof TransactionSchema> => ({
  id: entry.id,
  kind: entry.kind,
  amount: unitsToWire(entry.amount),
  balanceAfter: unitsToWire(entry.balanceAfter),
  reference: entry.reference,
  description: entry.description,
  createdAt: toTimestamp(entry.createdAt),
});

export const presentUsageTotal = (total: UsageTotal): MessageInitShape<typeof UsageByKindSchema> => ({
  kind: total.kind,
  count: total.count,
  amount: unitsToWire(total.consumed),
});
