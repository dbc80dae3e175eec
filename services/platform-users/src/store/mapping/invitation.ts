// An invitation's stored form (but for the id) and its mapping to and from the record; only the
// token's hash is stored.
import type { StoredValues } from '@voice/runtime/store';
import type { InvitationRecord } from '../store.js';

export interface StoredInvitation<Flag> {
  token_hash: string;
  user_id: string;
  platform_workspace_id: string;
  /** Absent on MongoDB invitations written before member invitations: a registration's. */
  workspace_id?: string | null;
  sign_in?: Flag;
  email: string;
  name: string;
  expires_at: string;
  accepted_at: string | null;
  created_at: string;
}

export const storedInvitation = <Flag>(i: InvitationRecord, values: StoredValues<Flag, unknown>): StoredInvitation<Flag> => ({
  token_hash: i.tokenHash,
  user_id: i.userId,
  platform_workspace_id: i.platformWorkspaceId,
  workspace_id: i.workspaceId,
  sign_in: values.flag(i.signIn),
  email: i.email,
  name: i.name,
  expires_at: i.expiresAt,
  accepted_at: i.acceptedAt,
  created_at: i.createdAt,
});

export const invitationFromStored = <Flag>(id: string, s: StoredInvitation<Flag>, values: StoredValues<Flag, unknown>): InvitationRecord => ({
  id,
  tokenHash: s.token_hash,
  userId: s.user_id,
  platformWorkspaceId: s.platform_workspace_id,
  workspaceId: s.workspace_id ?? null,
  signIn: s.sign_in === undefined ? false : values.isSet(s.sign_in),
  email: s.email,
  name: s.name,
  expiresAt: s.expires_at,
  acceptedAt: s.accepted_at,
  createdAt: s.created_at,
});
