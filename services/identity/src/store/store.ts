// The identity service's persistence: workspaces and service-account API keys.
import type { Page } from '@voice/runtime';

export interface WorkspaceRecord {
  id: string;
  name: string;
  plan: string;
  status: 'active' | 'suspended';
  /** Null for the root platform workspace. */
  parentWorkspaceId: string | null;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  /** The dedicated non-human principal the key belongs to. */
  principalId: string;
  /** SHA-256 of the full key; the key itself is never stored. */
  keyHash: string;
  keyHint: string;
  /** Null for a key without scope restrictions (the root key). */
  scopes: string[] | null;
  status: 'active' | 'revoked';
  createdAt: string;
  lastUsedAt: string | null;
}

export interface IdentityStore {
  /** Creates the root workspace and its key in one transaction, unless a root already exists. */
  bootstrapRoot(workspace: WorkspaceRecord, key: ApiKeyRecord): Promise<'created' | 'exists'>;
  rootWorkspace(): Promise<WorkspaceRecord | undefined>;
  createWorkspace(workspace: WorkspaceRecord): Promise<void>;
  getWorkspace(id: string): Promise<WorkspaceRecord | undefined>;
  createApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** Active keys of the workspace, newest first. */
  listApiKeys(workspaceId: string, page: Page): Promise<{ keys: ApiKeyRecord[]; total: number }>;
  /** True when an active key of the workspace was revoked by this call. */
  revokeApiKey(workspaceId: string, id: string): Promise<boolean>;
  touchApiKey(id: string, at: string): Promise<void>;
  close(): Promise<void>;
}
