// The callbacks part of the campaigns store on SQLite: one table in the service's database, its
// transitions single conditional UPDATEs.
import type Database from 'better-sqlite3';
import { insertRow } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { CallbackChange, CallbackCondition, CallbackFilter, CallbackPart, CallbackRecord } from './callback-store.js';
import { callbackFromStored, storedCallback, type StoredCallback } from './mapping/callback.js';
import { sqliteJson } from './mapping/json.js';

export const sqliteCallbacksMigration = `CREATE TABLE callbacks (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     campaign_id TEXT NOT NULL,
     lead_id TEXT,
     phone TEXT NOT NULL,
     time_zone TEXT,
     at TEXT NOT NULL,
     variables TEXT NOT NULL,
     note TEXT NOT NULL,
     status TEXT NOT NULL,
     failure_reason TEXT,
     attempts INTEGER NOT NULL,
     call_id TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX callbacks_by_workspace ON callbacks (workspace_id, created_at DESC, id DESC);
   CREATE INDEX callbacks_due ON callbacks (status, at, id);
   CREATE INDEX callbacks_by_lead ON callbacks (lead_id, status);`;

type CallbackRow = StoredCallback<string> & { id: string };

const callbackOf = (row: CallbackRow): CallbackRecord => callbackFromStored(row.id, row, sqliteJson);

export class SqliteCallbacks implements CallbackPart {
  constructor(private readonly sql: (text: string) => Database.Statement) {}

  async insertCallback(callback: CallbackRecord): Promise<void> {
    insertRow(this.sql, 'callbacks', { id: callback.id, ...storedCallback(callback, sqliteJson) });
  }

  async getCallback(workspaceId: string, id: string): Promise<CallbackRecord | undefined> {
    const row = this.sql('SELECT * FROM callbacks WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as CallbackRow | undefined;
    return row ? callbackOf(row) : undefined;
  }

  async listCallbacks(workspaceId: string, filter: CallbackFilter, page: Page): Promise<{ callbacks: CallbackRecord[]; total: number }> {
    const conditions = ['workspace_id = @workspaceId'];
    if (filter.status) conditions.push('status = @status');
    if (filter.campaignId) conditions.push('campaign_id = @campaignId');
    if (filter.leadId) conditions.push('lead_id = @leadId');
    const where = conditions.join(' AND ');
    const params = { workspaceId, status: filter.status, campaignId: filter.campaignId, leadId: filter.leadId, limit: page.limit, offset: page.offset };
    const { total } = this.sql(`SELECT COUNT(*) AS total FROM callbacks WHERE ${where}`).get(params) as { total: number };
    const rows = this.sql(`SELECT * FROM callbacks WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`).all(params) as CallbackRow[];
    return { callbacks: rows.map(callbackOf), total };
  }

  async transitionCallback(workspaceId: string, id: string, when: CallbackCondition, change: CallbackChange, now: string): Promise<CallbackRecord | undefined> {
    const statuses = when.statuses.map((_, i) => `@when${i}`).join(', ');
    const params: Record<string, unknown> = {
      id,
      workspaceId,
      attemptsWhen: when.attempts ?? null,
      status: change.status,
      attempts: change.attempts ?? null,
      failureReason: change.failureReason ?? null,
      callId: change.callId ?? null,
      now,
    };
    when.statuses.forEach((status, i) => (params[`when${i}`] = status));
    const row = this.sql(
      `UPDATE callbacks SET status = @status, attempts = COALESCE(@attempts, attempts), failure_reason = COALESCE(@failureReason, failure_reason),
         call_id = COALESCE(@callId, call_id), updated_at = @now
       WHERE id = @id AND workspace_id = @workspaceId AND status IN (${statuses}) AND (@attemptsWhen IS NULL OR attempts = @attemptsWhen)
       RETURNING *`,
    ).get(params) as CallbackRow | undefined;
    return row ? callbackOf(row) : undefined;
  }

  async listDueCallbacks(dueBy: string, page: Page): Promise<CallbackRecord[]> {
    const rows = this.sql(
      `SELECT * FROM callbacks WHERE (status = 'scheduled' AND at <= @dueBy) OR (status = 'dialing' AND call_id IS NULL)
       ORDER BY at, id LIMIT @limit OFFSET @offset`,
    ).all({ dueBy, limit: page.limit, offset: page.offset }) as CallbackRow[];
    return rows.map(callbackOf);
  }
}
