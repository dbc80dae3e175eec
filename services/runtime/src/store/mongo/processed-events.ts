// Idempotent consumption on MongoDB: the ids of events a consumer has applied, one document
// each (the event id is the unique _id), written in the same transaction as the effect.
//
// The pattern, in the consumer's handler:
//
//   await session.withTransaction(async () => {
//     if (await processed.seen(event.id, session)) return;
//     await applyEffect(event, session);
//     await processed.record(event.id, nowIso(), session);
//   });
//   // returning from the handler acks the event
//
// Two deliveries racing through this both miss `seen`, and the unique _id lets only one commit:
// the other's transaction aborts with its effect (a write conflict, which withTransaction
// retries and which then finds the id, or a duplicate key, which fails the handler so the
// event comes again and is found then).
import type { ClientSession, Collection, Db } from 'mongodb';

interface ProcessedDocument {
  _id: string;
  processed_at: string;
}

export class MongoProcessedEvents {
  private readonly collection: Collection<ProcessedDocument>;

  constructor(db: Db, collectionName = 'processed_events') {
    this.collection = db.collection<ProcessedDocument>(collectionName);
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ processed_at: 1 }, { name: 'by_processed_at' });
  }

  async seen(id: string, session: ClientSession): Promise<boolean> {
    return (await this.collection.findOne({ _id: id }, { session, projection: { _id: 1 } })) !== null;
  }

  /** Must run inside the transaction that applies the event's effect. */
  async record(id: string, at: string, session: ClientSession): Promise<void> {
    if (!session.inTransaction()) throw new Error('MongoProcessedEvents.record must run inside the transaction of the effect');
    await this.collection.insertOne({ _id: id, processed_at: at }, { session });
  }

  /**
   * Forgets ids processed before the given time; returns how many. Keep them longer than the
   * stream keeps events, or a replayed event would be applied again.
   */
  async prune(processedBefore: string): Promise<number> {
    return (await this.collection.deleteMany({ processed_at: { $lt: processedBefore } })).deletedCount;
  }
}
