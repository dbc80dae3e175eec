// Workspaces and keys as other services see them.
import { create } from '@bufbuild/protobuf';
import { isPlan, planFeatures, toTimestamp } from '@voice/runtime';
import { ApiKeySchema, WorkspaceSchema, type ApiKey, type Workspace } from '@voice/proto/voice/identity/v1/identity';
import type { ApiKeyRecord, WorkspaceRecord } from './store/store.js';

export function presentWorkspace(record: WorkspaceRecord): Workspace {
  const features = isPlan(record.plan) ? [...planFeatures[record.plan]] : [];
  return create(WorkspaceSchema, {
    id: record.id,
    name: record.name,
    plan: record.plan,
    features,
    whiteLabel: features.includes('white_label'),
    status: record.status,
    createdAt: toTimestamp(record.createdAt),
    parentWorkspaceId: record.parentWorkspaceId ?? '',
  });
}

export const presentApiKey = (record: ApiKeyRecord): ApiKey =>
  create(ApiKeySchema, {
    id: record.id,
    name: record.name,
    scopes: record.scopes ?? [],
    unrestricted: record.scopes === null,
    keyHint: record.keyHint,
    createdAt: toTimestamp(record.createdAt),
    lastUsedAt: record.lastUsedAt ? toTimestamp(record.lastUsedAt) : undefined,
  });
