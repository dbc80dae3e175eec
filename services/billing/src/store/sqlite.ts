// BillingStore on embedded SQLite: every change runs in one IMMEDIATE transaction that holds
// the write lock from its first read, so the available balance it checks is the one it writes.
import type Database from 'better-sqlite3';
import {
  openSqlite,
  SqliteOutbox,
  sqliteOutboxMigration,
  SqliteProcessedEvents,
  sqliteProcessedEventsMigration,
  statementCache,
  type SqliteDatabase,
} from '@voice/runtime/store/sqlite';
import { sqliteValues } from '@voice/runtime/store';
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

const migrations = [
  `CREATE TABLE wallets (
     workspace_id TEXT PRIMARY KEY,
     credit_units INTEGER NOT NULL,
     minute_units INTEGER NOT NULL,
     version INTEGER NOT NULL,
     issuer INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE ledger (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     wallet_version INTEGER NOT NULL,
     kind TEXT NOT NULL,
     category TEXT NOT NULL,
     credit_units INTEGER NOT NULL,
     minute_units INTEGER NOT NULL,
     balance_credit_units INTEGER NOT NULL,
     balance_minute_units INTEGER NOT NULL,
     reference TEXT NOT NULL,
     description TEXT NOT NULL,
     created_at TEXT NOT NULL,
     UNIQUE (workspace_id, wallet_version)
   );
   CREATE INDEX ledger_by_category_and_time ON ledger (workspace_id, category, created_at);
   -- Transfers and debits by the caller's id: the request's fingerprint and the entries it wrote.
   CREATE TABLE operations (
     operation TEXT NOT NULL,
     operation_id TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     entry_ids TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (operation, operation_id)
   );`,
  sqliteOutboxMigration,
  sqliteProcessedEventsMigration,
  // Holds: a wallet's open holds are summed on the wallet, so the available balance is read and
  // changed with the balance in one row.
  `ALTER TABLE wallets ADD COLUMN held_credit_units INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE wallets ADD COLUMN held_minute_units INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE holds (
     workspace_id TEXT NOT NULL,
     hold_id TEXT NOT NULL,
     status TEXT NOT NULL,
     held_credit_units INTEGER NOT NULL,
     held_minute_units INTEGER NOT NULL,
     captured_credit_units INTEGER NOT NULL,
     captured_minute_units INTEGER NOT NULL,
     credit_units_per_minute INTEGER NOT NULL,
     kind TEXT NOT NULL,
     reference TEXT NOT NULL,
     description TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     capture_fingerprint TEXT,
     entry_id TEXT,
     expires_at TEXT NOT NULL,
     created_at TEXT NOT NULL,
     settled_at TEXT,
     PRIMARY KEY (workspace_id, hold_id)
   );
   CREATE INDEX holds_open_by_expiry ON holds (expires_at) WHERE status = 'open';`,
  `CREATE INDEX holds_settled_by_time ON holds (settled_at) WHERE status != 'open';`,
];

type WalletRow = StoredWallet<number> & { workspace_id: string };

/** A ledger row: the shared columns under the entry's id. */
type LedgerRow = StoredLedgerEntry & { id: string };

const walletOf = (row: WalletRow): WalletRecord => walletFromStored(row.workspace_id, row, sqliteValues);

const entryOf = (row: LedgerRow): LedgerEntry => ledgerEntryFromStored(row.id, row);

type Operation = 'transfer';

/** What an operation id already stands for: nothing, the entries of the same request, or another request. */
type Prior = undefined | { kind: 'same'; entries: LedgerEntry[] } | { kind: 'other' };

export class SqliteBillingStore implements BillingStore {
  private readonly db: SqliteDatabase;
  private readonly sql: (text: string) => Database.Statement;
  private readonly processed: SqliteProcessedEvents;
  readonly outbox: SqliteOutbox;

  constructor(file: string) {
    this.db = openSqlite(file, migrations);
    this.sql = statementCache(this.db);
    this.processed = new SqliteProcessedEvents(this.db);
    this.outbox = new SqliteOutbox(this.db);
  }

  async getWallet(workspaceId: string): Promise<WalletRecord | undefined> {
    return this.wallet(workspaceId);
  }

