// The base of each part of the MongoDB store: its collections, its transactions (they need a
// replica set, as production runs), and what every part writes or reads the same way.
import type { ClientSession, Collection, Filter } from 'mongodb';
import type { MongoHandle } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import type { Collections } from './documents.js';

export abstract class MongoStorePart {
  constructor(
    protected readonly handle: MongoHandle,
    protected readonly collections: Collections,
  ) {}

  /** Runs `work` in a transaction, again on transient errors (write conflicts included). */
  protected async transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = this.handle.client.startSession();
    try {
      return await session.withTransaction(() => work(session));
    } finally {
      await session.endSession();
    }
  }
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

