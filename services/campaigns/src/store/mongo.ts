// CampaignStore on MongoDB: the service's own database; a unique (campaign, phone) index keeps a number
// once per campaign, revision-checked findOneAndUpdate, and transactions where a check and a write
// must agree (a running campaign is not deleted, a targeted segment neither).
import type { Collection, Filter } from 'mongodb';
import { MongoBulkWriteError } from 'mongodb';
import type { NewOutboxEvent } from '@voice/runtime/events';
import { connectMongo, inTransaction, isDuplicateKey, MongoOutbox, type MongoHandle } from '@voice/runtime/store/mongo';
import { mongoValues } from '@voice/runtime/store';
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
import { mongoJson } from './mapping/json.js';
import { MongoCallbacks } from './mongo-callbacks.js';

type CampaignDocument = StoredCampaign<object> & { _id: string };
type LeadDocument = StoredLead<object, string[]> & { _id: string };
type SegmentDocument = StoredSegment<object> & { _id: string };

const campaignOf = (doc: CampaignDocument): CampaignRecord => campaignFromStored(doc._id, doc, mongoJson);
const leadOf = (doc: LeadDocument): LeadRecord => leadFromStored(doc._id, doc, mongoJson, mongoValues);
const segmentOf = (doc: SegmentDocument): SegmentRecord => segmentFromStored(doc._id, doc, mongoJson);
const leadDocument = (lead: LeadRecord): LeadDocument => ({ _id: lead.id, ...storedLead(lead, mongoJson, mongoValues) });

/** Numbers per `$in`: bounded queries on every MongoDB-compatible server. */
const chunkSize = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += chunkSize) out.push(items.slice(start, start + chunkSize));
  return out;
}

/** The query of a segment filter over the leads collection. */
function segmentQuery(filter: SegmentFilter): Filter<LeadDocument> {
  const query: Record<string, unknown> = {};
  if (filter.campaign_ids) query.campaign_id = { $in: filter.campaign_ids };
  if (filter.statuses) query.status = { $in: filter.statuses };
  if (filter.time_zones) query.time_zone = { $in: filter.time_zones };
  // "+" and digits only: escaping the plus makes it a literal prefix.
  if (filter.phone_prefix) query.phone = { $regex: `^\\${filter.phone_prefix}` };
  if (filter.created_after || filter.created_before) {
    query.created_at = { ...(filter.created_after ? { $gte: filter.created_after } : {}), ...(filter.created_before ? { $lt: filter.created_before } : {}) };
  }
  // Variable names are identifiers (the contract's rule): no "." or "$" reaches the path.
  for (const [key, value] of Object.entries(filter.variables ?? {})) query[`variables.${key}`] = value;
  return query as Filter<LeadDocument>;
}

export class MongoCampaignStore implements CampaignStore {
  readonly outbox: MongoOutbox;

  private constructor(
    private readonly handle: MongoHandle,
    private readonly campaigns: Collection<CampaignDocument>,
    private readonly leads: Collection<LeadDocument>,
    private readonly segments: Collection<SegmentDocument>,
    readonly callbacks: MongoCallbacks,
  ) {
    this.outbox = new MongoOutbox(handle.db);
  }

  static async connect(uri: string, databaseName: string): Promise<MongoCampaignStore> {
    const handle = await connectMongo(uri, databaseName);
    const campaigns = handle.db.collection<CampaignDocument>('campaigns');
    const leads = handle.db.collection<LeadDocument>('leads');
    const segments = handle.db.collection<SegmentDocument>('segments');
    await campaigns.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
    await campaigns.createIndex({ workspace_id: 1, segment_id: 1 }, { name: 'by_segment' });
    await campaigns.createIndex({ status: 1, started_at: 1, _id: 1 }, { name: 'running' });
    await campaigns.createIndex({ next_run_at: 1, _id: 1 }, { name: 'due' });
    await leads.createIndex({ campaign_id: 1, phone: 1 }, { unique: true, name: 'unique_phone_per_campaign' });
    await leads.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
    await leads.createIndex({ campaign_id: 1, status: 1, created_at: -1, _id: -1 }, { name: 'by_campaign' });
    await segments.createIndex({ workspace_id: 1, name: 1 }, { unique: true, name: 'unique_name_per_workspace' });
    await segments.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
    const store = new MongoCampaignStore(handle, campaigns, leads, segments, await MongoCallbacks.open(handle.db));
    await store.outbox.ensureIndexes();
    return store;
  }

  async insertCampaign(campaign: CampaignRecord): Promise<void> {
    await this.campaigns.insertOne({ _id: campaign.id, ...storedCampaign(campaign, mongoJson) });
  }

