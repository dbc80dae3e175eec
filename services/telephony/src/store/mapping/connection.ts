// A carrier connection's stored form (SQLite's row and MongoDB's document but for the id) and its
// mapping to and from the record; the credentials stay sealed in both.
import type { CarrierProvider, ConnectionRecord } from '../store.js';

export interface StoredConnection {
  workspace_id: string;
  name: string;
  provider: string;
  base_url: string;
  sealed_account_sid: string;
  sealed_auth_token: string;
  created_at: string;
  updated_at: string;
}

export const storedConnection = (c: ConnectionRecord): StoredConnection => ({
  workspace_id: c.workspaceId,
  name: c.name,
  provider: c.provider,
  base_url: c.baseUrl,
  sealed_account_sid: c.sealedAccountSid,
  sealed_auth_token: c.sealedAuthToken,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

export const connectionFromStored = (id: string, s: StoredConnection): ConnectionRecord => ({
  id,
  workspaceId: s.workspace_id,
  name: s.name,
  provider: s.provider as CarrierProvider,
  baseUrl: s.base_url,
  sealedAccountSid: s.sealed_account_sid,
  sealedAuthToken: s.sealed_auth_token,
  createdAt: s.created_at,
  updatedAt: s.updated_at,
});
