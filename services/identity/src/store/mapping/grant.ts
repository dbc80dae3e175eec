// An OAuth grant's stored form (but for the id) and its mapping to and from the record.
import type { StoredValues } from '@voice/runtime/store';
import type { GrantRecord } from '../store.js';

export interface StoredGrant<List> {
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: List;
  resource: string;
  status: string;
  created_at: string;
}

export const storedGrant = <List>(g: GrantRecord, values: StoredValues<unknown, List>): StoredGrant<List> => ({
  client_id: g.clientId,
  user_id: g.userId,
  workspace_id: g.workspaceId,
  scopes: values.list(g.scopes),
  resource: g.resource,
  status: g.status,
  created_at: g.createdAt,
});

export const grantFromStored = <List>(id: string, s: StoredGrant<List>, values: StoredValues<unknown, List>): GrantRecord => ({
  id,
  clientId: s.client_id,
  userId: s.user_id,
  workspaceId: s.workspace_id,
  scopes: values.items(s.scopes),
  resource: s.resource,
  status: s.status as GrantRecord['status'],
  createdAt: s.created_at,
});
