// Bounded deletes on MongoDB, which has no DELETE ... LIMIT: the ids of at most `limit` matching
// documents in `sort` order, then those of them that still match.
import type { Collection, Document, Filter, Sort } from 'mongodb';

/** Deletes at most `limit` documents matching `filter`, first in `sort` order; answers how many. */
export async function deleteBatch<T extends Document>(collection: Collection<T>, filter: Filter<T>, sort: Sort, limit: number): Promise<number> {
  const found = await collection.find(filter, { projection: { _id: 1 }, sort, limit }).toArray();
  if (found.length === 0) return 0;
  const ids = found.map((document) => document._id);
  return (await collection.deleteMany({ $and: [filter, { _id: { $in: ids } }] } as Filter<T>)).deletedCount;
}
