// A service-account API key's stored form (but for the id) and its mapping to and from the record;
// only the key's hash and hint are ever stored.
import type { StoredValues } from '@voice/runtime/store';
import type { ApiKeyRecord } from '../store.js';

export interface StoredApiKey<List> {
  workspace_id: string;
  name: string;
  principal_id: string;
  key_hash: string;
  key_hint: string;
  /** Null for a key without scope restrictions. */
  scopes: List | null;
  status: string;
  created_at: string;
  last_used_at: string | null;
}

export const storedApiKey = <List>(k: ApiKeyRecord, values: StoredValues<unknown, List>): StoredApiKey<List> => ({
  workspace_id: k.workspaceId,
  name: k.name,
  principal_id: k.principalId,
  key_hash: k.keyHash,
  key_hint: k.keyHint,
  scopes: k.scopes === null ? null : values.list(k.scopes),
  status: k.status,
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt,
});

export const apiKeyFromStored = <List>(id: string, s: StoredApiKey<List>, values: StoredValues<unknown, List>): ApiKeyRecord => ({
  id,
  workspaceId: s.workspace_id,
  name: s.name,
  principalId: s.principal_id,
  keyHash: s.key_hash,
  keyHint: s.key_hint,
  scopes: s.scopes === null ? null : values.items(s.scopes),
  status: s.status as ApiKeyRecord['status'],
  createdAt: s.created_at,
  lastUsedAt: s.last_used_at,
});
