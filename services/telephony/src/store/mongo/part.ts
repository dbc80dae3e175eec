// What every part of the MongoDB store works on (the connection, its collections, the outbox), and
// the page query every part reads the same way.
import type { Collection, Filter } from 'mongodb';
import type { MongoHandle, MongoOutbox } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import type { Collections } from './documents.js';

export interface MongoContext {
  handle: MongoHandle;
  collections: Collections;
  outbox: MongoOutbox;
}

/** How many documents match, and one page of them newest first. */
export async function findPage<T extends { _id: string }>(
  collection: Collection<T>,
  filter: Filter<T>,
  page: Page,
): Promise<{ docs: T[]; total: number }> {
  const [total, docs] = await Promise.all([
    collection.countDocuments(filter),
    collection.find(filter).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
  ]);
  return { docs: docs as T[], total };
}
