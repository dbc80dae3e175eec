// What each wallet change writes, decided once for both adapters: the wallet after the change,
// the hold it creates or settles, and for a balance change its ledger entry and WalletChanged
// event. Adapters load what a plan needs, then persist a change only if the wallet is still at the
// version it was planned from.
import type { NewOutboxEvent } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { isZero, negated, noUnits, plus, type Units } from '../domain/amounts.js';
import { availableOf, deliveredOverdraft, spendingOverdraft, withinBound, type Overdraft } from '../domain/balance.js';
import { captureOf, planHold } from '../domain/holds.js';
import { transferInKind, transferOutKind, type EntryCategory } from '../domain/kinds.js';
import { walletChangedEvent } from '../wallets/wallet-events.js';
import type {
  AuthorizeCommand,
  AuthorizeOutcome,
  CaptureCommand,
  CaptureOutcome,
  HoldRecord,
  LedgerEntry,
  ReleaseCommand,
  ReleaseOutcome,
  TransferCommand,
  UsageCommand,
  WalletRecord,
} from './store.js';

export interface WalletChange {
  /** The wallet as read; the change applies only while it is still at this version. */
  before: WalletRecord;
  after: WalletRecord;
  /** A balance change's ledger entry and WalletChanged event (committed with it); none when only holds change. */
  entry?: LedgerEntry;
  event?: NewOutboxEvent;
}

interface EntryText {
  kind: string;
  category: EntryCategory;
  reference: string;
  description: string;
}

interface Movement {
  /** Added to the balance. */
  delta: Units;
  /** Added to the open holds. */
  heldDelta?: Units;
  overdraft: Overdraft;
  /** The entry of a balance change; a change of holds only writes none. */
  text?: EntryText;
  now: string;
  appliedUsageEventId?: string;
}

function planChange(wallet: WalletRecord, movement: Movement): WalletChange | undefined {
  const heldDelta = movement.heldDelta ?? noUnits;
  if (!withinBound(wallet, movement.delta, heldDelta, movement.overdraft)) return undefined;
  const balance = plus(wallet.balance, movement.delta);
  const after: WalletRecord = { ...wallet, balance, held: plus(wallet.held, heldDelta), version: wallet.version + 1, updatedAt: movement.now };
  if (!movement.text || isZero(movement.delta)) return { before: wallet, after };
  const entry: LedgerEntry = {
    id: newId(),
    workspaceId: wallet.workspaceId,
    ...movement.text,
    amount: movement.delta,
    balanceAfter: balance,
    walletVersion: after.version,
    createdAt: movement.now,
  };
  return { before: wallet, after, entry, event: walletChangedEvent(after, entry, movement.now, movement.appliedUsageEventId) };
}

/** The source's change, then the destination's; undefined when the source cannot afford it. */
export function planTransfer(source: WalletRecord, destination: WalletRecord, command: TransferCommand): [WalletChange, WalletChange] | undefined {
  const text = { category: 'transfer' as const, reference: command.reference, description: command.description };
  const debit = planChange(source, { delta: negated(command.amount), overdraft: spendingOverdraft, text: { ...text, kind: transferOutKind }, now: command.now });
  const credit = planChange(destination, { delta: command.amount, overdraft: spendingOverdraft, text: { ...text, kind: transferInKind }, now: command.now });
  return debit && credit ? [debit, credit] : undefined;
}

export function planUsage(wallet: WalletRecord, command: UsageCommand): WalletChange {
  const text = { kind: command.kind, category: 'usage' as const, reference: command.reference, description: command.description };
  const change = planChange(wallet, { delta: negated(command.consumed), overdraft: deliveredOverdraft, text, now: command.now, appliedUsageEventId: command.eventId });
  if (!change) throw new Error('a usage charge is never refused');
  return change;
}

/**
 * A hold operation's plan: either its outcome with nothing to write, or the wallet change and the
 * hold as it is to be stored (inserted by authorize, replaced by capture and release).
 */
export type HoldPlan<Outcome> = { write: false; outcome: Outcome } | { write: true; change: WalletChange; hold: HoldRecord; outcome: Outcome };

