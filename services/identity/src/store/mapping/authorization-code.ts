// An authorization code's stored form (but for the id) and its mapping to and from the record; only
// the code's hash is ever stored.
import type { StoredValues } from '@voice/runtime/store';
import type { AuthorizationCodeRecord } from '../store.js';

export interface StoredAuthorizationCode<List> {
  code_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  redirect_uri: string;
  scopes: List;
  code_challenge: string;
  resource: string;
  status: string;
  grant_id: string | null;
  expires_at: string;
  created_at: string;
}

export const storedAuthorizationCode = <List>(c: AuthorizationCodeRecord, values: StoredValues<unknown, List>): StoredAuthorizationCode<List> => ({
  code_hash: c.codeHash,
  client_id: c.clientId,
  user_id: c.userId,
  workspace_id: c.workspaceId,
  redirect_uri: c.redirectUri,
  scopes: values.list(c.scopes),
  code_challenge: c.codeChallenge,
  resource: c.resource,
  status: c.status,
  grant_id: c.grantId,
  expires_at: c.expiresAt,
  created_at: c.createdAt,
});

export const authorizationCodeFromStored = <List>(id: string, s: StoredAuthorizationCode<List>, values: StoredValues<unknown, List>): AuthorizationCodeRecord => ({
  id,
  codeHash: s.code_hash,
  clientId: s.client_id,
  userId: s.user_id,
  workspaceId: s.workspace_id,
  redirectUri: s.redirect_uri,
  scopes: values.items(s.scopes),
  codeChallenge: s.code_challenge,
  resource: s.resource,
  status: s.status as AuthorizationCodeRecord['status'],
  grantId: s.grant_id,
  expiresAt: s.expires_at,
  createdAt: s.created_at,
});
