// Transactional outbox in a collection of the service's own MongoDB database: the event
// document commits or aborts with the business write's transaction.
import { Binary, type ClientSession, type Collection, type Db } from 'mongodb';
import { nowIso } from '../../time.js';
import type { NewOutboxEvent, OutboxEvent, OutboxReader } from '../../events/outbox.js';

interface OutboxDocument {
  _id: string;
  subject: string;
  payload: Binary;
  created_at: string;
  published_at: string | null;
}

export class MongoOutbox implements OutboxReader {
  private readonly collection: Collection<OutboxDocument>;

  constructor(
    db: Db,
    collectionName = 'outbox',
    private readonly clock: () => string = nowIso,
  ) {
    this.collection = db.collection<OutboxDocument>(collectionName);
  }

  /** One index serves the pending scan (published_at null, oldest first) and pruning. */
  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ published_at: 1, created_at: 1, _id: 1 }, { name: 'by_published_at' });
  }

  /** Must run inside the caller's transaction, so the event exists exactly when the write does. */
  async add(event: NewOutboxEvent, session: ClientSession): Promise<void> {
    if (!session.inTransaction()) throw new Error('MongoOutbox.add must run inside the transaction of the business write');
    await this.collection.insertOne(
      { _id: event.id, subject: event.subject, payload: new Binary(event.payload), created_at: this.clock(), published_at: null },
      { session },
    );
  }

  /** Oldest first by creation time; writers on several replicas have no order finer than their clocks. */
  async pending(limit: number): Promise<OutboxEvent[]> {
    const documents = await this.collection
      .find({ published_at: null })
      .sort({ published_at: 1, created_at: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return documents.map((document) => ({
      id: document._id,
      subject: document.subject,
      payload: document.payload.value(),
      createdAt: document.created_at,
    }));
  }

  async markPublished(ids: string[], at: string): Promise<void> {
    if (ids.length === 0) return;
    await this.collection.updateMany({ _id: { $in: ids }, published_at: null }, { $set: { published_at: at } });
  }

  /** Deletes events published before the given time; returns how many. */
  async prune(publishedBefore: string): Promise<number> {
    const result = await this.collection.deleteMany({ published_at: { $ne: null, $lt: publishedBefore } });
    return result.deletedCount;
  }
}
