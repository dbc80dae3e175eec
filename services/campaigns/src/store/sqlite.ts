// CampaignStore on embedded SQLite: campaigns, leads (a number once per campaign) and segments, with
// revision-checked updates; a bulk import of leads is one transaction.
import type Database from 'better-sqlite3';
import type { NewOutboxEvent } from '@voice/runtime/events';
import { insertRow, isUniqueViolation, openSqlite, SqliteOutbox, sqliteOutboxMigration, statementCache, type SqliteDatabase } from '@voice/runtime/store/sqlite';
import { sqliteValues } from '@voice/runtime/store';
import type { Page } from '@voice/runtime/validation';
import type { CampaignStatus, LeadStatus, SegmentFilter } from '@voice/contracts/campaigns';
import {
  emptyLeadCounts,
  uncopiedLeadStatuses,
  type CampaignChanges,
  type CampaignRecord,
  type CampaignStore,
  type LeadCounts,
  type LeadChange,
  type LeadCondition,
  type LeadFilter,
  changedLead,
  leadMeets,
  type LeadInsertOutcome,
  campaignKey,
  type LeadRecord,
  type SegmentChanges,
  type SegmentRecord,
  type UpdateOutcome,
} from './store.js';
import { campaignFromStored, storedCampaign, type StoredCampaign } from './mapping/campaign.js';
import { leadFromStored, storedLead, type StoredLead } from './mapping/lead.js';
import { segmentFromStored, storedSegment, type StoredSegment } from './mapping/segment.js';
import { sqliteJson } from './mapping/json.js';
import { SqliteCallbacks, sqliteCallbacksMigration } from './sqlite-callbacks.js';

const migrations = [
  `CREATE TABLE campaigns (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     status TEXT NOT NULL,
     segment_id TEXT,
     settings TEXT NOT NULL,
     revision INTEGER NOT NULL,
     started_at TEXT,
     stopped_at TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX campaigns_by_workspace ON campaigns (workspace_id, created_at DESC, id DESC);
   CREATE INDEX campaigns_by_segment ON campaigns (workspace_id, segment_id);
   CREATE TABLE leads (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     campaign_id TEXT NOT NULL,
     phone TEXT NOT NULL,
     name TEXT NOT NULL,
     variables TEXT NOT NULL,
     time_zone TEXT,
     status TEXT NOT NULL,
     attempts INTEGER NOT NULL,
     call_ids TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     UNIQUE (campaign_id, phone)
   );
   CREATE INDEX leads_by_workspace ON leads (workspace_id, created_at DESC, id DESC);
   CREATE INDEX leads_by_campaign ON leads (campaign_id, status, created_at DESC, id DESC);
   CREATE TABLE segments (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     name TEXT NOT NULL,
     description TEXT NOT NULL,
     filter TEXT NOT NULL,
     revision INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     UNIQUE (workspace_id, name)
   );
   CREATE INDEX segments_by_workspace ON segments (workspace_id, created_at DESC, id DESC);`,
  // The dialer's recovery reads the running campaigns of every workspace.
  `CREATE INDEX campaigns_running ON campaigns (status, started_at, id);`,
  sqliteOutboxMigration,
  `ALTER TABLE campaigns ADD COLUMN paused_reason TEXT;`,
  // The dialer's schedule job reads the due campaigns of every workspace.
  `ALTER TABLE campaigns ADD COLUMN next_run_at TEXT;
   CREATE INDEX campaigns_due ON campaigns (next_run_at, id) WHERE next_run_at IS NOT NULL;`,
  sqliteCallbacksMigration,
  `ALTER TABLE leads ADD COLUMN time_zone_source TEXT;`,
];

type CampaignRow = StoredCampaign<string> & { id: string };
type LeadRow = StoredLead<string, string> & { id: string };
type SegmentRow = StoredSegment<string> & { id: string };

