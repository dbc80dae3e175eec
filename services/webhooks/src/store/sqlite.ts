// WebhooksStore on embedded SQLite: endpoints, events and their deliveries (one per event and
// endpoint), and the workspaces' webhook settings; every multi-row change in one transaction.
import type Database from 'better-sqlite3';
import { insertRow, openSqlite, statementCache, type SqliteDatabase } from '@voice/runtime/store/sqlite';
import { sqliteValues } from '@voice/runtime/store';
import type { Page } from '@voice/runtime/validation';
import { endpointFromStored, endpointWithChanges, storedEndpoint, type StoredEndpoint } from './mapping/endpoint.js';
import { afterAttempt, deliveryFromStored, storedDelivery, type StoredDelivery } from './mapping/delivery.js';
import { noticeFromStored, storedNotice, type StoredNotice } from './mapping/notice.js';
import type {
  AttemptOutcome,
  AttemptRecord,
  ClaimedDelivery,
  DeliveryRecord,
  DeliveryStatus,
  EndpointChanges,
  EndpointRecord,
  EventRecord,
  OwnerNotice,
  WebhookSettingsRecord,
  WebhooksStore,
} from './store.js';

const migrations = [
  `CREATE TABLE endpoints (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     url TEXT NOT NULL,
     description TEXT NOT NULL,
     event_types TEXT NOT NULL,
     enabled INTEGER NOT NULL,
     secrets TEXT NOT NULL,
     failing_since TEXT,
     disabled_reason TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX endpoints_by_workspace ON endpoints (workspace_id, created_at DESC, id DESC);
   CREATE TABLE events (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     type TEXT NOT NULL,
     body TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX events_by_time ON events (created_at);
   CREATE TABLE deliveries (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     endpoint_id TEXT NOT NULL,
     event_id TEXT NOT NULL,
     event_type TEXT NOT NULL,
     status TEXT NOT NULL,
     attempts TEXT NOT NULL,
     next_attempt_at TEXT,
     give_up_at TEXT NOT NULL,
     created_at TEXT NOT NULL,
     delivered_at TEXT,
     UNIQUE (event_id, endpoint_id)
   );
   CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
   CREATE INDEX deliveries_by_endpoint ON deliveries (endpoint_id, created_at DESC, id DESC);
   CREATE TABLE owner_notices (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     endpoint_id TEXT NOT NULL,
     url TEXT NOT NULL,
     failing_since TEXT NOT NULL,
     created_at TEXT NOT NULL,
     sent_at TEXT
   );
   CREATE INDEX owner_notices_pending ON owner_notices (sent_at, created_at);
   CREATE TABLE settings (
     workspace_id TEXT PRIMARY KEY,
     balance_low_threshold_units INTEGER,
     balance_low INTEGER NOT NULL
   );`,
];

type EndpointRow = StoredEndpoint<number, string> & { id: string };
type DeliveryRow = StoredDelivery & { id: string };
interface SettingsRow {
  workspace_id: string;
  balance_low_threshold_units: number | null;
  balance_low: number;
}

const endpointOf = (row: EndpointRow): EndpointRecord => endpointFromStored(row.id, row, sqliteValues);
const deliveryOf = (row: DeliveryRow): DeliveryRecord => deliveryFromStored(row.id, row);
const settingsOf = (row: SettingsRow): WebhookSettingsRecord => ({
  workspaceId: row.workspace_id,
  balanceLowThresholdUnits: row.balance_low_threshold_units,
  balanceLow: row.balance_low === 1,
});

export class SqliteWebhooksStore implements WebhooksStore {
  private readonly db: SqliteDatabase;
  private readonly sql: (text: string) => Database.Statement;

  constructor(file: string) {
    this.db = openSqlite(file, migrations);
    this.sql = statementCache(this.db);
  }

  async createEndpoint(endpoint: EndpointRecord): Promise<void> {
    insertRow(this.sql, 'endpoints', { id: endpoint.id, ...storedEndpoint(endpoint, sqliteValues) });
  }

