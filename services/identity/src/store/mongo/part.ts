// The base of each part of the MongoDB store: its collections, and the transaction and revocation steps several parts run.
import type { ClientSession, Collection, Filter } from 'mongodb';
import type { MongoHandle } from '@voice/runtime/store/mongo';
import type {
  ApiKeyDocument,
  ClientDocument,
  CodeDocument,
  Collections,
  GrantDocument,
  MemberDocument,
  TokenDocument,
  UserDocument,
  WorkspaceDocument,
} from './documents.js';

export abstract class MongoStorePart {
  protected readonly workspaces: Collection<WorkspaceDocument>;
  protected readonly keys: Collection<ApiKeyDocument>;
  protected readonly users: Collection<UserDocument>;
  protected readonly members: Collection<MemberDocument>;
  protected readonly clients: Collection<ClientDocument>;
  protected readonly codes: Collection<CodeDocument>;
  protected readonly grants: Collection<GrantDocument>;
  protected readonly tokens: Collection<TokenDocument>;

  constructor(protected readonly handle: MongoHandle, collections: Collections) {
    this.workspaces = collections.workspaces;
    this.keys = collections.keys;
    this.users = collections.users;
    this.members = collections.members;
    this.clients = collections.clients;
    this.codes = collections.codes;
    this.grants = collections.grants;
    this.tokens = collections.tokens;
  }

  protected async transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = this.handle.client.startSession();
    try {
      return await session.withTransaction(() => work(session));
    } finally {
      await session.endSession();
    }
  }

  protected async activeIds<T extends { _id: string; status: string }>(
    collection: Collection<T>,
    filter: Record<string, string>,
    session: ClientSession,
  ): Promise<string[]> {
    const docs = await collection.find({ ...filter, status: 'active' } as Filter<T>, { session, projection: { _id: 1 } }).toArray();
    return docs.map((d) => d._id as string);
  }

  /** Revokes the matching active and used tokens; the ids of the active ones, which stopped working. */
  protected async revokeTokensWhere(filter: Record<string, string>, session: ClientSession): Promise<string[]> {
    const active = await this.activeIds(this.tokens, filter, session);
    await this.tokens.updateMany({ ...filter, status: { $in: ['active', 'used'] } }, { $set: { status: 'revoked' } }, { session });
    return active;
  }

  /**
   * Revokes the tokens, grants and unused codes of a workspace, or of one user in it, inside the
   * caller's transaction; the ids of the tokens that were still active.
   */
  protected async revokeOAuthCredentialsWhere(
    scope: { workspace_id: string } | { workspace_id: string; user_id: string },
    session: ClientSession,
  ): Promise<string[]> {
    const revoked = await this.revokeTokensWhere(scope, session);
    await this.grants.updateMany({ ...scope, status: 'active' }, { $set: { status: 'revoked' } }, { session });
    await this.codes.updateMany({ ...scope, status: 'issued' }, { $set: { status: 'revoked' } }, { session });
    return revoked;
  }
}