const campaignOf = (row: CampaignRow): CampaignRecord => campaignFromStored(row.id, row, sqliteJson);
const leadOf = (row: LeadRow): LeadRecord => leadFromStored(row.id, row, sqliteJson, sqliteValues);
const segmentOf = (row: SegmentRow): SegmentRecord => segmentFromStored(row.id, row, sqliteJson);

/** The SQL condition and its parameters for a segment filter over the leads table. */
function segmentCondition(filter: SegmentFilter): { sql: string[]; params: Record<string, unknown> } {
  const sql: string[] = [];
  const params: Record<string, unknown> = {};
  const list = (name: string, items: readonly string[]) => {
    items.forEach((item, i) => (params[`${name}${i}`] = item));
    return items.map((_, i) => `@${name}${i}`).join(', ');
  };
  if (filter.campaign_ids) sql.push(`campaign_id IN (${list('segCampaign', filter.campaign_ids)})`);
  if (filter.statuses) sql.push(`status IN (${list('segStatus', filter.statuses)})`);
  if (filter.time_zones) sql.push(`time_zone IN (${list('segZone', filter.time_zones)})`);
  if (filter.phone_prefix) {
    // The prefix is "+" and digits only: nothing in it is a LIKE wildcard.
    sql.push('phone LIKE @segPrefix');
    params.segPrefix = `${filter.phone_prefix}%`;
  }
  if (filter.created_after) {
    sql.push('created_at >= @segAfter');
    params.segAfter = filter.created_after;
  }
  if (filter.created_before) {
    sql.push('created_at < @segBefore');
    params.segBefore = filter.created_before;
  }
  Object.entries(filter.variables ?? {}).forEach(([key, value], i) => {
    // Variable names are identifiers (the contract's rule), so the JSON path needs no quoting.
    const path = `'$.${key}'`;
    if (typeof value === 'boolean') {
      sql.push(`json_type(variables, ${path}) = '${value ? 'true' : 'false'}'`);
    } else {
      sql.push(`json_type(variables, ${path}) = '${typeof value === 'string' ? 'text' : Number.isInteger(value) ? 'integer' : 'real'}' AND json_extract(variables, ${path}) = @segVar${i}`);
      params[`segVar${i}`] = value;
    }
  });
  return { sql, params };
}

export class SqliteCampaignStore implements CampaignStore {
  private readonly db: SqliteDatabase;
  private readonly sql: (text: string) => Database.Statement;
  readonly outbox: SqliteOutbox;
  readonly callbacks: SqliteCallbacks;

  constructor(file: string) {
    this.db = openSqlite(file, migrations);
    this.sql = statementCache(this.db);
    this.outbox = new SqliteOutbox(this.db);
    this.callbacks = new SqliteCallbacks(this.sql);
  }

  async insertCampaign(campaign: CampaignRecord): Promise<void> {
    insertRow(this.sql, 'campaigns', { id: campaign.id, ...storedCampaign(campaign, sqliteJson) });
  }

