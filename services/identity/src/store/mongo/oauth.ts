// The OAuth 2.0 server's clients, codes, grants and tokens in MongoDB.
import type { ClientSession } from 'mongodb';
import { isDuplicateKey } from '@voice/runtime/store/mongo';
import type { AuthorizationCodeRecord, GrantRecord, OAuthClientRecord, OAuthStore, RedeemOutcome, RotateOutcome, TokenRecord } from '../store.js';
import { clientDocument, clientRecord, codeDocument, codeRecord, grantDocument, grantRecord, tokenDocument, tokenRecord } from './documents.js';
import { MongoStorePart } from './part.js';

export class MongoOAuthStore extends MongoStorePart implements OAuthStore {
  async createClient(client: OAuthClientRecord): Promise<void> {
    await this.clients.insertOne(clientDocument(client));
  }

  async ensureClient(client: OAuthClientRecord): Promise<'created' | 'exists'> {
    const { _id, ...fields } = clientDocument(client);
    try {
      const result = await this.clients.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true });
      return result.upsertedCount === 1 ? 'created' : 'exists';
    } catch (error) {
      // Two concurrent upserts of one _id: the loser's insert hits the _id index.
      if (isDuplicateKey(error)) return 'exists';
      throw error;
    }
  }

  async getClient(id: string): Promise<OAuthClientRecord | undefined> {
    const doc = await this.clients.findOne({ _id: id });
    return doc ? clientRecord(doc) : undefined;
  }

  async createAuthorizationCode(code: AuthorizationCodeRecord): Promise<void> {
    await this.codes.insertOne(codeDocument(code));
  }

  async findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    const doc = await this.codes.findOne({ code_hash: codeHash });
    return doc ? codeRecord(doc) : undefined;
  }

  async redeemAuthorizationCode(codeId: string, grant: GrantRecord, tokens: TokenRecord[]): Promise<RedeemOutcome> {
    return this.transaction(async (session): Promise<RedeemOutcome> => {
      const claimed = await this.codes.updateOne({ _id: codeId, status: 'issued' }, { $set: { status: 'used', grant_id: grant.id } }, { session });
      if (claimed.modifiedCount === 1) {
        await this.grants.insertOne(grantDocument(grant), { session });
        if (tokens.length > 0) await this.tokens.insertMany(tokens.map(tokenDocument), { session });
        return { kind: 'redeemed' };
      }
      const code = await this.codes.findOne({ _id: codeId }, { session });
      if (code?.status !== 'used') return { kind: 'unavailable' };
      return { kind: 'reused', revokedCredentialIds: code.grant_id ? await this.revokeGrantIn(code.grant_id, session) : [] };
    });
  }

  async issueGrant(grant: GrantRecord, tokens: TokenRecord[]): Promise<void> {
    await this.transaction(async (session) => {
      await this.grants.insertOne(grantDocument(grant), { session });
      if (tokens.length > 0) await this.tokens.insertMany(tokens.map(tokenDocument), { session });
    });
  }

  async findToken(tokenHash: string): Promise<TokenRecord | undefined> {
    const doc = await this.tokens.findOne({ token_hash: tokenHash });
    return doc ? tokenRecord(doc) : undefined;
  }

  async getGrant(id: string): Promise<GrantRecord | undefined> {
    const doc = await this.grants.findOne({ _id: id });
    return doc ? grantRecord(doc) : undefined;
  }

  async rotateRefreshToken(tokenId: string, tokens: TokenRecord[]): Promise<RotateOutcome> {
    return this.transaction(async (session): Promise<RotateOutcome> => {
      const current = await this.tokens.findOne({ _id: tokenId, kind: 'refresh' }, { session });
      if (!current) return { kind: 'unavailable' };
      if (current.status === 'used') return { kind: 'reused', revokedCredentialIds: await this.revokeGrantIn(current.grant_id, session) };
      const grant = await this.grants.findOne({ _id: current.grant_id, status: 'active' }, { session });
      if (current.status !== 'active' || !grant) return { kind: 'unavailable' };
      // Two rotations of one token both write this document: the later one conflicts, is retried and then sees 'used'.
      const claimed = await this.tokens.updateOne({ _id: tokenId, status: 'active' }, { $set: { status: 'used' } }, { session });
      if (claimed.modifiedCount !== 1) return { kind: 'unavailable' };
      if (tokens.length > 0) await this.tokens.insertMany(tokens.map(tokenDocument), { session });
      return { kind: 'rotated' };
    });
  }

  async revokeToken(tokenId: string): Promise<string[]> {
    const result = await this.tokens.updateOne({ _id: tokenId, status: 'active' }, { $set: { status: 'revoked' } });
    return result.modifiedCount === 1 ? [tokenId] : [];
  }

  async revokeGrant(grantId: string): Promise<string[]> {
    return this.transaction((session) => this.revokeGrantIn(grantId, session));
  }

  async revokeUserCredentials(workspaceId: string, userId: string): Promise<string[]> {
    return this.transaction((session) => this.revokeOAuthCredentialsWhere({ workspace_id: workspaceId, user_id: userId }, session));
  }

  private async revokeGrantIn(grantId: string, session: ClientSession): Promise<string[]> {
    await this.grants.updateOne({ _id: grantId }, { $set: { status: 'revoked' } }, { session });
    return this.revokeTokensWhere({ grant_id: grantId }, session);
  }
}
