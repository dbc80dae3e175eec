// The billing service's persistence, in its own words; SQLite and MongoDB adapters implement it
// and one contract suite (test/store.contract.ts) holds them to the same behaviour. Every change
// of a wallet (its balance or its holds) commits in one transaction with what goes with it: the
// hold, the ledger entry and the WalletChanged outbox event of a balance change.
import type { UsageCharge } from '../domain/usage-event.js';
import type { PrunableOutbox } from '@voice/runtime/events';
import type { Page } from '@voice/runtime/validation';
import type { Units } from '../domain/amounts.js';
import type { HoldStatus } from '../domain/holds.js';
import type { EntryCategory } from '../domain/kinds.js';
import type { AuthorizeInput, CaptureInput, HoldKey } from '../domain/requests.js';

export interface WalletRecord {
  workspaceId: string;
  balance: Units;
  /** The sum of the wallet's open holds; the available balance is balance less this. */
  held: Units;
  /** 0 for a wallet that never changed; one more with every change, holds included. */
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

export interface HoldRecord extends HoldKey {
  status: HoldStatus;
  /** What it reserves (reserved) while open; what it had reserved once settled. */
  held: Units;
  /** What its capture debited; zero until captured. */
  captured: Units;
  creditUnitsPerMinute: number;
  kind: string;
  reference: string;
  description: string;
  /** Of the Authorize request: tells a retry from another request under the same hold id. */
  fingerprint: string;
  /** Of the capture: tells a retry of the capture from another capture. */
  captureFingerprint: string | null;
  /** The capture's ledger entry; null until captured, and when the capture was zero. */
  entryId: string | null;
  expiresAt: string;
  createdAt: string;
  settledAt: string | null;
}

export interface AuthorizeCommand extends AuthorizeInput {
  now: string;
}

export type AuthorizeOutcome =
  | { kind: 'authorized'; hold: HoldRecord }
  /** The hold id was authorized for this request before: the hold as it is now. */
  | { kind: 'replayed'; hold: HoldRecord }
  | { kind: 'id_reused' }
  /** The available balance cannot cover it: nothing written, the hold id still free. */
  | { kind: 'insufficient'; available: Units }
  | { kind: 'wallet_missing'; workspaceId: string };

export interface CaptureCommand extends CaptureInput {
  now: string;
  /**
   * What a capture of a hold that is no longer open (released, or expired before the capture
   * came) does: `refuse` answers not_open; `charge` debits the use anyway as a delivered service
   * (a usage event for a hold that expired while billing or the stream was away).
   */
  afterSettled: 'refuse' | 'charge';
  /** The usage event that asked for this capture, named in its WalletChanged event; none for an RPC. */
  appliedUsageEventId?: string;
}

export type CaptureOutcome =
  /**
   * `entry` is the debit; undefined when the capture was zero (the hold released unused).
   * `afterSettled` when the hold had been released or had expired (afterSettled: charge).
   */
  | { kind: 'captured'; hold: HoldRecord; entry?: LedgerEntry; afterSettled?: true }
  | { kind: 'replayed'; hold: HoldRecord; entry?: LedgerEntry }
  /** Captured before with another amount or description. */
  | { kind: 'already_captured'; hold: HoldRecord }
  | { kind: 'exceeds_hold'; hold: HoldRecord }
  /** Released or expired (afterSettled: refuse). */
  | { kind: 'not_open'; hold: HoldRecord }
  | { kind: 'hold_missing' };

export interface ReleaseCommand extends HoldKey {
  now: string;
  /** The sweeper: release only a hold that expired by `now`, as expired. */
  expiredOnly?: boolean;
}

export type ReleaseOutcome =
  | { kind: 'released'; hold: HoldRecord }
  /** Already released or expired: nothing changed. */
  | { kind: 'replayed'; hold: HoldRecord }
  | { kind: 'captured'; hold: HoldRecord }
  /** expiredOnly, and the hold has not expired yet. */
  | { kind: 'not_expired'; hold: HoldRecord }
  | { kind: 'hold_missing' };

/** A decoded usage event, applied once however often it comes, as of `now`. */
export interface UsageCommand extends UsageCharge {
  now: string;
}

export type UsageOutcome =
  /** `entry` is undefined for a use of nothing. */
  | { kind: 'applied'; entry?: LedgerEntry; wallet: WalletRecord }
  | { kind: 'already_applied' }
  | { kind: 'wallet_missing'; workspaceId: string };

export interface UsageTotal {
  kind: string;
  count: number;
  /** Positive: what the entries of this kind took from the wallet. */
  consumed: Units;
}

/** Wallets, opened on first use. */
export interface WalletStore {
  getWallet(workspaceId: string): Promise<WalletRecord | undefined>;
  /** Creates the wallet (balance 0, version 0) unless it exists; answers the stored wallet either way. */
  openWallet(workspaceId: string, issuer: boolean, now: string): Promise<WalletRecord>;
}

/** Transfers between wallets. */
export interface TransferStore {
  /**
   * Moves the amount between two open wallets in one transaction, unless the source's available
   * balance (not the issuer's) would go below zero. A transfer id already used answers the first
   * outcome for the same request and id_reused for another; refused transfers leave no trace and
   * may be retried.
   */
  transfer(command: TransferCommand): Promise<TransferOutcome>;
}

/** Holds: reserved, captured or released once, or expired by the sweeper. */
export interface HoldStore {
  /**
   * Reserves the hold of an open wallet in one transaction with the wallet's held sum, unless the
   * available balance (not the issuer's) cannot cover it. Idempotent like transfer.
   */
  authorize(command: AuthorizeCommand): Promise<AuthorizeOutcome>;
  /**
   * Turns an open hold into one ledger debit (none for a zero capture) and gives the rest of its
   * reservation back, in one transaction. A second capture with the same fingerprint replays.
   */
  capture(command: CaptureCommand): Promise<CaptureOutcome>;
  /** Gives an open hold's reservation back unused ('released', or 'expired' for the sweeper). */
  release(command: ReleaseCommand): Promise<ReleaseOutcome>;
  getHold(workspaceId: string, holdId: string): Promise<HoldRecord | undefined>;
}

/** Open holds past their expiry, for the sweeper. */
export interface ExpiredHoldStore {
  /** Open holds that expired by `now`, soonest expired first. */
  expiredHolds(now: string, limit: number): Promise<HoldKey[]>;
}

/** Usage events that name no hold. */
export interface UsageStore {
  /**
   * Charges a usage event that names no hold to an open wallet once per event id; never refused
   * for the balance (it records a service already delivered).
   */
  applyUsage(command: UsageCommand): Promise<UsageOutcome>;
}

/** The ledger as callers read it. */
export interface LedgerStore {
  /** Newest first. */
  listTransactions(workspaceId: string, page: Page): Promise<{ entries: LedgerEntry[]; total: number }>;
  /** Consumption (usage: captured holds and usage events) created in [from, to), by kind in kind order. */
  usageByKind(workspaceId: string, from: string, to: string): Promise<UsageTotal[]>;
}

/** What the retention job prunes besides the outbox. */
export interface PrunableBillingRecords {
  /**
   * Deletes at most `limit` holds settled (captured, released or expired) before `before`, the
   * earliest settled first; answers how many. A hold recognises its redelivered usage events, so
   * it must outlive the stream's copies of them.
   */
  pruneSettledHolds(before: string, limit: number): Promise<number>;
  /** Forgets at most `limit` usage-event ids applied before `before`, the oldest first; answers how many. */
  pruneProcessedEvents(before: string, limit: number): Promise<number>;
}

/** The WalletChanged events committed with the changes, for the relay and the pruning job. */
export interface OutboxStore {
  readonly outbox: PrunableOutbox;
}

/** The whole store: every part on one database, which close() lets go of. */
export type BillingStore = WalletStore &
  TransferStore &
  HoldStore &
  ExpiredHoldStore &
  UsageStore &
  LedgerStore &
  PrunableBillingRecords &
  OutboxStore & {
    close(): Promise<void>;
  };
