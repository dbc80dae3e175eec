// Idempotency claims on sends in MongoDB: (workspace, key) names the message its first request made.
import type { ClientSession, Collection } from 'mongodb';
import { deleteBatch } from '@voice/runtime/store/mongo';
import type { StoredClaim } from '../rules.js';
import type { MessageRecord, SendClaim } from '../store.js';
import { messageDocument, messageRecord, type ClaimDocument } from './documents.js';

const claimId = (workspaceId: string, key: string): string => `${workspaceId}:${key}`;

export class MongoSendClaims {
  constructor(private readonly claims: Collection<ClaimDocument>) {}

  async find(workspaceId: string, key: string, session?: ClientSession): Promise<StoredClaim | undefined> {
    const doc = await this.claims.findOne({ _id: claimId(workspaceId, key) }, { session });
    if (!doc) return undefined;
    const claim: StoredClaim = { fingerprint: doc.fingerprint, messageId: doc.message_id, createdAt: doc.created_at };
    if (doc.first_response) claim.firstResponse = messageRecord(doc.first_response);
    return claim;
  }

  /** Keeps the accepted message as the first response of the claim that made it, if any. */
  async recordFirstResponse(message: MessageRecord, session: ClientSession): Promise<void> {
    await this.claims.updateMany({ message_id: message.id }, { $set: { first_response: messageDocument(message) } }, { session });
  }

  /** Takes the key for the message, replacing an expired claim. */
  async write(workspaceId: string, claim: SendClaim, messageId: string, session: ClientSession): Promise<void> {
    await this.claims.replaceOne(
      { _id: claimId(workspaceId, claim.key) },
      { workspace_id: workspaceId, key: claim.key, fingerprint: claim.fingerprint, message_id: messageId, created_at: claim.now },
      { upsert: true, session },
    );
  }

  prune(createdBefore: string, limit: number): Promise<number> {
    return deleteBatch(this.claims, { created_at: { $lt: createdBefore } }, { created_at: 1 }, limit);
  }

  async releaseFor(messageId: string, session: ClientSession): Promise<void> {
    await this.claims.deleteMany({ message_id: messageId }, { session });
  }
}
