// An access or refresh token's stored form (but for the id) and its mapping to and from the record;
// only the token's hash is ever stored.
import type { StoredValues } from '@voice/runtime/store';
import type { TokenRecord } from '../store.js';

export interface StoredToken<List> {
  grant_id: string;
  kind: string;
  token_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: List;
  status: string;
  expires_at: string;
  created_at: string;
}

export const storedToken = <List>(t: TokenRecord, values: StoredValues<unknown, List>): StoredToken<List> => ({
  grant_id: t.grantId,
  kind: t.kind,
  token_hash: t.tokenHash,
  client_id: t.clientId,
  user_id: t.userId,
  workspace_id: t.workspaceId,
  scopes: values.list(t.scopes),
  status: t.status,
  expires_at: t.expiresAt,
  created_at: t.createdAt,
});

export const tokenFromStored = <List>(id: string, s: StoredToken<List>, values: StoredValues<unknown, List>): TokenRecord => ({
  id,
  grantId: s.grant_id,
  kind: s.kind as TokenRecord['kind'],
  tokenHash: s.token_hash,
  clientId: s.client_id,
  userId: s.user_id,
  workspaceId: s.workspace_id,
  scopes: values.items(s.scopes),
  status: s.status as TokenRecord['status'],
  expiresAt: s.expires_at,
  createdAt: s.created_at,
});
