// Caller IDs in SQLite: one live caller ID per number and workspace (a failed or expired one is
// replaced in the transaction that adds the new one); checked codes apply only to the state read.
import { insertRow } from '@voice/runtime/store/sqlite';
import type { NewOutboxEvent } from '@voice/runtime/events';
import type { Page } from '@voice/runtime/validation';
import { storedCodeOutcome } from '../mapping/caller-id.js';
import { isReplaceableCallerId } from '../rules.js';
import type { CallerIdRecord, CallerIdStore, CodeOutcome } from '../store.js';
import { callerIdFromRow, callerIdRow, type CallerIdRow } from './rows.js';
import { selectPage, updateRow, type SqliteContext } from './statements.js';

export function sqliteCallerIdStore({ db, sql, outbox }: SqliteContext): CallerIdStore {
  const find = (workspaceId: string, id: string) => sql('SELECT * FROM caller_ids WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as CallerIdRow | undefined;

  return {
    async insertCallerId(callerId: CallerIdRecord) {
      return db
        .transaction((): { kind: 'created' } | { kind: 'exists' } => {
          const existing = sql('SELECT * FROM caller_ids WHERE workspace_id = ? AND phone_number = ?').get(callerId.workspaceId, callerId.phoneNumber) as CallerIdRow | undefined;
          if (existing) {
            if (!isReplaceableCallerId(callerIdFromRow(existing), callerId.createdAt)) return { kind: 'exists' };
            sql('DELETE FROM caller_ids WHERE id = ?').run(existing.id);
          }
          insertRow(sql, 'caller_ids', callerIdRow(callerId));
          return { kind: 'created' };
        })
        .immediate();
    },

    async getCallerId(workspaceId: string, id: string) {
      const row = find(workspaceId, id);
      return row ? callerIdFromRow(row) : undefined;
    },

    async listCallerIds(workspaceId: string, page: Page) {
      const { rows, total } = selectPage<CallerIdRow>(db, sql, { table: 'caller_ids', where: 'workspace_id = @workspaceId', params: { workspaceId } }, page);
      return { callerIds: rows.map(callerIdFromRow), total };
    },

    async deleteCallerId(workspaceId: string, id: string) {
      return sql('DELETE FROM caller_ids WHERE id = ? AND workspace_id = ?').run(id, workspaceId).changes === 1;
    },

    async recordCodeSent(id: string, usageEvent: NewOutboxEvent | undefined, now: string) {
      return db
        .transaction(() => {
          if (sql('UPDATE caller_ids SET updated_at = ? WHERE id = ?').run(now, id).changes !== 1) return false;
          if (usageEvent) outbox.add(usageEvent);
          return true;
        })
        .immediate();
    },

    async applyCode(workspaceId: string, id: string, seenAttempts: number, outcome: CodeOutcome, now: string) {
      return db
        .transaction(() => {
          const row = find(workspaceId, id);
          if (!row || row.status !== 'pending' || row.attempts !== seenAttempts) return undefined;
          updateRow(sql, 'caller_ids', workspaceId, id, storedCodeOutcome(row, outcome, now));
          return callerIdFromRow(find(workspaceId, id)!);
        })
        .immediate();
    },

    async pruneUnverifiedCallerIds(before: string, limit: number) {
      return sql(
        `DELETE FROM caller_ids WHERE id IN (
           SELECT id FROM caller_ids
           WHERE (status = 'failed' AND updated_at < @before) OR (status = 'pending' AND code_expires_at < @before)
           ORDER BY updated_at, id LIMIT @limit)`,
      ).run({ before, limit }).changes;
    },

    async verifiedCallerId(workspaceId: string, phoneNumber: string) {
      const row = sql("SELECT * FROM caller_ids WHERE workspace_id = ? AND phone_number = ? AND status = 'verified'").get(workspaceId, phoneNumber) as CallerIdRow | undefined;
      return row ? callerIdFromRow(row) : undefined;
    },
  };
}