  async getCampaign(workspaceId: string, id: string): Promise<CampaignRecord | undefined> {
    const row = this.sql('SELECT * FROM campaigns WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as CampaignRow | undefined;
    return row ? campaignOf(row) : undefined;
  }

  async listCampaigns(workspaceId: string, filter: { status?: CampaignStatus }, page: Page): Promise<{ campaigns: CampaignRecord[]; total: number }> {
    const where = filter.status ? 'workspace_id = @workspaceId AND status = @status' : 'workspace_id = @workspaceId';
    const params = { workspaceId, status: filter.status, limit: page.limit, offset: page.offset };
    return this.db.transaction(() => {
      const { total } = this.sql(`SELECT COUNT(*) AS total FROM campaigns WHERE ${where}`).get(params) as { total: number };
      const rows = this.sql(`SELECT * FROM campaigns WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`).all(params) as CampaignRow[];
      return { campaigns: rows.map(campaignOf), total };
    })();
  }

  async updateCampaign(workspaceId: string, id: string, expectedRevision: number, changes: CampaignChanges, now: string, events: readonly NewOutboxEvent[] = []): Promise<UpdateOutcome<CampaignRecord>> {
    return this.db.transaction((): UpdateOutcome<CampaignRecord> => {
      const assignments = ['revision = revision + 1', 'updated_at = @now'];
      if (changes.settings) assignments.push('settings = @settings', 'segment_id = @segmentId');
      if (changes.status) assignments.push('status = @status');
      if (changes.pausedReason !== undefined) assignments.push('paused_reason = @pausedReason');
      if (changes.startedAt) assignments.push('started_at = @startedAt');
      if (changes.stoppedAt) assignments.push('stopped_at = @stoppedAt');
      if (changes.nextRunAt !== undefined) assignments.push('next_run_at = @nextRunAt');
      const changed = this.sql(`UPDATE campaigns SET ${assignments.join(', ')} WHERE id = @id AND workspace_id = @workspaceId AND revision = @expectedRevision`).run({
        id,
        workspaceId,
        expectedRevision,
        now,
        settings: changes.settings ? JSON.stringify(changes.settings) : undefined,
        segmentId: changes.settings?.segment_id ?? null,
        status: changes.status,
        pausedReason: changes.pausedReason,
        startedAt: changes.startedAt,
        stoppedAt: changes.stoppedAt,
        nextRunAt: changes.nextRunAt,
      }).changes;
      const row = this.sql('SELECT * FROM campaigns WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as CampaignRow | undefined;
      if (!row) return { kind: 'not_found' };
      if (changed !== 1) return { kind: 'revision_conflict' };
      for (const event of events) this.outbox.add(event);
      return { kind: 'updated', record: campaignOf(row) };
    }).immediate();
  }

  async listRunningCampaigns(page: Page): Promise<CampaignRecord[]> {
    const rows = this.sql("SELECT * FROM campaigns WHERE status = 'running' ORDER BY started_at, id LIMIT ? OFFSET ?").all(page.limit, page.offset) as CampaignRow[];
    return rows.map(campaignOf);
  }

  async listDueCampaigns(now: string, limit: number): Promise<CampaignRecord[]> {
    const rows = this.sql('SELECT * FROM campaigns WHERE next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at, id LIMIT ?').all(now, limit) as CampaignRow[];
    return rows.map(campaignOf);
  }

  async advanceSchedule(workspaceId: string, id: string, from: string, to: string | null): Promise<boolean> {
    return this.sql('UPDATE campaigns SET next_run_at = ? WHERE id = ? AND workspace_id = ? AND next_run_at = ?').run(to, id, workspaceId, from).changes === 1;
  }

  async deleteCampaign(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'running'> {
    return this.db.transaction(() => {
      const row = this.sql('SELECT status FROM campaigns WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as { status: string } | undefined;
      if (!row) return 'not_found' as const;
      if (row.status === 'running') return 'running' as const;
      this.sql('DELETE FROM leads WHERE campaign_id = ? AND workspace_id = ?').run(id, workspaceId);
      this.sql('DELETE FROM campaigns WHERE id = ? AND workspace_id = ?').run(id, workspaceId);
      return 'deleted' as const;
    }).immediate();
  }

  async insertLeads(leads: readonly LeadRecord[]): Promise<LeadInsertOutcome[]> {
    return this.db.transaction(() => {
      const campaigns = new Map<string, boolean>();
      const exists = (lead: LeadRecord) => {
        const key = campaignKey(lead);
        if (!campaigns.has(key)) campaigns.set(key, this.sql('SELECT 1 FROM campaigns WHERE id = ? AND workspace_id = ?').get(lead.campaignId, lead.workspaceId) !== undefined);
        return campaigns.get(key)!;
      };
      return leads.map((lead): LeadInsertOutcome => {
        if (!exists(lead)) return { kind: 'no_campaign' };
        if (insertRow(this.sql, 'leads', { id: lead.id, ...storedLead(lead, sqliteJson, sqliteValues) }, { ifAbsent: true }) === 1) return { kind: 'created' };
        const existing = this.sql('SELECT id FROM leads WHERE campaign_id = ? AND phone = ?').get(lead.campaignId, lead.phone) as { id: string };
        return { kind: 'duplicate', leadId: existing.id };
      });
    }).immediate();
  }

  async listLeads(workspaceId: string, filter: LeadFilter, page: Page): Promise<{ leads: LeadRecord[]; total: number }> {
    const segment = filter.segment ? segmentCondition(filter.segment) : { sql: [], params: {} };
    const conditions = ['workspace_id = @workspaceId', ...segment.sql];
    if (filter.campaignId) conditions.push('campaign_id = @campaignId');
    if (filter.status) conditions.push('status = @status');
    const where = conditions.join(' AND ');
    const params = { ...segment.params, workspaceId, campaignId: filter.campaignId, status: filter.status, limit: page.limit, offset: page.offset };
    return this.db.transaction(() => {
      // Filters vary in shape: prepared per call rather than cached by text.
      const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM leads WHERE ${where}`).get(params) as { total: number };
      const rows = this.db.prepare(`SELECT * FROM leads WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`).all(params) as LeadRow[];
      return { leads: rows.map(leadOf), total };
    })();
  }

  async removeLead(workspaceId: string, id: string, campaignId: string | undefined, now: string): Promise<LeadRecord | undefined> {
    return this.db.transaction(() => {
      const scope = campaignId === undefined ? '' : ' AND campaign_id = @campaignId';
      this.sql(`UPDATE leads SET status = 'removed', updated_at = @now WHERE id = @id AND workspace_id = @workspaceId${scope} AND status != 'removed'`).run({
        id,
        workspaceId,
        campaignId,
        now,
      });
      const row = this.sql(`SELECT * FROM leads WHERE id = @id AND workspace_id = @workspaceId${scope}`).get({ id, workspaceId, campaignId }) as LeadRow | undefined;
      return row ? leadOf(row) : undefined;
    }).immediate();
  }

  async getLead(workspaceId: string, id: string): Promise<LeadRecord | undefined> {
    const row = this.sql('SELECT * FROM leads WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as LeadRow | undefined;
    return row ? leadOf(row) : undefined;
  }

  async transitionLead(workspaceId: string, id: string, when: LeadCondition, change: LeadChange, now: string): Promise<LeadRecord | undefined> {
    return this.db.transaction(() => {
      const row = this.sql('SELECT * FROM leads WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as LeadRow | undefined;
      if (!row || !leadMeets(leadOf(row), when)) return undefined;
      const next = changedLead(leadOf(row), change, now);
      this.sql('UPDATE leads SET status = @status, attempts = @attempts, call_ids = @callIds, updated_at = @now WHERE id = @id').run({
        id,
        status: next.status,
        attempts: next.attempts,
        callIds: sqliteValues.list(next.callIds),
        now,
      });
      return next;
    }).immediate();
  }

  async countLeads(workspaceId: string, campaignIds: readonly string[]): Promise<Map<string, LeadCounts>> {
    const counts = new Map(campaignIds.map((id) => [id, emptyLeadCounts()]));
    if (campaignIds.length === 0) return counts;
    const rows = this.db
      .prepare(
        `SELECT campaign_id AS campaignId, status, COUNT(*) AS count FROM leads
         WHERE workspace_id = ? AND campaign_id IN (${campaignIds.map(() => '?').join(', ')}) GROUP BY campaign_id, status`,
      )
      .all(workspaceId, ...campaignIds) as { campaignId: string; status: LeadStatus; count: number }[];
    for (const row of rows) {
      const of = counts.get(row.campaignId)!;
      of[row.status] = row.count;
      of.total += row.count;
    }
    return counts;
  }

  async copySegmentLeads(workspaceId: string, campaignId: string, filter: SegmentFilter, newId: () => string, now: string): Promise<number> {
    const segment = segmentCondition(filter);
    const conditions = ['workspace_id = @workspaceId', 'campaign_id != @campaignId', `status NOT IN (${uncopiedLeadStatuses.map((s) => `'${s}'`).join(', ')})`, ...segment.sql];
    return this.db.transaction(() => {
      if (!this.sql('SELECT 1 FROM campaigns WHERE id = ? AND workspace_id = ?').get(campaignId, workspaceId)) return 0;
      const rows = this.db
        .prepare(`SELECT * FROM leads WHERE ${conditions.join(' AND ')} ORDER BY created_at, id`)
        .all({ ...segment.params, workspaceId, campaignId }) as LeadRow[];
      let added = 0;
      for (const row of rows) {
        const copy: LeadRecord = { ...leadOf(row), id: newId(), campaignId, status: 'pending', attempts: 0, callIds: [], createdAt: now, updatedAt: now };
        added += insertRow(this.sql, 'leads', { id: copy.id, ...storedLead(copy, sqliteJson, sqliteValues) }, { ifAbsent: true });
      }
      return added;
    }).immediate();
  }

  async insertSegment(segment: SegmentRecord): Promise<'created' | 'name_taken'> {
    try {
      insertRow(this.sql, 'segments', { id: segment.id, ...storedSegment(segment, sqliteJson) });
      return 'created';
    } catch (error) {
      if (isUniqueViolation(error)) return 'name_taken';
      throw error;
    }
  }

  async getSegment(workspaceId: string, id: string): Promise<SegmentRecord | undefined> {
    const row = this.sql('SELECT * FROM segments WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as SegmentRow | undefined;
    return row ? segmentOf(row) : undefined;
  }

  async listSegments(workspaceId: string, page: Page): Promise<{ segments: SegmentRecord[]; total: number }> {
    return this.db.transaction(() => {
      const { total } = this.sql('SELECT COUNT(*) AS total FROM segments WHERE workspace_id = ?').get(workspaceId) as { total: number };
      const rows = this.sql('SELECT * FROM segments WHERE workspace_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?').all(workspaceId, page.limit, page.offset) as SegmentRow[];
      return { segments: rows.map(segmentOf), total };
    })();
  }

  async updateSegment(
    workspaceId: string,
    id: string,
    expectedRevision: number,
    changes: SegmentChanges,
    now: string,
  ): Promise<UpdateOutcome<SegmentRecord> | { kind: 'name_taken' }> {
    return this.db.transaction((): UpdateOutcome<SegmentRecord> | { kind: 'name_taken' } => {
      const assignments = ['revision = revision + 1', 'updated_at = @now'];
      if (changes.name !== undefined) assignments.push('name = @name');
      if (changes.description !== undefined) assignments.push('description = @description');
      if (changes.filter !== undefined) assignments.push('filter = @filter');
      let changed: number;
      try {
        changed = this.sql(`UPDATE segments SET ${assignments.join(', ')} WHERE id = @id AND workspace_id = @workspaceId AND revision = @expectedRevision`).run({
          id,
          workspaceId,
          expectedRevision,
          now,
          name: changes.name,
          description: changes.description,
          filter: changes.filter === undefined ? undefined : JSON.stringify(changes.filter),
        }).changes;
      } catch (error) {
        if (isUniqueViolation(error)) return { kind: 'name_taken' };
        throw error;
      }
      const row = this.sql('SELECT * FROM segments WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as SegmentRow | undefined;
      if (!row) return { kind: 'not_found' };
      return changed === 1 ? { kind: 'updated', record: segmentOf(row) } : { kind: 'revision_conflict' };
    }).immediate();
  }

  async deleteSegment(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'> {
    return this.db.transaction(() => {
      if (!this.sql('SELECT 1 FROM segments WHERE id = ? AND workspace_id = ?').get(id, workspaceId)) return 'not_found' as const;
      if (this.sql('SELECT 1 FROM campaigns WHERE workspace_id = ? AND segment_id = ?').get(workspaceId, id)) return 'in_use' as const;
      this.sql('DELETE FROM segments WHERE id = ? AND workspace_id = ?').run(id, workspaceId);
      return 'deleted' as const;
    }).immediate();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
