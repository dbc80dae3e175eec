// Call legs in SQLite: each move of a leg and its CallLegChanged event are written in one
// IMMEDIATE transaction, which also orders racing reports of one leg.
import type { NewOutboxEvent } from '@voice/runtime/events';
import { insertRow, isUniqueViolation } from '@voice/runtime/store/sqlite';
import { advancedLeg, type LegChange } from '../../domain/call-legs.js';
import type { CallLegRecord, CallLegStore } from '../store.js';
import { callLegFromRow, callLegRow, type CallLegRow } from './rows.js';
import type { SqliteContext } from './statements.js';

export function sqliteCallLegStore({ db, sql, outbox }: SqliteContext): CallLegStore {
  const legById = (id: string): CallLegRecord | undefined => {
    const row = sql('SELECT * FROM call_legs WHERE id = ?').get(id) as CallLegRow | undefined;
    return row ? callLegFromRow(row) : undefined;
  };
  const legOfCall = (workspaceId: string, callId: string): CallLegRecord | undefined => {
    const row = sql('SELECT * FROM call_legs WHERE workspace_id = ? AND call_id = ?').get(workspaceId, callId) as CallLegRow | undefined;
    return row ? callLegFromRow(row) : undefined;
  };

  return {
    async insertLeg(leg: CallLegRecord, event: NewOutboxEvent | undefined) {
      return db.transaction(() => {
        const existing = leg.callId === null ? undefined : legOfCall(leg.workspaceId, leg.callId);
        if (existing) return { kind: 'exists' as const, leg: existing };
        try {
          insertRow(sql, 'call_legs', callLegRow(leg));
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          return { kind: 'exists' as const, leg: legById(leg.id) ?? legOfCall(leg.workspaceId, leg.callId!)! };
        }
        if (event) outbox.add(event);
        return { kind: 'created' as const, leg };
      }).immediate();
    },

    async getLeg(id: string) {
      return legById(id);
    },

    async getLegOfCall(workspaceId: string, callId: string) {
      return legOfCall(workspaceId, callId);
    },

    async getLegByCarrierCallId(carrierConnectionId: string | null, carrierCallId: string) {
      const row = sql("SELECT * FROM call_legs WHERE IFNULL(carrier_connection_id, '') = ? AND carrier_call_id = ? ORDER BY created_at LIMIT 1").get(
        carrierConnectionId ?? '',
        carrierCallId,
      ) as CallLegRow | undefined;
      return row ? callLegFromRow(row) : undefined;
    },

    async attachCall(id: string, callId: string, sealedMediaParameters: string, now: string) {
      try {
        const row = sql(
          `UPDATE call_legs SET call_id = ?, sealed_media_parameters = ?, updated_at = ?
           WHERE id = ? AND call_id IS NULL AND status NOT IN ('completed', 'no_answer', 'busy', 'failed', 'canceled') RETURNING *`,
        ).get(callId, sealedMediaParameters, now, id) as CallLegRow | undefined;
        return row ? callLegFromRow(row) : undefined;
      } catch (error) {
        // Another leg of the workspace already has the call.
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    async recordCarrierCallId(id: string, carrierCallId: string, now: string) {
      sql('UPDATE call_legs SET carrier_call_id = ?, updated_at = ? WHERE id = ? AND carrier_call_id IS NULL').run(carrierCallId, now, id);
      return legById(id);
    },

    async advanceLeg(id: string, change: LegChange, eventOf: (leg: CallLegRecord) => NewOutboxEvent | undefined) {
      return db.transaction(() => {
        const current = legById(id);
        const moved = current && advancedLeg(current, change);
        if (!moved) return undefined;
        const row = callLegRow(moved);
        sql(
          `UPDATE call_legs SET status = @status, sequence = @sequence, answered_at = @answered_at, ended_at = @ended_at,
             duration_seconds = @duration_seconds, failure_reason = @failure_reason, updated_at = @updated_at WHERE id = @id`,
        ).run(row);
        const event = eventOf(moved);
        if (event) outbox.add(event);
        return moved;
      }).immediate();
    },
  };
}
