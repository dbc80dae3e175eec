// CallStore on MongoDB: the service's own database, one document per call, its reports in their own
// collection (unique per call, source and sequence), and transactions where a call, its claim and its
// outbox events must agree (MongoDB transactions need a replica set, as production runs).
import type { ClientSession, Collection, Filter } from 'mongodb';
import type { NewOutboxEvent } from '@voice/runtime/events';
import { connectMongo, deleteBatch, inTransaction, MongoOutbox, type MongoHandle } from '@voice/runtime/store/mongo';
import { mongoValues } from '@voice/runtime/store';
import type { Page } from '@voice/runtime/validation';
import { callFromStored, reportFromStored, storedCall, type StoredCall, type StoredReport } from './mapping/call.js';
import { claimOutcomeOf, type CallFilter, type CallRecord, type CallStore, type CallView, type ClaimOutcome, type IdempotencyClaim } from './store.js';

type CallDocument = StoredCall<boolean> & { _id: string };
type ReportDocument = StoredReport & { _id: string };

interface ClaimDocument {
  _id: string;
  fingerprint: string;
  call_id: string;
  created_at: string;
}

const claimId = (workspaceId: string, key: string): string => `${workspaceId}:${key}`;

export class MongoCallStore implements CallStore {
  readonly outbox: MongoOutbox;

  private constructor(
    private readonly handle: MongoHandle,
    private readonly calls: Collection<CallDocument>,
    private readonly reports: Collection<ReportDocument>,
    private readonly claims: Collection<ClaimDocument>,
  ) {
    this.outbox = new MongoOutbox(handle.db);
  }

  static async connect(uri: string, databaseName: string): Promise<MongoCallStore> {
    const handle = await connectMongo(uri, databaseName);
    const calls = handle.db.collection<CallDocument>('calls');
    const reports = handle.db.collection<ReportDocument>('call_reports');
    const claims = handle.db.collection<ClaimDocument>('idempotency_claims');
    await calls.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
    await reports.createIndex({ call_id: 1, at: 1, source: 1, sequence: 1 }, { name: 'reports_in_order' });
    await claims.createIndex({ created_at: 1 }, { name: 'claims_by_time' });
    const store = new MongoCallStore(handle, calls, reports, claims);
    await store.outbox.ensureIndexes();
    return store;
  }

  async claimedCall(workspaceId: string, claim: IdempotencyClaim): Promise<ClaimOutcome | undefined> {
    return this.claimOutcome(workspaceId, claim);
  }

  async createCall(call: CallRecord, claim?: IdempotencyClaim): Promise<{ kind: 'created'; call: CallView } | ClaimOutcome> {
    const document: CallDocument = { _id: call.id, ...storedCall(call, mongoValues) };
    if (!claim) {
      await this.calls.insertOne(document);
      return { kind: 'created', call: { ...call, reports: [] } };
    }
    const outcome = await inTransaction(this.handle, async (session): Promise<{ kind: 'created' } | ClaimOutcome> => {
      const earlier = await this.claimOutcome(call.workspaceId, claim, session);
      if (earlier) return earlier;
      await this.claims.replaceOne(
        { _id: claimId(call.workspaceId, claim.key) },
        { fingerprint: claim.fingerprint, call_id: call.id, created_at: claim.now },
        { upsert: true, session },
      );
      await this.calls.insertOne(document, { session });
      return { kind: 'created' };
    });
    return outcome.kind === 'created' ? { kind: 'created', call: { ...call, reports: [] } } : outcome;
  }

  private async claimOutcome(workspaceId: string, claim: IdempotencyClaim, session?: ClientSession): Promise<ClaimOutcome | undefined> {
    const existing = await this.claims.findOne({ _id: claimId(workspaceId, claim.key) }, { session });
    const outcome = claimOutcomeOf(existing && { fingerprint: existing.fingerprint, createdAt: existing.created_at }, claim);
    if (!outcome || outcome.kind === 'key_reused') return outcome;
    const call = await this.calls.findOne({ _id: existing!.call_id, workspace_id: workspaceId }, { session });
    return call ? { kind: 'replayed', call: (await this.withReports([call], session))[0]! } : undefined;
  }

  private async withReports(documents: CallDocument[], session?: ClientSession): Promise<CallView[]> {
    if (documents.length === 0) return [];
    const reports = await this.reports
      .find({ call_id: { $in: documents.map((doc) => doc._id) } }, { session })
      .sort({ at: 1, source: 1, sequence: 1 })
      .toArray();
    return documents.map((doc) => ({
      ...callFromStored(doc._id, doc, mongoValues),
      reports: reports.filter((report) => report.call_id === doc._id).map(reportFromStored),
    }));
  }

  async getCall(workspaceId: string, id: string): Promise<CallView | undefined> {
    const doc = await this.calls.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? (await this.withReports([doc]))[0] : undefined;
  }

  async listCalls(workspaceId: string, filter: CallFilter, page: Page): Promise<{ calls: CallView[]; total: number }> {
    const query: Filter<CallDocument> = { workspace_id: workspaceId };
    if (filter.status !== undefined) query.status = filter.status;
    if (filter.direction !== undefined) query.direction = filter.direction;
    if (filter.assistantId !== undefined) query.assistant_id = filter.assistantId;
    if (filter.number !== undefined) query.$or = [{ from_number: filter.number }, { to_number: filter.number }];
    if (filter.createdFrom !== undefined || filter.createdTo !== undefined) {
      query.created_at = { ...(filter.createdFrom === undefined ? {} : { $gte: filter.createdFrom }), ...(filter.createdTo === undefined ? {} : { $lt: filter.createdTo }) };
    }
    const [total, docs] = await Promise.all([
      this.calls.countDocuments(query),
      this.calls.find(query).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { calls: await this.withReports(docs), total };
  }

  async recordLeg(id: string, legId: string, now: string): Promise<void> {
    await this.calls.updateOne({ _id: id, leg_id: null }, { $set: { leg_id: legId, updated_at: now } });
  }

  async failPlacing(id: string, releaseEvent: NewOutboxEvent, now: string): Promise<CallView | undefined> {
    return inTransaction(this.handle, async (session) => {
      const updated = await this.calls.findOneAndUpdate(
        { _id: id, status: 'queued' },
        { $set: { status: 'failed', end_reason: 'failed', ended_at: now, updated_at: now } },
        { returnDocument: 'after', session },
      );
      if (!updated) return undefined;
      await this.outbox.add(releaseEvent, session);
      return (await this.withReports([updated], session))[0];
    });
  }

  async enqueue(events: NewOutboxEvent[]): Promise<void> {
    await inTransaction(this.handle, async (session) => {
      for (const event of events) await this.outbox.add(event, session);
    });
  }

  async pruneIdempotencyClaims(createdBefore: string, limit: number): Promise<number> {
    return deleteBatch(this.claims, { created_at: { $lt: createdBefore } }, { created_at: 1 }, limit);
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
