// BillingStore on MongoDB: the service's own database; every change is one multi-document
// transaction (wallets, holds, ledger, operation or processed event, outbox), and each wallet
// write is conditional on the version the change was planned from, so the available balance a
// change checked is still the wallet's when it commits. MongoDB transactions need a replica set,
// as production runs.
import { MongoServerError, type ClientSession, type Collection, type Db } from 'mongodb';
import {
  connectMongo,
  deleteBatch,
  isDuplicateKey,
  MongoOutbox,
  MongoProcessedEvents,
  type MongoHandle,
} from '@voice/runtime/store/mongo';
import { mongoValues } from '@voice/runtime/store';
import type { Page } from '@voice/runtime/validation';
import { consumptionCategories } from '../domain/kinds.js';
import { planAuthorize, planCapture, planRelease, planTransfer, planUsage, type HoldPlan, type WalletChange } from './changes.js';
import { storedHold, holdFromStored, type StoredHold } from './mapping/hold.js';
import { walletFromStored, type StoredWallet } from './mapping/wallet.js';
import { storedLedgerEntry, ledgerEntryFromStored, usageTotalOf, type StoredLedgerEntry } from './mapping/ledger.js';
import type {
  AuthorizeCommand,
  AuthorizeOutcome,
  BillingStore,
  CaptureCommand,
  CaptureOutcome,
  HoldRecord,
  LedgerEntry,
  ReleaseCommand,
  ReleaseOutcome,
  TransferCommand,
  TransferOutcome,
  UsageCommand,
  UsageOutcome,
  UsageTotal,
  WalletRecord,
} from './store.js';

type WalletDocument = StoredWallet<boolean> & { _id: string };

/** A ledger document: the shared fields under the entry's id. */
type LedgerDocument = StoredLedgerEntry & { _id: string };

/** A hold under `<workspace id>:<hold id>` (workspace ids are UUIDs, so the key is unambiguous). */
type HoldDocument = StoredHold & { _id: string };

/** A transfer by the caller's id (`transfer:<id>`). */
interface OperationDocument {
  _id: string;
  fingerprint: string;
  entry_ids: string[];
  created_at: string;
}

const walletOf = (doc: WalletDocument): WalletRecord => walletFromStored(doc._id, doc, mongoValues);

const entryOf = (doc: LedgerDocument): LedgerEntry => ledgerEntryFromStored(doc._id, doc);

const documentOf = (entry: LedgerEntry): LedgerDocument => ({ _id: entry.id, ...storedLedgerEntry(entry) });

const holdKey = (key: { workspaceId: string; holdId: string }): string => `${key.workspaceId}:${key.holdId}`;

/** A wallet moved on between reading and writing it: the whole transaction runs again. */
class WalletMoved extends Error {
  constructor(workspaceId: string) {
    super(`wallet ${workspaceId} changed while a change of it was being written`);
  }
}

const namespaceExists = 48;
/** Reruns after a lost race; MongoDB's own write conflicts are retried inside withTransaction. */
const maxAttempts = 20;

export class MongoBillingStore implements BillingStore {
  readonly outbox: MongoOutbox;
  private readonly processed: MongoProcessedEvents;

  private constructor(
    private readonly handle: MongoHandle,
    private readonly wallets: Collection<WalletDocument>,
    private readonly ledger: Collection<LedgerDocument>,
    private readonly operations: Collection<OperationDocument>,
    private readonly holds: Collection<HoldDocument>,
  ) {
    this.outbox = new MongoOutbox(handle.db);
    this.processed = new MongoProcessedEvents(handle.db);
  }

