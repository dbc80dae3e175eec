// The billing service's persistence, in its own words; SQLite and MongoDB adapters implement it
// and one contract suite (test/store.contract.ts) holds them to the same behaviour. Every change
// of a wallet commits together with its ledger entry and its WalletChanged outbox event.
import type { UsageCharge } from '../domain/usage-event.js';
import type { OutboxReader, Page } from '@voice/runtime';
import type { Units } from '../domain/amounts.js';
import type { EntryCategory } from '../domain/kinds.js';

export interface WalletRecord {
  workspaceId: string;
  balance: Units;
  /** 0 for a wallet that never changed; one more with every change. */
  version: number;
  /** The root platform's wallet: creates credits, no lower bound. */
  issuer: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface LedgerEntry {
  id: string;
  workspaceId: string;
  kind: string;
  category: EntryCategory;
  /** Signed: negative when value leaves the wallet. */
  amount: Units;
  balanceAfter: Units;
  /** The wallet's version this entry brought it to; orders a wallet's ledger. */
  walletVersion: number;
  reference: string;
  description: string;
  createdAt: string;
}

export interface TransferCommand {
  transferId: string;
  /** Tells a retry of this transfer from another transfer under the same id. */
  fingerprint: string;
  fromWorkspaceId: string;
  toWorkspaceId: string;
  /** Positive in one unit at least, never negative. */
  amount: Units;
  reference: string;
  description: string;
  now: string;
}

export type TransferOutcome =
  | { kind: 'transferred'; debit: LedgerEntry; credit: LedgerEntry }
  | { kind: 'replayed'; debit: LedgerEntry; credit: LedgerEntry }
  | { kind: 'id_reused' }
  | { kind: 'insufficient_credits' }
  | { kind: 'wallet_missing'; workspaceId: string };

export interface DebitCommand {
  debitId: string;
  fingerprint: string;
  workspaceId: string;
  amount: Units;
  kind: string;
  reference: string;
  description: string;
  now: string;
}

export type DebitOutcome =
  | { kind: 'debited'; entry: LedgerEntry }
  | { kind: 'replayed'; entry: LedgerEntry }
  | { kind: 'id_reused' }
  | { kind: 'insufficient_credits' }
  | { kind: 'wallet_missing'; workspaceId: string };

/** A decoded usage event, applied once however often it comes, as of `now`. */
export interface UsageCommand extends UsageCharge {
  now: string;
}

export type UsageOutcome =
  | { kind: 'applied'; entry: LedgerEntry; wallet: WalletRecord }
  | { kind: 'already_applied' }
  | { kind: 'wallet_missing'; workspaceId: string };

export interface UsageTotal {
  kind: string;
  count: number;
  /** Positive: what the entries of this kind took from the wallet. */
  consumed: Units;
}

export interface BillingStore {
  getWallet(workspaceId: string): Promise<WalletRecord | undefined>;
  /** Creates the wallet (balance 0, version 0) unless it exists; answers the stored wallet either way. */
  openWallet(workspaceId: string, issuer: boolean, now: string): Promise<WalletRecord>;
  /**
   * Moves the amount between two open wallets in one transaction, unless the source (not the
   * issuer) would go below zero. A transfer id already used answers the first outcome for the
   * same request and id_reused for another; refused transfers leave no trace and may be retried.
   */
  transfer(command: TransferCommand): Promise<TransferOutcome>;
  /** Takes the amount from an open wallet, with the rules and idempotency of transfer. */
  debit(command: DebitCommand): Promise<DebitOutcome>;
  /** Charges a usage event to an open wallet once per event id; never refused for the balance. */
  applyUsage(command: UsageCommand): Promise<UsageOutcome>;
  /** Newest first. */
  listTransactions(workspaceId: string, page: Page): Promise<{ entries: LedgerEntry[]; total: number }>;
  /** Consumption (usage and debits) created in [from, to), by kind in kind order. */
  usageByKind(workspaceId: string, from: string, to: string): Promise<UsageTotal[]>;
  /** The WalletChanged events committed with the changes, for the relay. */
  readonly outbox: OutboxReader;
  close(): Promise<void>;
}
