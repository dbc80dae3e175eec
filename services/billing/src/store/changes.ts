// What each wallet change writes, decided once for both adapters: the wallet after the change,
// its ledger entry and its WalletChanged event. Adapters persist a change only if the wallet is
// still at the version it was planned from.
import { newId, type NewOutboxEvent } from '@voice/runtime';
import { negated, type Units } from '../domain/amounts.js';
import { balanceAfter, spendingOverdraft, usageOverdraft, type Overdraft } from '../domain/balance.js';
import { transferInKind, transferOutKind, type EntryCategory } from '../domain/kinds.js';
import { walletChangedEvent } from '../wallet-events.js';
import type { DebitCommand, LedgerEntry, TransferCommand, UsageCommand, WalletRecord } from './store.js';

export interface WalletChange {
  /** The wallet as read; the change applies only while it is still at this version. */
  before: WalletRecord;
  after: WalletRecord;
  entry: LedgerEntry;
  /** WalletChanged, committed with the change. */
  event: NewOutboxEvent;
}

interface EntryText {
  kind: string;
  category: EntryCategory;
  reference: string;
  description: string;
}

function planChange(wallet: WalletRecord, delta: Units, overdraft: Overdraft, text: EntryText, now: string, appliedUsageEventId = ''): WalletChange | undefined {
  const balance = balanceAfter(wallet, delta, overdraft);
  if (!balance) return undefined;
  const after: WalletRecord = { ...wallet, balance, version: wallet.version + 1, updatedAt: now };
  const entry: LedgerEntry = {
    id: newId(),
    workspaceId: wallet.workspaceId,
    ...text,
    amount: delta,
    balanceAfter: balance,
    walletVersion: after.version,
    createdAt: now,
  };
  return { before: wallet, after, entry, event: walletChangedEvent(after, now, appliedUsageEventId) };
}

/** The source's change, then the destination's; undefined when the source cannot afford it. */
export function planTransfer(source: WalletRecord, destination: WalletRecord, command: TransferCommand): [WalletChange, WalletChange] | undefined {
  const text = { category: 'transfer' as const, reference: command.reference, description: command.description };
  const debit = planChange(source, negated(command.amount), spendingOverdraft, { ...text, kind: transferOutKind }, command.now);
  const credit = planChange(destination, command.amount, spendingOverdraft, { ...text, kind: transferInKind }, command.now);
  return debit && credit ? [debit, credit] : undefined;
}

/** Undefined when the wallet cannot afford it. */
export function planDebit(wallet: WalletRecord, command: DebitCommand): WalletChange | undefined {
  const text = { kind: command.kind, category: 'debit' as const, reference: command.reference, description: command.description };
  return planChange(wallet, negated(command.amount), spendingOverdraft, text, command.now);
}

export function planUsage(wallet: WalletRecord, command: UsageCommand): WalletChange {
  const text = { kind: command.kind, category: 'usage' as const, reference: command.reference, description: command.description };
  const change = planChange(wallet, negated(command.consumed), usageOverdraft, text, command.now, command.eventId);
  if (!change) throw new Error('a usage charge is never refused');
  return change;
}
