// SIP trunks in SQLite. The routing lives on phone_numbers.sip_trunk_id; a trunk's writes and its
// numbers' routing change in one IMMEDIATE transaction, checked before anything is written.
import { insertRow } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import { storedSipTrunkChanges } from '../mapping/sip-trunk.js';
import { routingRefusal } from '../rules.js';
import type { RoutingRefusal, SipTrunkChanges, SipTrunkRecord, SipTrunkStore } from '../store.js';
import { sipTrunkFromRow, sipTrunkRow, type SipTrunkRow } from './rows.js';
import { selectPage, updateRow, type SqliteContext } from './statements.js';

const placeholders = (count: number): string => new Array<string>(count).fill('?').join(', ');

export function sqliteSipTrunkStore({ db, sql }: SqliteContext): SipTrunkStore {
  /** The routed numbers of each trunk, in the order the numbers were added. */
  function numbersOf(trunkIds: string[]): Map<string, string[]> {
    const routed = new Map<string, string[]>(trunkIds.map((id) => [id, []]));
    if (trunkIds.length === 0) return routed;
    const rows = sql(`SELECT id, sip_trunk_id FROM phone_numbers WHERE sip_trunk_id IN (${placeholders(trunkIds.length)}) ORDER BY created_at, id`).all(...trunkIds) as {
      id: string;
      sip_trunk_id: string;
    }[];
    for (const row of rows) routed.get(row.sip_trunk_id)?.push(row.id);
    return routed;
  }

  const withNumbers = (row: SipTrunkRow): SipTrunkRecord => sipTrunkFromRow(row, numbersOf([row.id]).get(row.id) ?? []);

  /** Why the numbers cannot go through the trunk, or undefined when they can. */
  function refusal(workspaceId: string, trunkId: string, numberIds: string[]): RoutingRefusal | undefined {
    if (numberIds.length === 0) return undefined;
    const rows = sql(`SELECT id, sip_trunk_id FROM phone_numbers WHERE workspace_id = ? AND id IN (${placeholders(numberIds.length)})`).all(workspaceId, ...numberIds) as {
      id: string;
      sip_trunk_id: string | null;
    }[];
    return routingRefusal(trunkId, numberIds, new Map(rows.map((row) => [row.id, row.sip_trunk_id])));
  }

  function route(trunkId: string, numberIds: string[]): void {
    sql(`UPDATE phone_numbers SET sip_trunk_id = NULL WHERE sip_trunk_id = ? AND id NOT IN (${placeholders(numberIds.length) || "''"})`).run(trunkId, ...numberIds);
    if (numberIds.length > 0) sql(`UPDATE phone_numbers SET sip_trunk_id = ? WHERE id IN (${placeholders(numberIds.length)})`).run(trunkId, ...numberIds);
  }

  const findRow = (workspaceId: string, id: string) =>
    sql('SELECT * FROM sip_trunks WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as SipTrunkRow | undefined;

  return {
    async insertSipTrunk(trunk: SipTrunkRecord, numberIds: string[], limit: number) {
      return db
        .transaction((): { kind: 'created'; trunk: SipTrunkRecord } | RoutingRefusal | { kind: 'limit_reached' } => {
          const { count } = sql('SELECT COUNT(*) AS count FROM sip_trunks WHERE workspace_id = ?').get(trunk.workspaceId) as { count: number };
          if (count >= limit) return { kind: 'limit_reached' };
          const refused = refusal(trunk.workspaceId, trunk.id, numberIds);
          if (refused) return refused;
          insertRow(sql, 'sip_trunks', sipTrunkRow(trunk));
          route(trunk.id, numberIds);
          return { kind: 'created', trunk: withNumbers(sipTrunkRow(trunk)) };
        })
        .immediate();
    },

    async getSipTrunk(workspaceId: string, id: string) {
      const row = findRow(workspaceId, id);
      return row ? withNumbers(row) : undefined;
    },

    async listSipTrunks(workspaceId: string, page: Page) {
      return db.transaction(() => {
        const { rows, total } = selectPage<SipTrunkRow>(db, sql, { table: 'sip_trunks', where: 'workspace_id = @workspaceId', params: { workspaceId } }, page);
        const routed = numbersOf(rows.map((row) => row.id));
        return { trunks: rows.map((row) => sipTrunkFromRow(row, routed.get(row.id) ?? [])), total };
      })();
    },

    async updateSipTrunk(workspaceId: string, id: string, changes: SipTrunkChanges, now: string) {
      return db
        .transaction((): { kind: 'updated'; trunk: SipTrunkRecord } | RoutingRefusal | { kind: 'not_found' } => {
          if (!findRow(workspaceId, id)) return { kind: 'not_found' };
          if (changes.numberIds) {
            const refused = refusal(workspaceId, id, changes.numberIds);
            if (refused) return refused;
            route(id, changes.numberIds);
          }
          updateRow(sql, 'sip_trunks', workspaceId, id, storedSipTrunkChanges(changes, now));
          return { kind: 'updated', trunk: withNumbers(findRow(workspaceId, id)!) };
        })
        .immediate();
    },

    async deleteSipTrunk(workspaceId: string, id: string) {
      return db
        .transaction(() => {
          if (!findRow(workspaceId, id)) return 'not_found' as const;
          if (sql('SELECT 1 FROM phone_numbers WHERE sip_trunk_id = ? LIMIT 1').get(id)) return 'in_use' as const;
          sql('DELETE FROM sip_trunks WHERE id = ?').run(id);
          return 'deleted' as const;
        })
        .immediate();
    },
  };
}
