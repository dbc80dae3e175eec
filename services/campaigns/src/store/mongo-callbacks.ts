// The callbacks part of the campaigns store on MongoDB: its own collection in the service's database,
// its transitions single conditional findOneAndUpdates.
import type { Collection, Db, Filter } from 'mongodb';
import type { Page } from '@voice/runtime/validation';
import type { CallbackChange, CallbackCondition, CallbackFilter, CallbackPart, CallbackRecord } from './callback-store.js';
import { callbackFromStored, storedCallback, type StoredCallback } from './mapping/callback.js';
import { mongoJson } from './mapping/json.js';

type CallbackDocument = StoredCallback<object> & { _id: string };

const callbackOf = (doc: CallbackDocument): CallbackRecord => callbackFromStored(doc._id, doc, mongoJson);

export class MongoCallbacks implements CallbackPart {
  private constructor(private readonly callbacks: Collection<CallbackDocument>) {}

  static async open(db: Db): Promise<MongoCallbacks> {
    const callbacks = db.collection<CallbackDocument>('callbacks');
    await callbacks.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
    await callbacks.createIndex({ status: 1, at: 1, _id: 1 }, { name: 'due' });
    await callbacks.createIndex({ lead_id: 1, status: 1 }, { name: 'by_lead' });
    return new MongoCallbacks(callbacks);
  }

  async insertCallback(callback: CallbackRecord): Promise<void> {
    await this.callbacks.insertOne({ _id: callback.id, ...storedCallback(callback, mongoJson) });
  }

  async getCallback(workspaceId: string, id: string): Promise<CallbackRecord | undefined> {
    const doc = await this.callbacks.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? callbackOf(doc) : undefined;
  }

  async listCallbacks(workspaceId: string, filter: CallbackFilter, page: Page): Promise<{ callbacks: CallbackRecord[]; total: number }> {
    const query: Filter<CallbackDocument> = {
      workspace_id: workspaceId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.campaignId ? { campaign_id: filter.campaignId } : {}),
      ...(filter.leadId ? { lead_id: filter.leadId } : {}),
    };
    const [total, docs] = await Promise.all([
      this.callbacks.countDocuments(query),
      this.callbacks.find(query).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { callbacks: docs.map(callbackOf), total };
  }

  async transitionCallback(workspaceId: string, id: string, when: CallbackCondition, change: CallbackChange, now: string): Promise<CallbackRecord | undefined> {
    const query: Filter<CallbackDocument> = {
      _id: id,
      workspace_id: workspaceId,
      status: { $in: [...when.statuses] },
      ...(when.attempts === undefined ? {} : { attempts: when.attempts }),
    };
    const set: Partial<CallbackDocument> = { status: change.status, updated_at: now };
    if (change.attempts !== undefined) set.attempts = change.attempts;
    if (change.failureReason !== undefined) set.failure_reason = change.failureReason;
    if (change.callId !== undefined) set.call_id = change.callId;
    const doc = await this.callbacks.findOneAndUpdate(query, { $set: set }, { returnDocument: 'after' });
    return doc ? callbackOf(doc) : undefined;
  }

  async listDueCallbacks(dueBy: string, page: Page): Promise<CallbackRecord[]> {
    const docs = await this.callbacks
      .find({ $or: [{ status: 'scheduled', at: { $lte: dueBy } }, { status: 'dialing', call_id: null }] })
      .sort({ at: 1, _id: 1 })
      .skip(page.offset)
      .limit(page.limit)
      .toArray();
    return docs.map(callbackOf);
  }
}
