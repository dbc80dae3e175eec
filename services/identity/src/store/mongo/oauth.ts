// The OAuth 2.0 server's clients, codes, grants and tokens in MongoDB.
import type { ClientSession } from 'mongodb';
import { deleteBatch, inTransaction, isDuplicateKey } from '@voice/runtime/store/mongo';
import type { AuthorizationCodeRecord, GrantRecord, OAuthClientRecord, OAuthStore, RedeemOutcome, RotateOutcome, TokenRecord } from '../store.js';
import { clientDocument, clientRecord, codeDocument, codeRecord, grantDocument, grantRecord, tokenDocument, tokenRecord } from './documents.js';
import { revokeTokensWhere, revokeOAuthCredentialsWhere, type MongoContext } from './context.js';

export function mongoOAuthStore({ handle, collections }: MongoContext): OAuthStore {
  async function createClient(client: OAuthClientRecord): Promise<void> {
    await collections.clients.insertOne(clientDocument(client));
  }

  async function ensureClient(client: OAuthClientRecord): Promise<'created' | 'exists'> {
    const { _id, ...fields } = clientDocument(client);
    try {
      const result = await collections.clients.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true });
      return result.upsertedCount === 1 ? 'created' : 'exists';
    } catch (error) {
      // Two concurrent upserts of one _id: the loser's insert hits the _id index.
      if (isDuplicateKey(error)) return 'exists';
      throw error;
    }
  }

  async function getClient(id: string): Promise<OAuthClientRecord | undefined> {
    const doc = await collections.clients.findOne({ _id: id });
    return doc ? clientRecord(doc) : undefined;
  }

  async function createAuthorizationCode(code: AuthorizationCodeRecord): Promise<void> {
    await collections.codes.insertOne(codeDocument(code));
  }

  async function findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    const doc = await collections.codes.findOne({ code_hash: codeHash });
    return doc ? codeRecord(doc) : undefined;
  }

  async function redeemAuthorizationCode(codeId: string, grant: GrantRecord, tokens: TokenRecord[]): Promise<RedeemOutcome> {
    return inTransaction(handle, async (session): Promise<RedeemOutcome> => {
      const claimed = await collections.codes.updateOne({ _id: codeId, status: 'issued' }, { $set: { status: 'used', grant_id: grant.id } }, { session });
      if (claimed.modifiedCount === 1) {
        await collections.grants.insertOne(grantDocument(grant), { session });
        if (tokens.length > 0) await collections.tokens.insertMany(tokens.map(tokenDocument), { session });
        return { kind: 'redeemed' };
      }
      const code = await collections.codes.findOne({ _id: codeId }, { session });
      if (code?.status !== 'used') return { kind: 'unavailable' };
      return { kind: 'reused', revokedCredentialIds: code.grant_id ? await revokeGrantIn(code.grant_id, session) : [] };
    });
  }

  async function issueGrant(grant: GrantRecord, tokens: TokenRecord[]): Promise<void> {
    await inTransaction(handle, async (session) => {
      await collections.grants.insertOne(grantDocument(grant), { session });
      if (tokens.length > 0) await collections.tokens.insertMany(tokens.map(tokenDocument), { session });
    });
  }

  async function findToken(tokenHash: string): Promise<TokenRecord | undefined> {
    const doc = await collections.tokens.findOne({ token_hash: tokenHash });
    return doc ? tokenRecord(doc) : undefined;
  }

  async function getGrant(id: string): Promise<GrantRecord | undefined> {
    const doc = await collections.grants.findOne({ _id: id });
    return doc ? grantRecord(doc) : undefined;
  }

  async function rotateRefreshToken(tokenId: string, tokens: TokenRecord[]): Promise<RotateOutcome> {
    return inTransaction(handle, async (session): Promise<RotateOutcome> => {
      const current = await collections.tokens.findOne({ _id: tokenId, kind: 'refresh' }, { session });
      if (!current) return { kind: 'unavailable' };
      if (current.status === 'used') return { kind: 'reused', revokedCredentialIds: await revokeGrantIn(current.grant_id, session) };
      const grant = await collections.grants.findOne({ _id: current.grant_id, status: 'active' }, { session });
      if (current.status !== 'active' || !grant) return { kind: 'unavailable' };
      // Two rotations of one token both write this document: the later one conflicts, is retried and then sees 'used'.
      const claimed = await collections.tokens.updateOne({ _id: tokenId, status: 'active' }, { $set: { status: 'used' } }, { session });
      if (claimed.modifiedCount !== 1) return { kind: 'unavailable' };
      if (tokens.length > 0) await collections.tokens.insertMany(tokens.map(tokenDocument), { session });
      return { kind: 'rotated' };
    });
  }

  async function revokeToken(tokenId: string): Promise<string[]> {
    const result = await collections.tokens.updateOne({ _id: tokenId, status: 'active' }, { $set: { status: 'revoked' } });
    return result.modifiedCount === 1 ? [tokenId] : [];
  }

  async function revokeGrant(grantId: string): Promise<string[]> {
    return inTransaction(handle, (session) => revokeGrantIn(grantId, session));
  }

  async function revokeUserCredentials(workspaceId: string, userId: string): Promise<string[]> {
    return inTransaction(handle, (session) => revokeOAuthCredentialsWhere(collections, { workspace_id: workspaceId, user_id: userId }, session));
  }

  async function pruneAuthorizationCodes(expiredBefore: string, limit: number): Promise<number> {
    return deleteBatch(collections.codes, { expires_at: { $lt: expiredBefore } }, { expires_at: 1 }, limit);
  }

  async function pruneTokens(expiredBefore: string, limit: number): Promise<number> {
    return deleteBatch(collections.tokens, { expires_at: { $lt: expiredBefore } }, { expires_at: 1 }, limit);
  }

  async function pruneGrants(createdBefore: string, limit: number): Promise<number> {
    const tokenless = await collections.grants
      .aggregate<{ _id: string }>([
        { $match: { created_at: { $lt: createdBefore } } },
        { $sort: { created_at: 1 } },
        { $lookup: { from: collections.tokens.collectionName, localField: '_id', foreignField: 'grant_id', as: 'tokens' } },
        { $match: { tokens: { $size: 0 } } },
        { $limit: limit },
        { $project: { _id: 1 } },
      ])
      .toArray();
    if (tokenless.length === 0) return 0;
    // A grant without tokens gets none any more: only a live refresh token of its own could add one.
    return (await collections.grants.deleteMany({ _id: { $in: tokenless.map((grant) => grant._id) } })).deletedCount;
  }

  async function revokeGrantIn(grantId: string, session: ClientSession): Promise<string[]> {
    await collections.grants.updateOne({ _id: grantId }, { $set: { status: 'revoked' } }, { session });
    return revokeTokensWhere(collections, { grant_id: grantId }, session);
  }

  return { createClient, ensureClient, getClient, createAuthorizationCode, findAuthorizationCode, redeemAuthorizationCode, issueGrant, findToken, getGrant, rotateRefreshToken, revokeToken, revokeGrant, revokeUserCredentials, pruneAuthorizationCodes, pruneTokens, pruneGrants };
}
