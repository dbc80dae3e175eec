// CallStore on embedded SQLite: one row per call, its reports in their own table (unique per call,
// source and sequence), idempotency claims and the outbox written in the transaction they belong to.
import type Database from 'better-sqlite3';
import { dirname, join } from 'node:path';
import type { NewOutboxEvent } from '@voice/runtime/events';
import { insertRow, openSqlite, SqliteOutbox, sqliteOutboxMigration, statementCache, type SqliteDatabase } from '@voice/runtime/store/sqlite';
import { sqliteValues } from '@voice/runtime/store';
import { claimBinding, type IdempotencyClaim } from '@voice/runtime/idempotency';
import type { Page } from '@voice/runtime/validation';
import { campaignTotalsOf, type CampaignStatusRow } from './mapping/campaign-totals.js';
import { callFromStored, reportFromStored, storedCall, storedChanges, storedReport, type StoredCall, type StoredReport } from './mapping/call.js';
import { FileRecordings } from './file-recordings.js';
import type {
  CallChanges,
  CallFilter,
  CallRecord,
  CallReport,
  CallStore,
  CallView,
  CampaignCallTotals,
  ClaimOutcome,
  RecordingInfo,
  RecordingRead,
} from './store.js';

const migrations = [
  `CREATE TABLE calls (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     status TEXT NOT NULL,
     direction TEXT NOT NULL,
     from_number TEXT NOT NULL,
     to_number TEXT NOT NULL,
     number_id TEXT,
     assistant_id TEXT NOT NULL,
     assistant_version INTEGER NOT NULL,
     assistant_config TEXT NOT NULL,
     variables TEXT NOT NULL,
     metadata TEXT NOT NULL,
     max_duration_seconds INTEGER NOT NULL,
     hold_id TEXT NOT NULL,
     leg_id TEXT,
     leg_sequence INTEGER NOT NULL,
     answered_at TEXT,
     ended_at TEXT,
     duration_seconds INTEGER NOT NULL,
     end_reason TEXT,
     minute_units_charged INTEGER NOT NULL,
     credit_units_charged INTEGER NOT NULL,
     summary TEXT,
     verdict TEXT,
     extracted_fields TEXT NOT NULL,
     has_recording INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX calls_newest_first ON calls (workspace_id, created_at DESC, id DESC);
   CREATE TABLE call_reports (
     call_id TEXT NOT NULL,
     source TEXT NOT NULL,
     sequence INTEGER NOT NULL,
     kind TEXT NOT NULL,
     label TEXT NOT NULL,
     body TEXT NOT NULL,
     at TEXT NOT NULL,
     PRIMARY KEY (call_id, source, sequence)
   );
   CREATE TABLE idempotency_claims (
     workspace_id TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     call_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, key)
   );
   CREATE INDEX idempotency_claims_by_time ON idempotency_claims (created_at);
   ${sqliteOutboxMigration}`,
  `ALTER TABLE calls ADD COLUMN usage_event_id TEXT;
   ALTER TABLE calls ADD COLUMN charged INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE calls ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX calls_by_usage_event ON calls (usage_event_id) WHERE usage_event_id IS NOT NULL;`,
  `ALTER TABLE calls ADD COLUMN campaign_id TEXT;
   ALTER TABLE calls ADD COLUMN billed_minute_units INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX calls_by_campaign ON calls (workspace_id, campaign_id) WHERE campaign_id IS NOT NULL;`,
];

type CallRow = StoredCall<number> & { id: string };

interface ClaimRow {
  fingerprint: string;
  callId: string;
  createdAt: string;
}

export class SqliteCallStore implements CallStore {
  private readonly db: SqliteDatabase;
  private readonly sql: (text: string) => Database.Statement;
  readonly outbox: SqliteOutbox;
  private readonly recordings: FileRecordings;

  /** Recordings are files beside the database, in `calls-recordings/`. */
  constructor(file: string) {
    this.db = openSqlite(file, migrations);
    this.sql = statementCache(this.db);
    this.outbox = new SqliteOutbox(this.db);
    this.recordings = new FileRecordings(join(dirname(file), 'calls-recordings'));
  }

