// The BillingService: the caller's wallet, ledger and usage, and (for platform services only)
// transfers and holds that never take a non-issuer wallet's available balance below zero.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type {
  AuthorizeRequest,
  BillingService,
  CaptureRequest,
  GetUsageSummaryRequest,
  ListTransactionsRequest,
  ReleaseRequest,
  TransferRequest,
} from '@voice/proto/voice/billing/v1/billing';
import { internalCallerOf, workspaceCallerOf } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import { normalisePage } from '@voice/runtime/validation';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { noUnits, plus, unitsToWire } from './domain/amounts.js';
import { readAuthorize, readCapture, readRelease, readTransfer, type Checked } from './domain/requests.js';
import { usageWindow } from './domain/usage-window.js';
import { presentEntry, presentHold, presentUsageTotal, presentWallet } from './presenter.js';
import type { HoldStore, LedgerStore, TransferStore } from './store/store.js';
import type { WalletEventsNotice } from './wallets/wallet-events.js';
import type { Wallets } from './wallets/wallets.js';

export interface BillingDeps {
  store: LedgerStore & TransferStore & HoldStore;
  wallets: Wallets;
  walletEvents: WalletEventsNotice;
  now: () => Date;
}

const requireInternal = (context: HandlerContext): void => void internalCallerOf(context, 'only platform services may move credits');

// The field violation tells callers which conflict this is, so none has to read the message.
const insufficientCredits = () =>
  serviceError('conflict', 'insufficient credits', { fields: [{ field: 'amount', issue: 'is more than the source wallet holds' }] });
const idReused = (field: string) =>
  serviceError('conflict', `this ${field} was already used for a different request`, { fields: [{ field, issue: 'was already used for a different request' }] });
const holdConflict = (message: string, issue: string) => serviceError('conflict', message, { fields: [{ field: 'hold_id', issue }] });

/** Workspace ids are UUIDs; anything else names no workspace. */
function requireWorkspaceId(id: string): void {
  if (!isUuid(id)) throw notFound('workspace');
}

/** The checked request, or the 400 naming its fields. */
function valid<T>(checked: Checked<T>): T {
  if (!checked.ok) throw invalidRequest(checked.issues);
  return checked.value;
}

export class BillingServiceImpl implements ServiceImpl<typeof BillingService> {
  constructor(private readonly deps: BillingDeps) {}

  async getBalance(_request: unknown, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    return { wallet: presentWallet(await this.deps.wallets.open(caller.workspaceId)) };
  }

  async listTransactions(request: ListTransactionsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const { entries, total } = await this.deps.store.listTransactions(caller.workspaceId, normalisePage(request.page));
    return { transactions: entries.map(presentEntry), total };
  }

  async getUsageSummary(request: GetUsageSummaryRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const checked = usageWindow(request.from, request.to, this.deps.now());
    if (!checked.ok) throw invalidRequest(checked.issues);
    const { from, to } = checked.window;
    const totals = await this.deps.store.usageByKind(caller.workspaceId, from.toISOString(), to.toISOString());
    return {
      from: timestampFromDate(from),
      to: timestampFromDate(to),
      total: unitsToWire(totals.reduce((sum, total) => plus(sum, total.consumed), noUnits)),
      byKind: totals.map(presentUsageTotal),
    };
  }

  async transfer(request: TransferRequest, context: HandlerContext) {
    requireInternal(context);
    const transfer = valid(readTransfer(request));
    requireWorkspaceId(transfer.fromWorkspaceId);
    requireWorkspaceId(transfer.toWorkspaceId);
    await this.deps.wallets.open(transfer.fromWorkspaceId);
    await this.deps.wallets.open(transfer.toWorkspaceId);
    const outcome = await this.deps.store.transfer({ ...transfer, now: this.deps.now().toISOString() });
    switch (outcome.kind) {
      case 'transferred':
      case 'replayed':
        if (outcome.kind === 'transferred') this.deps.walletEvents.wake();
        return { debit: presentEntry(outcome.debit), credit: presentEntry(outcome.credit), replayed: outcome.kind === 'replayed' };
      case 'insufficient_credits':
        throw insufficientCredits();
      case 'id_reused':
        throw idReused('transfer_id');
      case 'wallet_missing':
        throw notFound('workspace');
    }
  }

  async authorize(request: AuthorizeRequest, context: HandlerContext) {
    requireInternal(context);
    const hold = valid(readAuthorize(request));
    requireWorkspaceId(hold.workspaceId);
    await this.deps.wallets.open(hold.workspaceId);
    const outcome = await this.deps.store.authorize({ ...hold, now: this.deps.now().toISOString() });
    switch (outcome.kind) {
      case 'authorized':
      case 'replayed':
        return { outcome: { case: 'hold' as const, value: presentHold(outcome.hold) }, replayed: outcome.kind === 'replayed' };
      case 'insufficient':
        return { outcome: { case: 'refused' as const, value: { available: unitsToWire(outcome.available) } }, replayed: false };
      case 'id_reused':
        throw idReused('hold_id');
      case 'wallet_missing':
        throw notFound('workspace');
    }
  }

  async capture(request: CaptureRequest, context: HandlerContext) {
    requireInternal(context);
    const capture = valid(readCapture(request));
    requireWorkspaceId(capture.workspaceId);
    const outcome = await this.deps.store.capture({ ...capture, now: this.deps.now().toISOString(), afterSettled: 'refuse' });
    switch (outcome.kind) {
      case 'captured':
      case 'replayed':
        if (outcome.kind === 'captured' && outcome.entry) this.deps.walletEvents.wake();
        return { hold: presentHold(outcome.hold), transaction: outcome.entry && presentEntry(outcome.entry), replayed: outcome.kind === 'replayed' };
      case 'exceeds_hold':
        throw serviceError('conflict', 'the amount is more than the hold covers; nothing was captured', {
          fields: [{ field: 'amount', issue: 'is more than the hold covers' }],
        });
      case 'already_captured':
        throw holdConflict('the hold was already captured with a different amount', 'was already captured with a different amount');
      case 'not_open':
        throw holdConflict(`the hold was ${outcome.hold.status} and can no longer be captured`, `was ${outcome.hold.status}`);
      case 'hold_missing':
        throw notFound('hold');
    }
  }

  async release(request: ReleaseRequest, context: HandlerContext) {
    requireInternal(context);
    const key = valid(readRelease(request));
    requireWorkspaceId(key.workspaceId);
    const outcome = await this.deps.store.release({ ...key, now: this.deps.now().toISOString() });
    switch (outcome.kind) {
      case 'released':
      case 'replayed':
        return { hold: presentHold(outcome.hold), replayed: outcome.kind === 'replayed' };
      case 'captured':
        throw holdConflict('the hold was already captured and cannot be released', 'was already captured');
      case 'hold_missing':
        throw notFound('hold');
      case 'not_expired':
        throw new Error('a release that is not the sweeper\'s never waits for the expiry');
    }
  }
}
