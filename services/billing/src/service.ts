// The BillingService: the caller's wallet, ledger and usage, and (for platform services only)
// transfers and debits that never take a non-issuer wallet below zero.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type { BillingService, DebitRequest, GetUsageSummaryRequest, ListTransactionsRequest, TransferRequest } from '@voice/proto/voice/billing/v1/billing';
import { internalCallerOf, invalidRequest, isUuid, normalisePage, notFound, serviceError, workspaceCallerOf } from '@voice/runtime';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { noUnits, plus, unitsToWire } from './domain/amounts.js';
import { readDebit, readTransfer } from './domain/requests.js';
import { usageWindow } from './domain/usage-window.js';
import { presentEntry, presentUsageTotal, presentWallet } from './presenter.js';
import type { BillingStore } from './store/store.js';
import type { WalletEventsNotice } from './wallet-events.js';
import type { Wallets } from './wallets.js';

export interface BillingDeps {
  store: BillingStore;
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

/** Workspace ids are UUIDs; anything else names no workspace. */
function requireWorkspaceId(id: string): void {
  if (!isUuid(id)) throw notFound('workspace');
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
    const checked = readTransfer(request);
    if (!checked.ok) throw invalidRequest(checked.issues);
    const transfer = checked.value;
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

  async debit(request: DebitRequest, context: HandlerContext) {
    requireInternal(context);
    const checked = readDebit(request);
    if (!checked.ok) throw invalidRequest(checked.issues);
    const debit = checked.value;
    requireWorkspaceId(debit.workspaceId);
    await this.deps.wallets.open(debit.workspaceId);
    const outcome = await this.deps.store.debit({ ...debit, now: this.deps.now().toISOString() });
    switch (outcome.kind) {
      case 'debited':
      case 'replayed':
        if (outcome.kind === 'debited') this.deps.walletEvents.wake();
        return { transaction: presentEntry(outcome.entry), replayed: outcome.kind === 'replayed' };
      case 'insufficient_credits':
        throw insufficientCredits();
      case 'id_reused':
        throw idReused('debit_id');
      case 'wallet_missing':
        throw notFound('workspace');
    }
  }
}