  async claimedCall(workspaceId: string, claim: IdempotencyClaim): Promise<ClaimOutcome | undefined> {
    return this.db.transaction(() => this.claimOutcome(workspaceId, claim))();
  }

  async createCall(call: CallRecord, claim?: IdempotencyClaim): Promise<{ kind: 'created'; call: CallView } | ClaimOutcome> {
    return this.db
      .transaction((): { kind: 'created'; call: CallView } | ClaimOutcome => {
        if (claim) {
          const earlier = this.claimOutcome(call.workspaceId, claim);
          if (earlier) return earlier;
          this.sql(
            `INSERT INTO idempotency_claims (workspace_id, key, fingerprint, call_id, created_at) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (workspace_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, call_id = excluded.call_id, created_at = excluded.created_at`,
          ).run(call.workspaceId, claim.key, claim.fingerprint, call.id, claim.now);
        }
        insertRow(this.sql, 'calls', { id: call.id, ...storedCall(call, sqliteValues) });
        return { kind: 'created', call: { ...call, reports: [] } };
      })
      .immediate();
  }

  private claimOutcome(workspaceId: string, claim: IdempotencyClaim): ClaimOutcome | undefined {
    const row = this.sql('SELECT fingerprint, call_id AS callId, created_at AS createdAt FROM idempotency_claims WHERE workspace_id = ? AND key = ?')
      .get(workspaceId, claim.key) as ClaimRow | undefined;
    const binding = claimBinding(row, claim);
    if (binding !== 'replay') return binding && { kind: binding };
    const call = this.view(workspaceId, row!.callId);
    return call ? { kind: 'replayed', call } : undefined;
  }

  async getCall(workspaceId: string, id: string): Promise<CallView | undefined> {
    return this.db.transaction(() => this.view(workspaceId, id))();
  }

