// What every part of the MongoDB store works on (the connection and the collections), and the
// revocation steps several parts run.
import type { ClientSession, Collection, Filter } from 'mongodb';
import type { MongoHandle } from '@voice/runtime/store/mongo';
import type { Collections } from './documents.js';

export interface MongoContext {
  handle: MongoHandle;
  collections: Collections;
}

export async function activeIds<T extends { _id: string; status: string }>(
  collection: Collection<T>,
  filter: Record<string, string>,
  session: ClientSession,
): Promise<string[]> {
  const docs = await collection.find({ ...filter, status: 'active' } as Filter<T>, { session, projection: { _id: 1 } }).toArray();
  return docs.map((d) => d._id as string);
}

/** Revokes the matching active and used tokens; the ids of the active ones, which stopped working. */
export async function revokeTokensWhere(collections: Collections, filter: Record<string, string>, session: ClientSession): Promise<string[]> {
  const active = await activeIds(collections.tokens, filter, session);
  await collections.tokens.updateMany({ ...filter, status: { $in: ['active', 'used'] } }, { $set: { status: 'revoked' } }, { session });
  return active;
}

/**
 * Revokes the tokens, grants and unused codes of a workspace, or of one user in it, inside the
 * caller's transaction; the ids of the tokens that were still active.
 */
export async function revokeOAuthCredentialsWhere(
  collections: Collections,
  scope: { workspace_id: string } | { workspace_id: string; user_id: string },
  session: ClientSession,
): Promise<string[]> {
  const revoked = await revokeTokensWhere(collections, scope, session);
  await collections.grants.updateMany({ ...scope, status: 'active' }, { $set: { status: 'revoked' } }, { session });
  await collections.codes.updateMany({ ...scope, status: 'issued' }, { $set: { status: 'revoked' } }, { session });
  return revoked;
}