  async getCampaign(workspaceId: string, id: string): Promise<CampaignRecord | undefined> {
    const doc = await this.campaigns.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? campaignOf(doc) : undefined;
  }

  async listCampaigns(workspaceId: string, filter: { status?: CampaignStatus }, page: Page): Promise<{ campaigns: CampaignRecord[]; total: number }> {
    const query: Filter<CampaignDocument> = { workspace_id: workspaceId, ...(filter.status ? { status: filter.status } : {}) };
    const [total, docs] = await Promise.all([
      this.campaigns.countDocuments(query),
      this.campaigns.find(query).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { campaigns: docs.map(campaignOf), total };
  }

  async updateCampaign(workspaceId: string, id: string, expectedRevision: number, changes: CampaignChanges, now: string, events: readonly NewOutboxEvent[] = []): Promise<UpdateOutcome<CampaignRecord>> {
    const set: Partial<CampaignDocument> = { updated_at: now };
    if (changes.settings) Object.assign(set, { settings: mongoJson.encode(changes.settings), segment_id: changes.settings.segment_id });
    if (changes.status) set.status = changes.status;
    if (changes.pausedReason !== undefined) set.paused_reason = changes.pausedReason;
    if (changes.startedAt) set.started_at = changes.startedAt;
    if (changes.stoppedAt) set.stopped_at = changes.stoppedAt;
    if (changes.nextRunAt !== undefined) set.next_run_at = changes.nextRunAt;
    const updated = await inTransaction(this.handle, async (session) => {
      const changed = await this.campaigns.findOneAndUpdate(
        { _id: id, workspace_id: workspaceId, revision: expectedRevision },
        { $set: set, $inc: { revision: 1 } },
        { returnDocument: 'after', session },
      );
      if (changed) for (const event of events) await this.outbox.add(event, session);
      return changed;
    });
    if (updated) return { kind: 'updated', record: campaignOf(updated) };
    const exists = await this.campaigns.countDocuments({ _id: id, workspace_id: workspaceId }, { limit: 1 });
    return exists ? { kind: 'revision_conflict' } : { kind: 'not_found' };
  }

  async listDueCampaigns(now: string, limit: number): Promise<CampaignRecord[]> {
    const docs = await this.campaigns.find({ next_run_at: { $ne: null, $lte: now } }).sort({ next_run_at: 1, _id: 1 }).limit(limit).toArray();
    return docs.map(campaignOf);
  }

  async advanceSchedule(workspaceId: string, id: string, from: string, to: string | null): Promise<boolean> {
    const changed = await this.campaigns.updateOne({ _id: id, workspace_id: workspaceId, next_run_at: from }, { $set: { next_run_at: to } });
    return changed.modifiedCount === 1;
  }

  async listRunningCampaigns(page: Page): Promise<CampaignRecord[]> {
    const docs = await this.campaigns.find({ status: 'running' }).sort({ started_at: 1, _id: 1 }).skip(page.offset).limit(page.limit).toArray();
    return docs.map(campaignOf);
  }

  async deleteCampaign(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'running'> {
    const outcome = await inTransaction(this.handle, async (session) => {
      const doc = await this.campaigns.findOne({ _id: id, workspace_id: workspaceId }, { session, projection: { status: 1 } });
      if (!doc) return 'not_found' as const;
      if (doc.status === 'running') return 'running' as const;
      await this.leads.deleteMany({ campaign_id: id, workspace_id: workspaceId }, { session });
      await this.campaigns.deleteOne({ _id: id, workspace_id: workspaceId }, { session });
      return 'deleted' as const;
    });
    // The transaction deleted the leads of its snapshot: an import that inserted after that snapshot and
    // looked for the campaign before this commit saw it still there. Leads inserted before this point
    // go now; any inserted later find the campaign gone when insertLeads looks again.
    if (outcome === 'deleted') await this.leads.deleteMany({ campaign_id: id, workspace_id: workspaceId });
    return outcome;
  }

  async insertLeads(leads: readonly LeadRecord[]): Promise<LeadInsertOutcome[]> {
    const outcomes: LeadInsertOutcome[] = [];
    const campaigns = await this.existingCampaigns(leads);
    // A number already in the campaign, or earlier in this import, is a duplicate of that lead.
    const known = await this.leadIdsByPhone(leads);
    const fresh: LeadRecord[] = [];
    for (const lead of leads) {
      if (!campaigns.has(campaignKey(lead))) {
        outcomes.push({ kind: 'no_campaign' });
        continue;
      }
      const key = `${lead.campaignId}\u0000${lead.phone}`;
      const existing = known.get(key);
      if (existing) {
        outcomes.push({ kind: 'duplicate', leadId: existing });
      } else {
        known.set(key, lead.id);
        fresh.push(lead);
        outcomes.push({ kind: 'created' });
      }
    }
    const lost = await this.insertMany(fresh);
    // A campaign deleted while its leads were written takes them with it: deleteCampaign may have committed
    // between the check above and the insert, so look again and remove what it left behind (a delete
    // that commits after this look removes them itself, once committed).
    const remaining = await this.existingCampaigns(fresh);
    const orphans = fresh.filter((lead) => !remaining.has(campaignKey(lead)));
    if (orphans.length > 0) {
      for (const chunk of chunks(orphans)) await this.leads.deleteMany({ _id: { $in: chunk.map((lead) => lead.id) } });
      for (const lead of orphans) outcomes[leads.indexOf(lead)] = { kind: 'no_campaign' };
    }
    if (lost.length === 0) return outcomes;
    // A concurrent import took some numbers first: those rows are duplicates of its leads.
    const winners = await this.leadIdsByPhone(lost);
    for (const lead of lost) {
      const index = leads.indexOf(lead);
      outcomes[index] = { kind: 'duplicate', leadId: winners.get(`${lead.campaignId}\u0000${lead.phone}`)! };
    }
    return outcomes;
  }

  /** The campaigns of these leads that exist in their workspaces, by campaignKey. */
  private async existingCampaigns(leads: readonly LeadRecord[]): Promise<Set<string>> {
    const asked = new Map(leads.map((lead) => [campaignKey(lead), lead]));
    const found = new Set<string>();
    for (const [key, lead] of asked) if (await this.campaigns.countDocuments({ _id: lead.campaignId, workspace_id: lead.workspaceId }, { limit: 1 })) found.add(key);
    return found;
  }

  /** Inserts the leads; answers those whose number another writer took first. */
  private async insertMany(leads: readonly LeadRecord[]): Promise<LeadRecord[]> {
    const lost: LeadRecord[] = [];
    for (const chunk of chunks(leads)) {
      try {
        await this.leads.insertMany(chunk.map(leadDocument), { ordered: false });
      } catch (error) {
        if (!(error instanceof MongoBulkWriteError)) throw error;
        const failures = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
        for (const failure of failures) {
          if (failure.code !== 11000) throw error;
          lost.push(chunk[failure.index]!);
        }
      }
    }
    return lost;
  }

  /** The ids of the leads that hold these leads' numbers in their campaigns, by campaign and number. */
  private async leadIdsByPhone(leads: readonly LeadRecord[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    const byCampaign = new Map<string, string[]>();
    for (const lead of leads) byCampaign.set(lead.campaignId, [...(byCampaign.get(lead.campaignId) ?? []), lead.phone]);
    for (const [campaignId, phones] of byCampaign) {
      for (const chunk of chunks([...new Set(phones)])) {
        const docs = await this.leads.find({ campaign_id: campaignId, phone: { $in: chunk } }, { projection: { phone: 1 } }).toArray();
        for (const doc of docs) ids.set(`${campaignId}\u0000${doc.phone}`, doc._id);
      }
    }
    return ids;
  }

  async listLeads(workspaceId: string, filter: LeadFilter, page: Page): Promise<{ leads: LeadRecord[]; total: number }> {
    const query: Filter<LeadDocument> = {
      ...(filter.segment ? segmentQuery(filter.segment) : {}),
      workspace_id: workspaceId,
      ...(filter.campaignId ? { campaign_id: filter.campaignId } : {}),
    };
    // The segment's statuses and the filter's status must both hold.
    const conditions: Filter<LeadDocument>[] = [query];
    if (filter.status) conditions.push({ status: filter.status });
    const where: Filter<LeadDocument> = conditions.length === 1 ? query : { $and: conditions };
    const [total, docs] = await Promise.all([
      this.leads.countDocuments(where),
      this.leads.find(where).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { leads: docs.map(leadOf), total };
  }

  async removeLead(workspaceId: string, id: string, campaignId: string | undefined, now: string): Promise<LeadRecord | undefined> {
    const query: Filter<LeadDocument> = { _id: id, workspace_id: workspaceId, ...(campaignId === undefined ? {} : { campaign_id: campaignId }) };
    await this.leads.updateOne({ ...query, status: { $ne: 'removed' } }, { $set: { status: 'removed', updated_at: now } });
    const doc = await this.leads.findOne(query);
    return doc ? leadOf(doc) : undefined;
  }

  async getLead(workspaceId: string, id: string): Promise<LeadRecord | undefined> {
    const doc = await this.leads.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? leadOf(doc) : undefined;
  }

  async transitionLead(workspaceId: string, id: string, when: LeadCondition, change: LeadChange, now: string): Promise<LeadRecord | undefined> {
    const query: Filter<LeadDocument> = {
      _id: id,
      workspace_id: workspaceId,
      status: { $in: [...when.statuses] },
      ...(when.attempts === undefined ? {} : { attempts: when.attempts }),
      ...(when.callId === undefined ? {} : { call_ids: when.callId }),
    };
    const doc = await this.leads.findOneAndUpdate(
      query,
      {
        $set: { status: change.status, updated_at: now, ...(change.attempts === undefined ? {} : { attempts: change.attempts }) },
        ...(change.addCallId === undefined ? {} : { $addToSet: { call_ids: change.addCallId } }),
      },
      { returnDocument: 'after' },
    );
    return doc ? leadOf(doc) : undefined;
  }

  async countLeads(workspaceId: string, campaignIds: readonly string[]): Promise<Map<string, LeadCounts>> {
    const counts = new Map(campaignIds.map((id) => [id, emptyLeadCounts()]));
    if (campaignIds.length === 0) return counts;
    const groups = await this.leads
      .aggregate<{ _id: { campaign: string; status: LeadStatus }; count: number }>([
        { $match: { workspace_id: workspaceId, campaign_id: { $in: [...campaignIds] } } },
        { $group: { _id: { campaign: '$campaign_id', status: '$status' }, count: { $sum: 1 } } },
      ])
      .toArray();
    for (const group of groups) {
      const of = counts.get(group._id.campaign)!;
      of[group._id.status] = group.count;
      of.total += group.count;
    }
    return counts;
  }

  async copySegmentLeads(workspaceId: string, campaignId: string, filter: SegmentFilter, newId: () => string, now: string): Promise<number> {
    const matches = await this.leads
      .find({ $and: [segmentQuery(filter), { workspace_id: workspaceId, campaign_id: { $ne: campaignId }, status: { $nin: [...uncopiedLeadStatuses] } }] })
      .sort({ created_at: 1, _id: 1 })
      .toArray();
    const copies = matches.map(leadOf).map((lead): LeadRecord => ({ ...lead, id: newId(), campaignId, status: 'pending', attempts: 0, callIds: [], createdAt: now, updatedAt: now }));
    const outcomes = await this.insertLeads(copies);
    return outcomes.filter((outcome) => outcome.kind === 'created').length;
  }

  async insertSegment(segment: SegmentRecord): Promise<'created' | 'name_taken'> {
    try {
      await this.segments.insertOne({ _id: segment.id, ...storedSegment(segment, mongoJson) });
      return 'created';
    } catch (error) {
      if (isDuplicateKey(error)) return 'name_taken';
      throw error;
    }
  }

  async getSegment(workspaceId: string, id: string): Promise<SegmentRecord | undefined> {
    const doc = await this.segments.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? segmentOf(doc) : undefined;
  }

  async listSegments(workspaceId: string, page: Page): Promise<{ segments: SegmentRecord[]; total: number }> {
    const [total, docs] = await Promise.all([
      this.segments.countDocuments({ workspace_id: workspaceId }),
      this.segments.find({ workspace_id: workspaceId }).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { segments: docs.map(segmentOf), total };
  }

  async updateSegment(
    workspaceId: string,
    id: string,
    expectedRevision: number,
    changes: SegmentChanges,
    now: string,
  ): Promise<UpdateOutcome<SegmentRecord> | { kind: 'name_taken' }> {
    const set: Partial<SegmentDocument> = { updated_at: now };
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.description !== undefined) set.description = changes.description;
    if (changes.filter !== undefined) set.filter = mongoJson.encode(changes.filter);
    try {
      const updated = await this.segments.findOneAndUpdate(
        { _id: id, workspace_id: workspaceId, revision: expectedRevision },
        { $set: set, $inc: { revision: 1 } },
        { returnDocument: 'after' },
      );
      if (updated) return { kind: 'updated', record: segmentOf(updated) };
    } catch (error) {
      if (isDuplicateKey(error)) return { kind: 'name_taken' };
      throw error;
    }
    const exists = await this.segments.countDocuments({ _id: id, workspace_id: workspaceId }, { limit: 1 });
    return exists ? { kind: 'revision_conflict' } : { kind: 'not_found' };
  }

  async deleteSegment(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'> {
    return inTransaction(this.handle, async (session) => {
      if (!(await this.segments.countDocuments({ _id: id, workspace_id: workspaceId }, { session, limit: 1 }))) return 'not_found' as const;
      if (await this.campaigns.countDocuments({ workspace_id: workspaceId, segment_id: id }, { session, limit: 1 })) return 'in_use' as const;
      await this.segments.deleteOne({ _id: id, workspace_id: workspaceId }, { session });
      return 'deleted' as const;
    });
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