  private view(workspaceId: string, id: string): CallView | undefined {
    const row = this.sql('SELECT * FROM calls WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as CallRow | undefined;
    return row ? this.withReports([row])[0] : undefined;
  }

  private withReports(rows: CallRow[]): CallView[] {
    if (rows.length === 0) return [];
    const reports = this.sql('SELECT * FROM call_reports WHERE call_id IN (SELECT value FROM json_each(?)) ORDER BY at, source, sequence')
      .all(JSON.stringify(rows.map((row) => row.id))) as StoredReport[];
    return rows.map((row) => ({
      ...callFromStored(row.id, row, sqliteValues),
      reports: reports.filter((report) => report.call_id === row.id).map(reportFromStored),
    }));
  }

  async listCalls(workspaceId: string, filter: CallFilter, page: Page): Promise<{ calls: CallView[]; total: number }> {
    const conditions = ['workspace_id = @workspaceId'];
    if (filter.status !== undefined) conditions.push('status = @status');
    if (filter.direction !== undefined) conditions.push('direction = @direction');
    if (filter.assistantId !== undefined) conditions.push('assistant_id = @assistantId');
    if (filter.number !== undefined) conditions.push('(from_number = @number OR to_number = @number)');
    if (filter.createdFrom !== undefined) conditions.push('created_at >= @createdFrom');
    if (filter.createdTo !== undefined) conditions.push('created_at < @createdTo');
    const where = conditions.join(' AND ');
    const params = { workspaceId, ...filter, limit: page.limit, offset: page.offset };
    return this.db.transaction(() => {
      const { total } = this.sql(`SELECT COUNT(*) AS total FROM calls WHERE ${where}`).get(params) as { total: number };
      const rows = this.sql(`SELECT * FROM calls WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`).all(params) as CallRow[];
      return { calls: this.withReports(rows), total };
    })();
  }

  async summarizeCampaignCalls(workspaceId: string, campaignId: string): Promise<CampaignCallTotals> {
    const rows = this.sql(
      `SELECT status, end_reason, COUNT(*) AS calls, SUM(answered_at IS NOT NULL) AS connected, SUM(billed_minute_units) AS billed_minute_units,
              SUM(minute_units_charged) AS minute_units_charged, SUM(credit_units_charged) AS credit_units_charged
       FROM calls WHERE workspace_id = ? AND campaign_id = ? GROUP BY status, end_reason`,
    ).all(workspaceId, campaignId) as CampaignStatusRow[];
    return campaignTotalsOf(rows);
  }

  async recordLeg(id: string, legId: string, now: string): Promise<void> {
    this.sql('UPDATE calls SET leg_id = ?, updated_at = ? WHERE id = ? AND leg_id IS NULL').run(legId, now, id);
  }

  async failPlacing(id: string, releaseEvent: NewOutboxEvent, now: string): Promise<CallView | undefined> {
    return this.db
      .transaction(() => {
        const changed = this.sql("UPDATE calls SET status = 'failed', end_reason = 'failed', ended_at = @now, updated_at = @now WHERE id = @id AND status = 'queued'")
          .run({ id, now }).changes;
        if (changed === 0) return undefined;
        this.outbox.add(releaseEvent);
        const row = this.sql('SELECT * FROM calls WHERE id = ?').get(id) as CallRow;
        return this.withReports([row])[0];
      })
      .immediate();
  }

  async getCallById(id: string): Promise<CallView | undefined> {
    const row = this.sql('SELECT * FROM calls WHERE id = ?').get(id) as CallRow | undefined;
    return row ? this.withReports([row])[0] : undefined;
  }

  async findCallByUsageEvent(usageEventId: string): Promise<CallView | undefined> {
    const row = this.sql('SELECT * FROM calls WHERE usage_event_id = ?').get(usageEventId) as CallRow | undefined;
    return row ? this.withReports([row])[0] : undefined;
  }

  async updateCall(id: string, expectedVersion: number, changes: CallChanges, reports: CallReport[], events: NewOutboxEvent[], now: string): Promise<CallView | undefined> {
    const columns = { ...storedChanges(changes, sqliteValues), updated_at: now };
    const assignments = [...Object.keys(columns).map((column) => `${column} = @${column}`), 'version = version + 1'];
    return this.db
      .transaction(() => {
        const changed = this.sql(`UPDATE calls SET ${assignments.join(', ')} WHERE id = @id AND version = @expectedVersion`).run({ ...columns, id, expectedVersion }).changes;
        if (changed === 0) return undefined;
        this.insertReports(id, reports);
        for (const event of events) this.outbox.add(event);
        return this.withReports([this.sql('SELECT * FROM calls WHERE id = ?').get(id) as CallRow])[0];
      })
      .immediate();
  }

  async addReports(callId: string, reports: CallReport[]): Promise<void> {
    this.db.transaction(() => this.insertReports(callId, reports)).immediate();
  }

  private insertReports(callId: string, reports: CallReport[]): void {
    const insert = this.sql(
      'INSERT INTO call_reports (call_id, source, sequence, kind, label, body, at) VALUES (@call_id, @source, @sequence, @kind, @label, @body, @at) ON CONFLICT DO NOTHING',
    );
    for (const report of reports) insert.run(storedReport(callId, report));
  }

  saveRecording(callId: string, contentType: string, chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number> {
    return this.recordings.save(callId, contentType, chunks, maxBytes);
  }

  describeRecording(callId: string): Promise<RecordingInfo | undefined> {
    return this.recordings.describe(callId);
  }

  openRecording(callId: string, range?: { start: number; end: number }): Promise<RecordingRead | undefined> {
    return this.recordings.open(callId, range);
  }

  deleteRecording(callId: string): Promise<boolean> {
    return this.recordings.remove(callId);
  }

  async enqueue(events: NewOutboxEvent[]): Promise<void> {
    this.db.transaction(() => events.forEach((event) => this.outbox.add(event))).immediate();
  }

  async pruneIdempotencyClaims(createdBefore: string, limit: number): Promise<number> {
    return this.sql('DELETE FROM idempotency_claims WHERE rowid IN (SELECT rowid FROM idempotency_claims WHERE created_at < ? ORDER BY created_at LIMIT ?)')
      .run(createdBefore, limit).changes;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
