// WebhooksStore on MongoDB: the service's own database with endpoints, events, deliveries (unique
// per event and endpoint) and settings; multi-document changes in one transaction (a replica set,
// as production runs).
import type { ClientSession, Collection, Filter } from 'mongodb';
import { connectMongo, inTransaction, isDuplicateKey, type MongoHandle } from '@voice/runtime/store/mongo';
import { mongoValues } from '@voice/runtime/store';
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

type EndpointDocument = StoredEndpoint<boolean, string[]> & { _id: string };
type DeliveryDocument = StoredDelivery & { _id: string };
interface EventDocument {
  _id: string;
  workspace_id: string;
  type: string;
  body: string;
  created_at: string;
}
type NoticeDocument = StoredNotice & { _id: string };
interface SettingsDocument {
  _id: string;
  balance_low_threshold_units: number | null;
  balance_low: boolean;
}

const endpointOf = (doc: EndpointDocument): EndpointRecord => endpointFromStored(doc._id, doc, mongoValues);
const deliveryOf = (doc: DeliveryDocument): DeliveryRecord => deliveryFromStored(doc._id, doc);
const endpointDocument = (endpoint: EndpointRecord): EndpointDocument => ({ _id: endpoint.id, ...storedEndpoint(endpoint, mongoValues) });

export class MongoWebhooksStore implements WebhooksStore {
  private constructor(
    private readonly handle: MongoHandle,
    private readonly endpoints: Collection<EndpointDocument>,
    private readonly events: Collection<EventDocument>,
    private readonly deliveries: Collection<DeliveryDocument>,
    private readonly settings: Collection<SettingsDocument>,
    private readonly notices: Collection<NoticeDocument>,
  ) {}

  static async connect(uri: string, databaseName: string): Promise<MongoWebhooksStore> {
    const handle = await connectMongo(uri, databaseName);
    const endpoints = handle.db.collection<EndpointDocument>('endpoints');
    const events = handle.db.collection<EventDocument>('events');
    const deliveries = handle.db.collection<DeliveryDocument>('deliveries');
    const settings = handle.db.collection<SettingsDocument>('settings');
    const notices = handle.db.collection<NoticeDocument>('owner_notices');
    await notices.createIndex({ sent_at: 1, created_at: 1 }, { name: 'pending' });
    await endpoints.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
    await events.createIndex({ created_at: 1 }, { name: 'by_time' });
    await deliveries.createIndex({ event_id: 1, endpoint_id: 1 }, { unique: true, name: 'one_per_event_and_endpoint' });
    await deliveries.createIndex({ status: 1, next_attempt_at: 1 }, { name: 'due' });
    await deliveries.createIndex({ endpoint_id: 1, created_at: -1, _id: -1 }, { name: 'by_endpoint' });
    return new MongoWebhooksStore(handle, endpoints, events, deliveries, settings, notices);
  }

  async createEndpoint(endpoint: EndpointRecord): Promise<void> {
    await this.endpoints.insertOne(endpointDocument(endpoint));
  }

  async getEndpoint(workspaceId: string, id: string): Promise<EndpointRecord | undefined> {
    const doc = await this.endpoints.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? endpointOf(doc) : undefined;
  }

