// CallStore on MongoDB: the service's own database, one document per call, its reports in their own
// collection (unique per call, source and sequence), and transactions where a call, its claim and its
// outbox events must agree (MongoDB transactions need a replica set, as production runs).
import { GridFSBucket, type ClientSession, type Collection, type Filter } from 'mongodb';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { NewOutboxEvent } from '@voice/runtime/events';
import { connectMongo, deleteBatch, inTransaction, MongoOutbox, type MongoHandle } from '@voice/runtime/store/mongo';
import { mongoValues } from '@voice/runtime/store';
import { claimBinding, type IdempotencyClaim } from '@voice/runtime/idempotency';
import type { Page } from '@voice/runtime/validation';
import { campaignTotalsOf, type CampaignStatusRow } from './mapping/campaign-totals.js';
import { callFromStored, reportFromStored, storedCall, storedChanges, storedReport, type StoredCall, type StoredReport } from './mapping/call.js';
import { boundedChunks } from './bounded-chunks.js';
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
  /** Recordings in GridFS of the service's own database (bucket `recordings`), one file per call id. */
  private readonly recordings: GridFSBucket;

  private constructor(
    private readonly handle: MongoHandle,
    private readonly calls: Collection<CallDocument>,
    private readonly reports: Collection<ReportDocument>,
    private readonly claims: Collection<ClaimDocument>,
  ) {
    this.outbox = new MongoOutbox(handle.db);
    this.recordings = new GridFSBucket(handle.db, { bucketName: 'recordings' });
  }

  static async connect(uri: string, databaseName: string): Promise<MongoCallStore> {
    const handle = await connectMongo(uri, databaseName);
    const calls = handle.db.collection<CallDocument>('calls');
    const reports = handle.db.collection<ReportDocument>('call_reports');
    const claims = handle.db.collection<ClaimDocument>('idempotency_claims');
    await calls.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
    await reports.createIndex({ call_id: 1, at: 1, source: 1, sequence: 1 }, { name: 'reports_in_order' });
    await reports.createIndex({ call_id: 1, source: 1, sequence: 1 }, { unique: true, name: 'one_report_per_sequence' });
    await calls.createIndex({ usage_event_id: 1 }, { name: 'calls_by_usage_event', partialFilterExpression: { usage_event_id: { $type: 'string' } } });
    await calls.createIndex(
      { workspace_id: 1, campaign_id: 1 },
      { name: 'calls_by_campaign', partialFilterExpression: { campaign_id: { $type: 'string' } } },
    );
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
    const binding = claimBinding(existing && { fingerprint: existing.fingerprint, createdAt: existing.created_at }, claim);
    if (binding !== 'replay') return binding && { kind: binding };
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

  async summarizeCampaignCalls(workspaceId: string, campaignId: string): Promise<CampaignCallTotals> {
    const rows = await this.calls
      .aggregate<CampaignStatusRow>([
        { $match: { workspace_id: workspaceId, campaign_id: campaignId } },
        {
          $group: {
            _id: { status: '$status', end_reason: '$end_reason' },
            calls: { $sum: 1 },
            connected: { $sum: { $cond: [{ $eq: [{ $type: '$answered_at' }, 'string'] }, 1, 0] } },
            billed_minute_units: { $sum: { $ifNull: ['$billed_minute_units', 0] } },
            minute_units_charged: { $sum: '$minute_units_charged' },
            credit_units_charged: { $sum: '$credit_units_charged' },
          },
        },
        { $project: { _id: 0, status: '$_id.status', end_reason: { $ifNull: ['$_id.end_reason', null] }, calls: 1, connected: 1, billed_minute_units: 1, minute_units_charged: 1, credit_units_charged: 1 } },
      ])
      .toArray();
    return campaignTotalsOf(rows);
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

  async getCallById(id: string): Promise<CallView | undefined> {
    const doc = await this.calls.findOne({ _id: id });
    return doc ? (await this.withReports([doc]))[0] : undefined;
  }

  async findCallByUsageEvent(usageEventId: string): Promise<CallView | undefined> {
    const doc = await this.calls.findOne({ usage_event_id: usageEventId });
    return doc ? (await this.withReports([doc]))[0] : undefined;
  }

  async updateCall(id: string, expectedVersion: number, changes: CallChanges, reports: CallReport[], events: NewOutboxEvent[], now: string): Promise<CallView | undefined> {
    return inTransaction(this.handle, async (session) => {
      const updated = await this.calls.findOneAndUpdate(
        { _id: id, version: expectedVersion },
        { $set: { ...storedChanges(changes, mongoValues), updated_at: now }, $inc: { version: 1 } },
        { returnDocument: 'after', session },
      );
      if (!updated) return undefined;
      await this.insertReports(id, reports, session);
      for (const event of events) await this.outbox.add(event, session);
      return (await this.withReports([updated], session))[0];
    });
  }

  async addReports(callId: string, reports: CallReport[]): Promise<void> {
    await this.insertReports(callId, reports);
  }

  /** Each report once: its _id is the call, source and sequence, and an existing one is left as it is. */
  private async insertReports(callId: string, reports: CallReport[], session?: ClientSession): Promise<void> {
    for (const report of reports) {
      const stored = storedReport(callId, report);
      await this.reports.updateOne({ _id: `${callId}:${stored.source}:${stored.sequence}` }, { $setOnInsert: stored }, { upsert: true, session });
    }
  }

  async saveRecording(callId: string, contentType: string, chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number> {
    const counted = { bytes: 0 };
    const upload = this.recordings.openUploadStream(callId, { metadata: { contentType } });
    try {
      await pipeline(Readable.from(boundedChunks(chunks, maxBytes, counted)), upload);
    } catch (error) {
      await this.recordings.delete(upload.id).catch(() => undefined);
      throw error;
    }
    // The newest file is the recording; older ones of the same call go.
    for await (const older of this.recordings.find({ filename: callId, _id: { $ne: upload.id } })) await this.recordings.delete(older._id);
    return counted.bytes;
  }

  /** The newest GridFS file of the call: its recording. */
  private async recordingFile(callId: string) {
    const [file] = await this.recordings.find({ filename: callId }).sort({ uploadDate: -1 }).limit(1).toArray();
    return file && { id: file._id, sizeBytes: file.length, contentType: String((file.metadata as { contentType?: unknown } | undefined)?.contentType ?? 'audio/wav') };
  }

  async describeRecording(callId: string): Promise<RecordingInfo | undefined> {
    const file = await this.recordingFile(callId);
    return file && { sizeBytes: file.sizeBytes, contentType: file.contentType };
  }

  async openRecording(callId: string, range?: { start: number; end: number }): Promise<RecordingRead | undefined> {
    const file = await this.recordingFile(callId);
    if (!file) return undefined;
    const body = this.recordings.openDownloadStream(file.id, range ? { start: range.start, end: range.end + 1 } : undefined);
    return { sizeBytes: file.sizeBytes, contentType: file.contentType, body };
  }

  async deleteRecording(callId: string): Promise<boolean> {
    let found = false;
    for await (const file of this.recordings.find({ filename: callId })) {
      await this.recordings.delete(file._id);
      found = true;
    }
    return found;
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