  static async connect(uri: string, databaseName: string): Promise<MongoBillingStore> {
    const handle = await connectMongo(uri, databaseName);
    try {
      // Collections exist before the first transaction writes to them (older servers refuse to create them inside one).
      await createCollections(handle.db, ['wallets', 'ledger', 'operations', 'holds', 'outbox', 'processed_events']);
      const store = new MongoBillingStore(
        handle,
        handle.db.collection<WalletDocument>('wallets'),
        handle.db.collection<LedgerDocument>('ledger'),
        handle.db.collection<OperationDocument>('operations'),
        handle.db.collection<HoldDocument>('holds'),
      );
      await store.ledger.createIndex({ workspace_id: 1, wallet_version: -1 }, { unique: true, name: 'one_entry_per_wallet_version' });
      await store.ledger.createIndex({ workspace_id: 1, category: 1, created_at: 1 }, { name: 'by_category_and_time' });
      await store.holds.createIndex({ status: 1, expires_at: 1 }, { name: 'by_status_and_expiry' });
      await store.holds.createIndex({ settled_at: 1 }, { name: 'by_settlement' });
      await store.outbox.ensureIndexes();
      await store.processed.ensureIndexes();
      return store;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async getWallet(workspaceId: string): Promise<WalletRecord | undefined> {
    const doc = await this.wallets.findOne({ _id: workspaceId });
    return doc ? walletOf(doc) : undefined;
  }

  async openWallet(workspaceId: string, issuer: boolean, now: string): Promise<WalletRecord> {
    try {
      await this.wallets.updateOne(
        { _id: workspaceId },
        { $setOnInsert: { credit_units: 0, minute_units: 0, held_credit_units: 0, held_minute_units: 0, version: 0, issuer, created_at: now, updated_at: now } },
        { upsert: true },
      );
    } catch (error) {
      // Two concurrent upserts of one _id: the loser finds the winner's wallet below.
      if (!isDuplicateKey(error)) throw error;
    }
    return walletOf((await this.wallets.findOne({ _id: workspaceId }))!);
  }

  async transfer(command: TransferCommand): Promise<TransferOutcome> {
    return this.inTransaction(async (session): Promise<TransferOutcome> => {
      const prior = await this.prior(`transfer:${command.transferId}`, command.fingerprint, session);
      if (prior?.kind === 'other') return { kind: 'id_reused' };
      if (prior?.kind === 'same') return { kind: 'replayed', debit: prior.entries[0]!, credit: prior.entries[1]! };
      const source = await this.wallet(command.fromWorkspaceId, session);
      if (!source) return { kind: 'wallet_missing', workspaceId: command.fromWorkspaceId };
      const destination = await this.wallet(command.toWorkspaceId, session);
      if (!destination) return { kind: 'wallet_missing', workspaceId: command.toWorkspaceId };
      const changes = planTransfer(source, destination, command);
      if (!changes) return { kind: 'insufficient_credits' };
      for (const change of changes) await this.persist(change, session);
      const [debit, credit] = changes.map((change) => change.entry) as [LedgerEntry, LedgerEntry];
      await this.recordOperation(`transfer:${command.transferId}`, command.fingerprint, [debit, credit], command.now, session);
      return { kind: 'transferred', debit, credit };
    });
  }

  async authorize(command: AuthorizeCommand): Promise<AuthorizeOutcome> {
    return this.inTransaction(async (session) => this.carryOut(planAuthorize(await this.hold(command, session), await this.wallet(command.workspaceId, session), command), session));
  }

  async capture(command: CaptureCommand): Promise<CaptureOutcome> {
    return this.inTransaction(async (session): Promise<CaptureOutcome> => {
      const plan = planCapture(await this.hold(command, session), await this.wallet(command.workspaceId, session), command);
      const outcome = await this.carryOut(plan, session);
      if (outcome.kind !== 'replayed' || outcome.hold.entryId === null) return outcome;
      return { ...outcome, entry: entryOf((await this.ledger.findOne({ _id: outcome.hold.entryId }, { session }))!) };
    });
  }

  async release(command: ReleaseCommand): Promise<ReleaseOutcome> {
    return this.inTransaction(async (session) => this.carryOut(planRelease(await this.hold(command, session), await this.wallet(command.workspaceId, session), command), session));
  }

  async getHold(workspaceId: string, holdId: string): Promise<HoldRecord | undefined> {
    const doc = await this.holds.findOne({ _id: holdKey({ workspaceId, holdId }) });
    return doc ? holdFromStored(doc) : undefined;
  }

  async expiredHolds(now: string, limit: number): Promise<{ workspaceId: string; holdId: string }[]> {
    const docs = await this.holds
      .find({ status: 'open', expires_at: { $lte: now } }, { projection: { workspace_id: 1, hold_id: 1 } })
      .sort({ expires_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => ({ workspaceId: doc.workspace_id, holdId: doc.hold_id }));
  }

  async pruneSettledHolds(before: string, limit: number): Promise<number> {
    return deleteBatch(this.holds, { status: { $ne: 'open' }, settled_at: { $type: 'string', $lt: before } }, { settled_at: 1 }, limit);
  }

  async pruneProcessedEvents(before: string, limit: number): Promise<number> {
    return this.processed.prune(before, limit);
  }

  async applyUsage(command: UsageCommand): Promise<UsageOutcome> {
    return this.inTransaction(async (session): Promise<UsageOutcome> => {
      if (await this.processed.seen(command.eventId, session)) return { kind: 'already_applied' };
      const wallet = await this.wallet(command.workspaceId, session);
      if (!wallet) return { kind: 'wallet_missing', workspaceId: command.workspaceId };
      const change = planUsage(wallet, command);
      await this.persist(change, session);
      await this.processed.record(command.eventId, command.now, session);
      return { kind: 'applied', entry: change.entry, wallet: change.after };
    });
  }

  async listTransactions(workspaceId: string, page: Page): Promise<{ entries: LedgerEntry[]; total: number }> {
    const [total, docs] = await Promise.all([
      this.ledger.countDocuments({ workspace_id: workspaceId }),
      this.ledger.find({ workspace_id: workspaceId }).sort({ wallet_version: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { entries: docs.map(entryOf), total };
  }

  async usageByKind(workspaceId: string, from: string, to: string): Promise<UsageTotal[]> {
    const groups = await this.ledger
      .aggregate<{ _id: string; count: number; credit_units: number; minute_units: number }>([
        { $match: { workspace_id: workspaceId, category: { $in: [...consumptionCategories] }, created_at: { $gte: from, $lt: to } } },
        { $group: { _id: '$kind', count: { $sum: 1 }, credit_units: { $sum: '$credit_units' }, minute_units: { $sum: '$minute_units' } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    return groups.map((group) => usageTotalOf(group._id, group.count, group));
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /**
   * Runs `work` in one transaction. A wallet that moved since it was read, or a concurrent
   * request that committed the same operation or event id first (a duplicate key), runs the
   * work again: it then plans from the new balance, or finds the committed id.
   */
  private async inTransaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const session = this.handle.client.startSession();
      try {
        return await session.withTransaction(() => work(session));
      } catch (error) {
        const raced = error instanceof WalletMoved || isDuplicateKey(error);
        if (!raced || attempt >= maxAttempts) throw error;
      } finally {
        await session.endSession();
      }
    }
  }

  private async wallet(workspaceId: string, session: ClientSession): Promise<WalletRecord | undefined> {
    const doc = await this.wallets.findOne({ _id: workspaceId }, { session });
    return doc ? walletOf(doc) : undefined;
  }

  private async hold(key: { workspaceId: string; holdId: string }, session: ClientSession): Promise<HoldRecord | undefined> {
    const doc = await this.holds.findOne({ _id: holdKey(key) }, { session });
    return doc ? holdFromStored(doc) : undefined;
  }

  /**
   * Writes a hold plan's change and hold. The wallet write is conditional on its version, and
   * every hold operation changes the wallet, so two operations on one hold cannot both commit.
   */
  private async carryOut<Outcome>(plan: HoldPlan<Outcome>, session: ClientSession): Promise<Outcome> {
    if (plan.write) {
      await this.persist(plan.change, session);
      await this.holds.replaceOne({ _id: holdKey(plan.hold) }, storedHold(plan.hold), { upsert: true, session });
    }
    return plan.outcome;
  }

  private async persist({ before, after, entry, event }: WalletChange, session: ClientSession): Promise<void> {
    const updated = await this.wallets.updateOne(
      { _id: before.workspaceId, version: before.version },
      {
        $set: {
          credit_units: after.balance.creditUnits,
          minute_units: after.balance.minuteUnits,
          held_credit_units: after.held.creditUnits,
          held_minute_units: after.held.minuteUnits,
          version: after.version,
          updated_at: after.updatedAt,
        },
      },
      { session },
    );
    if (updated.matchedCount !== 1) throw new WalletMoved(before.workspaceId);
    if (entry) await this.ledger.insertOne(documentOf(entry), { session });
    if (event) await this.outbox.add(event, session);
  }

  private async prior(id: string, fingerprint: string, session: ClientSession): Promise<undefined | { kind: 'same'; entries: LedgerEntry[] } | { kind: 'other' }> {
    const operation = await this.operations.findOne({ _id: id }, { session });
    if (!operation) return undefined;
    if (operation.fingerprint !== fingerprint) return { kind: 'other' };
    const docs = await this.ledger.find({ _id: { $in: operation.entry_ids } }, { session }).toArray();
    const byId = new Map(docs.map((doc) => [doc._id, entryOf(doc)]));
    return { kind: 'same', entries: operation.entry_ids.map((entryId) => byId.get(entryId)!) };
  }

  private async recordOperation(id: string, fingerprint: string, entries: LedgerEntry[], now: string, session: ClientSession): Promise<void> {
    await this.operations.insertOne({ _id: id, fingerprint, entry_ids: entries.map((entry) => entry.id), created_at: now }, { session });
  }
}

async function createCollections(db: Db, names: string[]): Promise<void> {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((collection) => collection.name));
  for (const name of names.filter((candidate) => !existing.has(candidate))) {
    try {
      await db.createCollection(name);
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === namespaceExists)) throw error;
    }
  }
}