  async listEndpoints(workspaceId: string, page: Page): Promise<{ endpoints: EndpointRecord[]; total: number }> {
    const [total, docs] = await Promise.all([
      this.endpoints.countDocuments({ workspace_id: workspaceId }),
      this.endpoints.find({ workspace_id: workspaceId }).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { endpoints: docs.map(endpointOf), total };
  }

  async updateEndpoint(workspaceId: string, id: string, changes: EndpointChanges, now: string): Promise<EndpointRecord | undefined> {
    return inTransaction(this.handle, async (session) => {
      const doc = await this.endpoints.findOne({ _id: id, workspace_id: workspaceId }, { session });
      if (!doc) return undefined;
      const next = endpointWithChanges(endpointOf(doc), changes, now);
      await this.endpoints.replaceOne({ _id: id }, endpointDocument(next), { session });
      if (!next.enabled) await this.failPending(id, session);
      return next;
    });
  }

  async deleteEndpoint(workspaceId: string, id: string): Promise<boolean> {
    return inTransaction(this.handle, async (session) => {
      const deleted = (await this.endpoints.deleteOne({ _id: id, workspace_id: workspaceId }, { session })).deletedCount === 1;
      if (deleted) await this.deliveries.deleteMany({ endpoint_id: id }, { session });
      return deleted;
    });
  }

  async subscribedEndpoints(workspaceId: string, eventType: string): Promise<EndpointRecord[]> {
    const docs = await this.endpoints.find({ workspace_id: workspaceId, enabled: true, event_types: eventType }).sort({ created_at: 1 }).toArray();
    return docs.map(endpointOf);
  }

  async addEvent(event: EventRecord, deliveries: DeliveryRecord[]): Promise<boolean> {
    try {
      return await inTransaction(this.handle, (session) => this.insertEvent(event, deliveries, session));
    } catch (error) {
      // A copy of the event committed first.
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  private async insertEvent(event: EventRecord, deliveries: DeliveryRecord[], session: ClientSession): Promise<boolean> {
    if (await this.events.findOne({ _id: event.id }, { session, projection: { _id: 1 } })) return false;
    await this.events.insertOne({ _id: event.id, workspace_id: event.workspaceId, type: event.type, body: event.body, created_at: event.createdAt }, { session });
    if (deliveries.length > 0) await this.deliveries.insertMany(deliveries.map((delivery) => ({ _id: delivery.id, ...storedDelivery(delivery) })), { session });
    return true;
  }

  async getDelivery(workspaceId: string, endpointId: string, id: string): Promise<DeliveryRecord | undefined> {
    const doc = await this.deliveries.findOne({ _id: id, endpoint_id: endpointId, workspace_id: workspaceId });
    return doc ? deliveryOf(doc) : undefined;
  }

  async listDeliveries(workspaceId: string, endpointId: string, filter: { status?: DeliveryStatus }, page: Page): Promise<{ deliveries: DeliveryRecord[]; total: number }> {
    const query: Filter<DeliveryDocument> = { workspace_id: workspaceId, endpoint_id: endpointId };
    if (filter.status) query.status = filter.status;
    const [total, docs] = await Promise.all([
      this.deliveries.countDocuments(query),
      this.deliveries.find(query).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { deliveries: docs.map(deliveryOf), total };
  }

  async claimDue(now: string, heldUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    const due = await this.deliveries.find({ status: 'pending', next_attempt_at: { $lte: now } }).sort({ next_attempt_at: 1 }).limit(limit).toArray();
    if (due.length === 0) return [];
    // Their endpoints and events in one read each, not one per delivery: this runs several times a second.
    const [endpoints, events] = await Promise.all([
      this.endpoints.find({ _id: { $in: [...new Set(due.map((doc) => doc.endpoint_id))] } }).toArray(),
      this.events.find({ _id: { $in: [...new Set(due.map((doc) => doc.event_id))] } }, { projection: { body: 1 } }).toArray(),
    ]);
    const endpointOfId = new Map(endpoints.map((doc) => [doc._id, doc]));
    const bodyOfId = new Map(events.map((doc) => [doc._id, doc.body]));
    const claimed: ClaimedDelivery[] = [];
    for (const doc of due) {
      const endpoint = endpointOfId.get(doc.endpoint_id);
      if (!endpoint || !endpoint.enabled) {
        await this.deliveries.updateOne({ _id: doc._id, status: 'pending' }, { $set: { status: 'failed', next_attempt_at: null } });
        continue;
      }
      // Compare-and-set on the due time: another replica's claim of the same delivery moved it.
      const taken = await this.deliveries.findOneAndUpdate(
        { _id: doc._id, status: 'pending', next_attempt_at: doc.next_attempt_at },
        { $set: { next_attempt_at: heldUntil } },
        { returnDocument: 'after' },
      );
      const body = bodyOfId.get(doc.event_id);
      if (!taken || body === undefined) continue;
      claimed.push({ delivery: deliveryOf(taken), body, endpoint: endpointOf(endpoint) });
    }
    return claimed;
  }

  async recordAttempt(delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<DeliveryRecord> {
    return inTransaction(this.handle, async (session) => {
      const current = await this.deliveries.findOne({ _id: delivery.id }, { session });
      const next = afterAttempt(current ? deliveryOf(current) : delivery, attempt, outcome);
      if (current) {
        await this.deliveries.updateOne(
          { _id: delivery.id },
          { $set: { status: next.status, attempts: JSON.stringify(next.attempts), next_attempt_at: next.nextAttemptAt, delivered_at: next.deliveredAt } },
          { session },
        );
      }
      if (outcome.kind === 'delivered') await this.endpoints.updateOne({ _id: delivery.endpointId }, { $set: { failing_since: null } }, { session });
      else await this.endpoints.updateOne({ _id: delivery.endpointId, failing_since: null }, { $set: { failing_since: attempt.at } }, { session });
      return next;
    });
  }

  async retryDelivery(workspaceId: string, endpointId: string, id: string, now: string): Promise<DeliveryRecord | undefined> {
    const doc = await this.deliveries.findOneAndUpdate(
      { _id: id, endpoint_id: endpointId, workspace_id: workspaceId },
      [{ $set: { status: 'pending', next_attempt_at: now, give_up_at: { $max: ['$give_up_at', now] } } }],
      { returnDocument: 'after' },
    );
    return doc ? deliveryOf(doc) : undefined;
  }

  async disableEndpoint(id: string, reason: string, notice: OwnerNotice): Promise<EndpointRecord | undefined> {
    return inTransaction(this.handle, async (session) => {
      const doc = await this.endpoints.findOneAndUpdate(
        { _id: id, enabled: true },
        { $set: { enabled: false, disabled_reason: reason, updated_at: notice.createdAt } },
        { returnDocument: 'after', session },
      );
      if (!doc) return undefined;
      await this.failPending(id, session);
      await this.notices.insertOne({ _id: notice.id, ...storedNotice(notice) }, { session });
      return endpointOf(doc);
    });
  }

  async pendingNotices(limit: number): Promise<OwnerNotice[]> {
    const docs = await this.notices.find({ sent_at: null }).sort({ created_at: 1 }).limit(limit).toArray();
    return docs.map((doc) => noticeFromStored(doc._id, doc));
  }

  async markNoticeSent(id: string, at: string): Promise<void> {
    await this.notices.updateOne({ _id: id }, { $set: { sent_at: at } });
  }

  private async failPending(endpointId: string, session: ClientSession): Promise<void> {
    await this.deliveries.updateMany({ endpoint_id: endpointId, status: 'pending' }, { $set: { status: 'failed', next_attempt_at: null } }, { session });
  }

  async pruneEvents(before: string, limit: number): Promise<number> {
    const old = await this.events.find({ created_at: { $lt: before } }).sort({ created_at: 1 }).limit(limit).toArray();
    let pruned = 0;
    for (const event of old) {
      const done = await inTransaction(this.handle, async (session) => {
        if (await this.deliveries.findOne({ event_id: event._id, status: 'pending' }, { session, projection: { _id: 1 } })) return false;
        await this.deliveries.deleteMany({ event_id: event._id }, { session });
        await this.events.deleteOne({ _id: event._id }, { session });
        return true;
      });
      if (done) pruned += 1;
    }
    return pruned;
  }

  async getSettings(workspaceId: string): Promise<WebhookSettingsRecord | undefined> {
    const doc = await this.settings.findOne({ _id: workspaceId });
    return doc ? { workspaceId, balanceLowThresholdUnits: doc.balance_low_threshold_units, balanceLow: doc.balance_low } : undefined;
  }

  async setBalanceLowThreshold(workspaceId: string, units: number | null): Promise<WebhookSettingsRecord> {
    await this.settings.updateOne({ _id: workspaceId }, { $set: { balance_low_threshold_units: units, balance_low: false } }, { upsert: true });
    return { workspaceId, balanceLowThresholdUnits: units, balanceLow: false };
  }

  async markBalanceLow(workspaceId: string, planned?: { event: EventRecord; deliveries: DeliveryRecord[] }): Promise<boolean> {
    return inTransaction(this.handle, async (session) => {
      const marked = await this.settings.updateOne({ _id: workspaceId, balance_low: false }, { $set: { balance_low: true } }, { session });
      if (marked.modifiedCount === 0) return false;
      return planned ? this.insertEvent(planned.event, planned.deliveries, session) : true;
    });
  }

  async clearBalanceLow(workspaceId: string): Promise<void> {
    await this.settings.updateOne({ _id: workspaceId }, { $set: { balance_low: false } });
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