  async getEndpoint(workspaceId: string, id: string): Promise<EndpointRecord | undefined> {
    const row = this.sql('SELECT * FROM endpoints WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as EndpointRow | undefined;
    return row ? endpointOf(row) : undefined;
  }

  async listEndpoints(workspaceId: string, page: Page): Promise<{ endpoints: EndpointRecord[]; total: number }> {
    return this.db.transaction(() => {
      const { total } = this.sql('SELECT COUNT(*) AS total FROM endpoints WHERE workspace_id = ?').get(workspaceId) as { total: number };
      const rows = this.sql('SELECT * FROM endpoints WHERE workspace_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?')
        .all(workspaceId, page.limit, page.offset) as EndpointRow[];
      return { endpoints: rows.map(endpointOf), total };
    })();
  }

  async updateEndpoint(workspaceId: string, id: string, changes: EndpointChanges, now: string): Promise<EndpointRecord | undefined> {
    return this.db.transaction((): EndpointRecord | undefined => {
      const row = this.sql('SELECT * FROM endpoints WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as EndpointRow | undefined;
      if (!row) return undefined;
      const next = endpointWithChanges(endpointOf(row), changes, now);
      this.sql(
        `UPDATE endpoints SET url = @url, description = @description, event_types = @event_types, enabled = @enabled, secrets = @secrets,
           failing_since = @failing_since, disabled_reason = @disabled_reason, updated_at = @updated_at WHERE id = @id`,
      ).run({ id, ...storedEndpoint(next, sqliteValues) });
      if (!next.enabled) this.failPending(id);
      return next;
    }).immediate();
  }

  async deleteEndpoint(workspaceId: string, id: string): Promise<boolean> {
    return this.db.transaction(() => {
      const deleted = this.sql('DELETE FROM endpoints WHERE id = ? AND workspace_id = ?').run(id, workspaceId).changes === 1;
      if (deleted) this.sql('DELETE FROM deliveries WHERE endpoint_id = ?').run(id);
      return deleted;
    }).immediate();
  }

  async subscribedEndpoints(workspaceId: string, eventType: string): Promise<EndpointRecord[]> {
    const rows = this.sql(
      'SELECT * FROM endpoints WHERE workspace_id = ? AND enabled = 1 AND EXISTS (SELECT 1 FROM json_each(endpoints.event_types) WHERE value = ?) ORDER BY created_at',
    ).all(workspaceId, eventType) as EndpointRow[];
    return rows.map(endpointOf);
  }

  async addEvent(event: EventRecord, deliveries: DeliveryRecord[]): Promise<boolean> {
    return this.db.transaction(() => this.insertEvent(event, deliveries)).immediate();
  }

  private insertEvent(event: EventRecord, deliveries: DeliveryRecord[]): boolean {
    const row = { id: event.id, workspace_id: event.workspaceId, type: event.type, body: event.body, created_at: event.createdAt };
    if (insertRow(this.sql, 'events', row, { ifAbsent: true }) === 0) return false;
    for (const delivery of deliveries) insertRow(this.sql, 'deliveries', { id: delivery.id, ...storedDelivery(delivery) });
    return true;
  }

  async getDelivery(workspaceId: string, endpointId: string, id: string): Promise<DeliveryRecord | undefined> {
    const row = this.sql('SELECT * FROM deliveries WHERE id = ? AND endpoint_id = ? AND workspace_id = ?').get(id, endpointId, workspaceId) as DeliveryRow | undefined;
    return row ? deliveryOf(row) : undefined;
  }

  async listDeliveries(workspaceId: string, endpointId: string, filter: { status?: DeliveryStatus }, page: Page): Promise<{ deliveries: DeliveryRecord[]; total: number }> {
    const where = `workspace_id = @workspaceId AND endpoint_id = @endpointId${filter.status ? ' AND status = @status' : ''}`;
    const params = { workspaceId, endpointId, status: filter.status, limit: page.limit, offset: page.offset };
    return this.db.transaction(() => {
      const { total } = this.sql(`SELECT COUNT(*) AS total FROM deliveries WHERE ${where}`).get(params) as { total: number };
      const rows = this.sql(`SELECT * FROM deliveries WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`).all(params) as DeliveryRow[];
      return { deliveries: rows.map(deliveryOf), total };
    })();
  }

  async claimDue(now: string, heldUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    return this.db.transaction((): ClaimedDelivery[] => {
      const rows = this.sql("SELECT * FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?").all(now, limit) as DeliveryRow[];
      const claimed: ClaimedDelivery[] = [];
      for (const row of rows) {
        const endpoint = this.sql('SELECT * FROM endpoints WHERE id = ?').get(row.endpoint_id) as EndpointRow | undefined;
        if (!endpoint || endpoint.enabled !== 1) {
          this.sql("UPDATE deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = ?").run(row.id);
          continue;
        }
        const event = this.sql('SELECT body FROM events WHERE id = ?').get(row.event_id) as { body: string };
        this.sql('UPDATE deliveries SET next_attempt_at = ? WHERE id = ?').run(heldUntil, row.id);
        claimed.push({ delivery: deliveryOf({ ...row, next_attempt_at: heldUntil }), body: event.body, endpoint: endpointOf(endpoint) });
      }
      return claimed;
    }).immediate();
  }

  async recordAttempt(delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<DeliveryRecord> {
    return this.db.transaction((): DeliveryRecord => {
      const current = this.sql('SELECT * FROM deliveries WHERE id = ?').get(delivery.id) as DeliveryRow | undefined;
      const next = afterAttempt(current ? deliveryOf(current) : delivery, attempt, outcome);
      if (current) {
        this.sql('UPDATE deliveries SET status = @status, attempts = @attempts, next_attempt_at = @next_attempt_at, delivered_at = @delivered_at WHERE id = @id').run({
          id: next.id,
          status: next.status,
          attempts: JSON.stringify(next.attempts),
          next_attempt_at: next.nextAttemptAt,
          delivered_at: next.deliveredAt,
        });
      }
      if (outcome.kind === 'delivered') this.sql('UPDATE endpoints SET failing_since = NULL WHERE id = ?').run(delivery.endpointId);
      else this.sql('UPDATE endpoints SET failing_since = COALESCE(failing_since, ?) WHERE id = ?').run(attempt.at, delivery.endpointId);
      return next;
    }).immediate();
  }

  async retryDelivery(workspaceId: string, endpointId: string, id: string, now: string): Promise<DeliveryRecord | undefined> {
    return this.db.transaction((): DeliveryRecord | undefined => {
      const changed = this.sql(
        "UPDATE deliveries SET status = 'pending', next_attempt_at = @now, give_up_at = MAX(give_up_at, @now) WHERE id = @id AND endpoint_id = @endpointId AND workspace_id = @workspaceId",
      ).run({ id, endpointId, workspaceId, now }).changes;
      if (changed === 0) return undefined;
      return deliveryOf(this.sql('SELECT * FROM deliveries WHERE id = ?').get(id) as DeliveryRow);
    }).immediate();
  }

  async disableEndpoint(id: string, reason: string, notice: OwnerNotice): Promise<EndpointRecord | undefined> {
    return this.db.transaction((): EndpointRecord | undefined => {
      const changed = this.sql('UPDATE endpoints SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ? AND enabled = 1').run(reason, notice.createdAt, id).changes;
      if (changed === 0) return undefined;
      this.failPending(id);
      insertRow(this.sql, 'owner_notices', { id: notice.id, ...storedNotice(notice) });
      return endpointOf(this.sql('SELECT * FROM endpoints WHERE id = ?').get(id) as EndpointRow);
    }).immediate();
  }

  async pendingNotices(limit: number): Promise<OwnerNotice[]> {
    const rows = this.sql('SELECT * FROM owner_notices WHERE sent_at IS NULL ORDER BY created_at LIMIT ?').all(limit) as (StoredNotice & { id: string })[];
    return rows.map((row) => noticeFromStored(row.id, row));
  }

  async markNoticeSent(id: string, at: string): Promise<void> {
    this.sql('UPDATE owner_notices SET sent_at = ? WHERE id = ?').run(at, id);
  }

  private failPending(endpointId: string): void {
    this.sql("UPDATE deliveries SET status = 'failed', next_attempt_at = NULL WHERE endpoint_id = ? AND status = 'pending'").run(endpointId);
  }

  async pruneEvents(before: string, limit: number): Promise<number> {
    return this.db.transaction(() => {
      const ids = (
        this.sql(
          "SELECT id FROM events WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM deliveries WHERE event_id = events.id AND status = 'pending') ORDER BY created_at LIMIT ?",
        ).all(before, limit) as { id: string }[]
      ).map((row) => row.id);
      for (const id of ids) {
        this.sql('DELETE FROM deliveries WHERE event_id = ?').run(id);
        this.sql('DELETE FROM events WHERE id = ?').run(id);
      }
      return ids.length;
    }).immediate();
  }

  async getSettings(workspaceId: string): Promise<WebhookSettingsRecord | undefined> {
    const row = this.sql('SELECT * FROM settings WHERE workspace_id = ?').get(workspaceId) as SettingsRow | undefined;
    return row ? settingsOf(row) : undefined;
  }

  async setBalanceLowThreshold(workspaceId: string, units: number | null): Promise<WebhookSettingsRecord> {
    this.sql(
      `INSERT INTO settings (workspace_id, balance_low_threshold_units, balance_low) VALUES (?, ?, 0)
       ON CONFLICT (workspace_id) DO UPDATE SET balance_low_threshold_units = excluded.balance_low_threshold_units, balance_low = 0`,
    ).run(workspaceId, units);
    return { workspaceId, balanceLowThresholdUnits: units, balanceLow: false };
  }

  async markBalanceLow(workspaceId: string, planned?: { event: EventRecord; deliveries: DeliveryRecord[] }): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.sql('UPDATE settings SET balance_low = 1 WHERE workspace_id = ? AND balance_low = 0').run(workspaceId).changes === 0) return false;
      return planned ? this.insertEvent(planned.event, planned.deliveries) : true;
    }).immediate();
  }

  async clearBalanceLow(workspaceId: string): Promise<void> {
    this.sql('UPDATE settings SET balance_low = 0 WHERE workspace_id = ?').run(workspaceId);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
