// Phone numbers in SQLite: a number is unique across the platform, everything else is per workspace;
// a bought number's fees are captured through usage events written in the transaction that records them.
import type { NewOutboxEvent } from '@voice/runtime/events';
import { insertRow, isUniqueViolation } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { NumberChanges, NumberRecord, NumberStore, RenewalStore } from '../store.js';
import { numberFromRow, numberRow, type NumberRow } from './rows.js';
import { selectPage, sqliteBoolean, updateRow, type SqliteContext } from './statements.js';

export function sqliteNumberStore({ db, sql, outbox }: SqliteContext): NumberStore & RenewalStore {
  return {
    async insertNumber(number: NumberRecord, usageEvent?: NewOutboxEvent): Promise<{ kind: 'created'; number: NumberRecord } | { kind: 'number_taken' }> {
      try {
        db
          .transaction(() => {
            insertRow(sql, 'phone_numbers', numberRow(number));
            if (usageEvent) outbox.add(usageEvent);
          })
          .immediate();
        return { kind: 'created', number };
      } catch (error) {
        if (isUniqueViolation(error)) return { kind: 'number_taken' };
        throw error;
      }
    },

    async getNumber(workspaceId: string, id: string): Promise<NumberRecord | undefined> {
      const row = sql('SELECT * FROM phone_numbers WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as NumberRow | undefined;
      return row ? numberFromRow(row) : undefined;
    },

    async findNumber(workspaceId: string, number: string): Promise<NumberRecord | undefined> {
      const row = sql('SELECT * FROM phone_numbers WHERE number = ? AND workspace_id = ?').get(number, workspaceId) as NumberRow | undefined;
      return row ? numberFromRow(row) : undefined;
    },

    async listNumbers(workspaceId: string, page: Page, assistantId?: string): Promise<{ numbers: NumberRecord[]; total: number }> {
      const query =
        assistantId === undefined
          ? { table: 'phone_numbers', where: 'workspace_id = @workspaceId', params: { workspaceId } }
          : { table: 'phone_numbers', where: 'workspace_id = @workspaceId AND assistant_id = @assistantId', params: { workspaceId, assistantId } };
      const { rows, total } = selectPage<NumberRow>(db, sql, query, page);
      return { numbers: rows.map(numberFromRow), total };
    },

    async numberHeldAs(number: string): Promise<NumberRecord | undefined> {
      const row = sql('SELECT * FROM phone_numbers WHERE number = ?').get(number) as NumberRow | undefined;
      return row ? numberFromRow(row) : undefined;
    },

    async heldNumbers(numbers: string[]): Promise<Set<string>> {
      const rows = sql('SELECT number FROM phone_numbers WHERE number IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(numbers)) as { number: string }[];
      return new Set(rows.map((row) => row.number));
    },

    async updateNumber(workspaceId: string, id: string, changes: NumberChanges, now: string): Promise<NumberRecord | undefined> {
      return db.transaction(() => {
        const found = updateRow(sql, 'phone_numbers', workspaceId, id, {
          sms_outbound_enabled: sqliteBoolean(changes.smsOutboundEnabled),
          name: changes.name,
          assistant_id: changes.assistantId,
          a2p_campaign_id: changes.a2pCampaignId,
          updated_at: now,
        });
        if (!found) return undefined;
        return numberFromRow(sql('SELECT * FROM phone_numbers WHERE id = ?').get(id) as NumberRow);
      }).immediate();
    },

    async deleteNumber(workspaceId: string, id: string): Promise<boolean> {
      return sql('DELETE FROM phone_numbers WHERE id = ? AND workspace_id = ?').run(id, workspaceId).changes === 1;
    },

    async dueRenewals(now: string, limit: number): Promise<NumberRecord[]> {
      const rows = sql('SELECT * FROM phone_numbers WHERE renews_at IS NOT NULL AND renews_at <= ? ORDER BY renews_at, id LIMIT ?').all(now, limit) as NumberRow[];
      return rows.map(numberFromRow);
    },

    async renewNumber(id: string, dueAt: string, nextAt: string, usageEvent: NewOutboxEvent | undefined, now: string): Promise<NumberRecord | undefined> {
      return db
        .transaction(() => {
          const renewed = sql('UPDATE phone_numbers SET renews_at = ?, past_due_since = NULL, updated_at = ? WHERE id = ? AND renews_at = ?').run(nextAt, now, id, dueAt);
          if (renewed.changes === 0) return undefined;
          if (usageEvent) outbox.add(usageEvent);
          return numberFromRow(sql('SELECT * FROM phone_numbers WHERE id = ?').get(id) as NumberRow);
        })
        .immediate();
    },

    async markPastDue(id: string, dueAt: string, now: string, eventOf: (number: NumberRecord) => NewOutboxEvent): Promise<NumberRecord | undefined> {
      return db.transaction(() => {
        const row = sql('UPDATE phone_numbers SET past_due_since = ?, updated_at = ? WHERE id = ? AND renews_at = ? AND past_due_since IS NULL RETURNING *').get(now, now, id, dueAt) as
          | NumberRow
          | undefined;
        if (!row) return undefined;
        const number = numberFromRow(row);
        outbox.add(eventOf(number));
        return number;
      }).immediate();
    },

    async deleteUnpaidNumber(id: string, dueAt: string, eventOf: (number: NumberRecord) => NewOutboxEvent): Promise<boolean> {
      return db.transaction(() => {
        const row = sql('DELETE FROM phone_numbers WHERE id = ? AND renews_at = ? AND past_due_since IS NOT NULL RETURNING *').get(id, dueAt) as NumberRow | undefined;
        if (!row) return false;
        outbox.add(eventOf(numberFromRow(row)));
        return true;
      }).immediate();
    },
  };
}
