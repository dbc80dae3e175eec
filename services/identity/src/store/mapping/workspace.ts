// A workspace's stored form (SQLite's row and MongoDB's document but for the id) and its mapping to and from the record.
import type { WorkspaceRecord } from '../store.js';

export interface StoredWorkspace {
  name: string;
  plan: string;
  status: string;
  parent_workspace_id: string | null;
  created_at: string;
}

export const storedWorkspace = (w: WorkspaceRecord): StoredWorkspace => ({
  name: w.name,
  plan: w.plan,
  status: w.status,
  parent_workspace_id: w.parentWorkspaceId,
  created_at: w.createdAt,
});

export const workspaceFromStored = (id: string, s: StoredWorkspace): WorkspaceRecord => ({
  id,
  name: s.name,
  plan: s.plan,
  status: s.status as WorkspaceRecord['status'],
  parentWorkspaceId: s.parent_workspace_id,
  createdAt: s.created_at,
});