  async openWallet(workspaceId: string, issuer: boolean, now: string): Promise<WalletRecord> {
    return this.db.transaction(() => {
      this.sql(
        `INSERT INTO wallets (workspace_id, credit_units, minute_units, version, issuer, created_at, updated_at)
         VALUES (?, 0, 0, 0, ?, ?, ?) ON CONFLICT (workspace_id) DO NOTHING`,
      ).run(workspaceId, issuer ? 1 : 0, now, now);
      return this.wallet(workspaceId)!;
    }).immediate();
  }

  async transfer(command: TransferCommand): Promise<TransferOutcome> {
    return this.db.transaction((): TransferOutcome => {
      const prior = this.prior('transfer', command.transferId, command.fingerprint);
      if (prior?.kind === 'other') return { kind: 'id_reused' };
      if (prior?.kind === 'same') return { kind: 'replayed', debit: prior.entries[0]!, credit: prior.entries[1]! };
      const source = this.wallet(command.fromWorkspaceId);
      if (!source) return { kind: 'wallet_missing', workspaceId: command.fromWorkspaceId };
      const destination = this.wallet(command.toWorkspaceId);
      if (!destination) return { kind: 'wallet_missing', workspaceId: command.toWorkspaceId };
      const changes = planTransfer(source, destination, command);
      if (!changes) return { kind: 'insufficient_credits' };
      changes.forEach((change) => this.persist(change));
      const [debit, credit] = changes.map((change) => change.entry) as [LedgerEntry, LedgerEntry];
      this.recordOperation('transfer', command.transferId, command.fingerprint, [debit, credit], command.now);
      return { kind: 'transferred', debit, credit };
    }).immediate();
  }

  async authorize(command: AuthorizeCommand): Promise<AuthorizeOutcome> {
    return this.db.transaction(() => this.carryOut(planAuthorize(this.hold(command), this.wallet(command.workspaceId), command))).immediate();
  }

  async capture(command: CaptureCommand): Promise<CaptureOutcome> {
    return this.db.transaction((): CaptureOutcome => {
      const outcome = this.carryOut(planCapture(this.hold(command), this.wallet(command.workspaceId), command));
      if (outcome.kind !== 'replayed' || outcome.hold.entryId === null) return outcome;
      return { ...outcome, entry: entryOf(this.sql('SELECT * FROM ledger WHERE id = ?').get(outcome.hold.entryId) as LedgerRow) };
    }).immediate();
  }

  async release(command: ReleaseCommand): Promise<ReleaseOutcome> {
    return this.db.transaction(() => this.carryOut(planRelease(this.hold(command), this.wallet(command.workspaceId), command))).immediate();
  }

  async getHold(workspaceId: string, holdId: string): Promise<HoldRecord | undefined> {
    return this.hold({ workspaceId, holdId });
  }

  async expiredHolds(now: string, limit: number): Promise<{ workspaceId: string; holdId: string }[]> {
    const rows = this.sql("SELECT workspace_id, hold_id FROM holds WHERE status = 'open' AND expires_at <= ? ORDER BY expires_at LIMIT ?").all(now, limit) as {
      workspace_id: string;
      hold_id: string;
    }[];
    return rows.map((row) => ({ workspaceId: row.workspace_id, holdId: row.hold_id }));
  }

  async pruneSettledHolds(before: string, limit: number): Promise<number> {
    return this.sql(
      `DELETE FROM holds WHERE rowid IN
         (SELECT rowid FROM holds WHERE status != 'open' AND settled_at < ? ORDER BY settled_at LIMIT ?)`,
    ).run(before, limit).changes;
  }

  async pruneProcessedEvents(before: string, limit: number): Promise<number> {
    return this.processed.prune(before, limit);
  }

  async applyUsage(command: UsageCommand): Promise<UsageOutcome> {
    return this.db.transaction((): UsageOutcome => {
      if (this.processed.seen(command.eventId)) return { kind: 'already_applied' };
      const wallet = this.wallet(command.workspaceId);
      if (!wallet) return { kind: 'wallet_missing', workspaceId: command.workspaceId };
      const change = planUsage(wallet, command);
      this.persist(change);
      this.processed.record(command.eventId, command.now);
      return { kind: 'applied', entry: change.entry, wallet: change.after };
    }).immediate();
  }