const done = <Outcome>(outcome: Outcome): HoldPlan<Outcome> => ({ write: false, outcome });

/** `prior` is the hold stored under the id, `wallet` the hold's wallet. */
export function planAuthorize(prior: HoldRecord | undefined, wallet: WalletRecord | undefined, command: AuthorizeCommand): HoldPlan<AuthorizeOutcome> {
  if (prior) return done(prior.fingerprint === command.fingerprint ? { kind: 'replayed', hold: prior } : { kind: 'id_reused' });
  if (!wallet) return done({ kind: 'wallet_missing', workspaceId: command.workspaceId });
  const plan = planHold(wallet, command);
  // No plan: the amount is beyond what any wallet could hold.
  if (!plan) return done({ kind: 'insufficient', available: availableOf(wallet) });
  if (!plan.ok) return done({ kind: 'insufficient', available: plan.available });
  const change = planChange(wallet, { delta: noUnits, heldDelta: plan.held, overdraft: 'allowed', now: command.now })!;
  const hold: HoldRecord = {
    workspaceId: command.workspaceId,
    holdId: command.holdId,
    status: 'open',
    held: plan.held,
    captured: noUnits,
    creditUnitsPerMinute: command.creditUnitsPerMinute,
    kind: command.kind,
    reference: command.reference,
    description: command.description,
    fingerprint: command.fingerprint,
    captureFingerprint: null,
    entryId: null,
    expiresAt: new Date(Date.parse(command.now) + command.expiresInSeconds * 1000).toISOString(),
    createdAt: command.now,
    settledAt: null,
  };
  return { write: true, change, hold, outcome: { kind: 'authorized', hold } };
}

/**
 * A capture's plan. A replay is answered with the hold only: the adapter adds its ledger entry
 * (`entryId`) to the outcome.
 */
export function planCapture(hold: HoldRecord | undefined, wallet: WalletRecord | undefined, command: CaptureCommand): HoldPlan<CaptureOutcome> {
  if (!hold || !wallet) return done({ kind: 'hold_missing' });
  if (hold.status === 'captured') {
    return done(hold.captureFingerprint === command.fingerprint ? { kind: 'replayed', hold } : { kind: 'already_captured', hold });
  }
  const open = hold.status === 'open';
  if (!open && command.afterSettled === 'refuse') return done({ kind: 'not_open', hold });
  const amount = captureOf(hold, command.amount);
  if (!amount) return done({ kind: 'exceeds_hold', hold });
  const text = { kind: hold.kind, category: 'usage' as const, reference: hold.reference, description: command.description || hold.description };
  // An open hold reserved what it debits, so the debit always fits; a settled one no longer does,
  // and is charged as a delivered service.
  const change = planChange(wallet, {
    delta: negated(amount),
    heldDelta: open ? negated(hold.held) : noUnits,
    overdraft: open ? 'allowed' : deliveredOverdraft,
    text,
    now: command.now,
    appliedUsageEventId: command.appliedUsageEventId,
  })!;
  const captured: HoldRecord = {
    ...hold,
    status: 'captured',
    captured: amount,
    captureFingerprint: command.fingerprint,
    entryId: change.entry?.id ?? null,
    settledAt: command.now,
  };
  return { write: true, change, hold: captured, outcome: { kind: 'captured', hold: captured, entry: change.entry, ...(open ? {} : { afterSettled: true as const }) } };
}

export function planRelease(hold: HoldRecord | undefined, wallet: WalletRecord | undefined, command: ReleaseCommand): HoldPlan<ReleaseOutcome> {
  if (!hold || !wallet) return done({ kind: 'hold_missing' });
  if (hold.status === 'captured') return done({ kind: 'captured', hold });
  if (hold.status !== 'open') return done({ kind: 'replayed', hold });
  if (command.expiredOnly && hold.expiresAt > command.now) return done({ kind: 'not_expired', hold });
  const change = planChange(wallet, { delta: noUnits, heldDelta: negated(hold.held), overdraft: 'allowed', now: command.now })!;
  const released: HoldRecord = { ...hold, status: command.expiredOnly ? 'expired' : 'released', settledAt: command.now };
  return { write: true, change, hold: released, outcome: { kind: 'released', hold: released } };
}
