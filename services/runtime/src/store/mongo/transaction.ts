// One MongoDB transaction around a piece of work (transactions need a replica set, as production runs).
import type { ClientSession } from 'mongodb';
import type { MongoHandle } from './client.js';

/** Runs `work` in a transaction, again on transient errors (write conflicts included), and ends the session. */
export async function inTransaction<T>(handle: MongoHandle, work: (session: ClientSession) => Promise<T>): Promise<T> {
  const session = handle.client.startSession();
  try {
    return await session.withTransaction(() => work(session));
  } finally {
    await session.endSession();
  }
}