  async listTransactions(workspaceId: string, page: Page): Promise<{ entries: LedgerEntry[]; total: number }> {
    return this.db.transaction(() => {
      const { total } = this.sql('SELECT COUNT(*) AS total FROM ledger WHERE workspace_id = ?').get(workspaceId) as { total: number };
      const rows = this.sql('SELECT * FROM ledger WHERE workspace_id = ? ORDER BY wallet_version DESC LIMIT ? OFFSET ?')
        .all(workspaceId, page.limit, page.offset) as LedgerRow[];
      return { entries: rows.map(entryOf), total };
    })();
  }

  async usageByKind(workspaceId: string, from: string, to: string): Promise<UsageTotal[]> {
    const categories = consumptionCategories.map(() => '?').join(', ');
    const rows = this.sql(
      `SELECT kind, COUNT(*) AS count, SUM(credit_units) AS credit_units, SUM(minute_units) AS minute_units
       FROM ledger WHERE workspace_id = ? AND category IN (${categories}) AND created_at >= ? AND created_at < ?
       GROUP BY kind ORDER BY kind`,
    ).all(workspaceId, ...consumptionCategories, from, to) as { kind: string; count: number; credit_units: number; minute_units: number }[];
    return rows.map((row) => usageTotalOf(row.kind, row.count, row));
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private wallet(workspaceId: string): WalletRecord | undefined {
    const row = this.sql('SELECT * FROM wallets WHERE workspace_id = ?').get(workspaceId) as WalletRow | undefined;
    return row ? walletOf(row) : undefined;
  }

  private hold(key: { workspaceId: string; holdId: string }): HoldRecord | undefined {
    const row = this.sql('SELECT * FROM holds WHERE workspace_id = ? AND hold_id = ?').get(key.workspaceId, key.holdId) as StoredHold | undefined;
    return row ? holdFromStored(row) : undefined;
  }

  /** Writes a hold plan's change and hold; the caller's transaction holds the write lock. */
  private carryOut<Outcome>(plan: HoldPlan<Outcome>): Outcome {
    if (plan.write) {
      this.persist(plan.change);
      const columns = storedHold(plan.hold);
      const names = Object.keys(columns);
      this.sql(`INSERT OR REPLACE INTO holds (${names.join(', ')}) VALUES (${names.map((name) => `@${name}`).join(', ')})`).run(columns);
    }
    return plan.outcome;
  }

  /** Writes the change, and its entry and event if it has them; the caller's transaction holds the write lock. */
  private persist({ before, after, entry, event }: WalletChange): void {
    const updated = this.sql(
      `UPDATE wallets SET credit_units = ?, minute_units = ?, held_credit_units = ?, held_minute_units = ?, version = ?, updated_at = ?
       WHERE workspace_id = ? AND version = ?`,
    ).run(
      after.balance.creditUnits,
      after.balance.minuteUnits,
      after.held.creditUnits,
      after.held.minuteUnits,
      after.version,
      after.updatedAt,
      before.workspaceId,
      before.version,
    );
    if (updated.changes !== 1) throw new Error(`wallet ${before.workspaceId} changed during its own transaction`);
    if (entry) {
      this.sql(
        `INSERT INTO ledger (id, workspace_id, wallet_version, kind, category, credit_units, minute_units,
           balance_credit_units, balance_minute_units, reference, description, created_at)
         VALUES (@id, @workspace_id, @wallet_version, @kind, @category, @credit_units, @minute_units,
           @balance_credit_units, @balance_minute_units, @reference, @description, @created_at)`,
      ).run({ id: entry.id, ...storedLedgerEntry(entry) });
    }
    if (event) this.outbox.add(event);
  }

  private prior(operation: Operation, operationId: string, fingerprint: string): Prior {
    const row = this.sql('SELECT fingerprint, entry_ids FROM operations WHERE operation = ? AND operation_id = ?')
      .get(operation, operationId) as { fingerprint: string; entry_ids: string } | undefined;
    if (!row) return undefined;
    if (row.fingerprint !== fingerprint) return { kind: 'other' };
    const ids = JSON.parse(row.entry_ids) as string[];
    const entries = ids.map((id) => entryOf(this.sql('SELECT * FROM ledger WHERE id = ?').get(id) as LedgerRow));
    return { kind: 'same', entries };
  }

  private recordOperation(operation: Operation, operationId: string, fingerprint: string, entries: LedgerEntry[], now: string): void {
    this.sql('INSERT INTO operations (operation, operation_id, fingerprint, entry_ids, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(operation, operationId, fingerprint, JSON.stringify(entries.map((entry) => entry.id)), now);
  }
}
