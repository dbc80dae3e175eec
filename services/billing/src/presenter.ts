// Store records as the messages of voice.billing.v1.
import type { MessageInitShape } from '@bufbuild/protobuf';
import { HoldStatus, type HoldSchema, type TransactionSchema, type UsageByKindSchema, type WalletSchema } from '@voice/proto/voice/billing/v1/billing';
import { toTimestamp } from '@voice/runtime/time';
import { unitsToWire } from './domain/amounts.js';
import { availableOf } from './domain/balance.js';
import type { HoldStatus as StoredHoldStatus } from './domain/holds.js';
import type { HoldRecord, LedgerEntry, UsageTotal, WalletRecord } from './store/store.js';

export const presentWallet = (wallet: WalletRecord): MessageInitShape<typeof WalletSchema> => ({
  workspaceId: wallet.workspaceId,
  balance: unitsToWire(wallet.balance),
  version: BigInt(wallet.version),
  issuer: wallet.issuer,
  available: unitsToWire(availableOf(wallet)),
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

const holdStatuses: Record<StoredHoldStatus, HoldStatus> = {
  open: HoldStatus.OPEN,
  captured: HoldStatus.CAPTURED,
  released: HoldStatus.RELEASED,
  expired: HoldStatus.EXPIRED,
};

export const presentHold = (hold: HoldRecord): MessageInitShape<typeof HoldSchema> => ({
  holdId: hold.holdId,
  workspaceId: hold.workspaceId,
  status: holdStatuses[hold.status],
  held: unitsToWire(hold.held),
  captured: unitsToWire(hold.captured),
  creditUnitsPerMinute: BigInt(hold.creditUnitsPerMinute),
  kind: hold.kind,
  reference: hold.reference,
  description: hold.description,
  expiresAt: toTimestamp(hold.expiresAt),
  createdAt: toTimestamp(hold.createdAt),
  settledAt: hold.settledAt === null ? undefined : toTimestamp(hold.settledAt),
});
