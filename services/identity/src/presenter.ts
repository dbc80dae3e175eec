// Workspaces, keys, members, customers and OAuth clients as other services see them.
import { create } from '@bufbuild/protobuf';
import { isPlan, planFeatures } from '@voice/runtime/access';
import { toTimestamp } from '@voice/runtime/time';
import {
  ApiKeySchema,
  CustomerSchema,
  MemberSchema,
  OAuthClientSchema,
  WorkspaceSchema,
  type ApiKey,
  type Customer,
  type Member,
  type OAuthClient,
  type Workspace,
} from '@voice/proto/voice/identity/v1/identity';
import type { ResolvedClient } from './oauth/clients.js';
import type { ApiKeyRecord, CustomerRecord, MemberRecord, WorkspaceRecord } from './store/store.js';

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

/** An invited member is named as its inviter named it: an existing user's own name is the user's to reveal by accepting. */
export const presentMember = (record: MemberRecord): Member =>
  create(MemberSchema, {
    userId: record.userId,
    email: record.email,
    name: record.status === 'invited' ? (record.invitedName ?? '') : record.name,
    role: record.role,
    status: record.status,
    createdAt: toTimestamp(record.createdAt),
  });

/** Never the password hash: only whether there is one. */
export const presentCustomer = ({ user, workspaces }: CustomerRecord): Customer =>
  create(CustomerSchema, {
    userId: user.id,
    email: user.email,
    name: user.name,
    createdAt: toTimestamp(user.createdAt),
    hasPassword: user.passwordHash !== null,
    workspaces: workspaces.map(({ workspace, role }) => ({ workspace: presentWorkspace(workspace), role })),
  });

export const presentClient = (client: ResolvedClient): OAuthClient =>
  create(OAuthClientSchema, {
    clientId: client.id,
    clientName: client.name,
    redirectUris: client.redirectUris,
    scopes: client.scopes,
    grantTypes: client.grantTypes,
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    createdAt: toTimestamp(client.createdAt),
    metadataDocument: client.metadataDocument,
    clientUri: client.clientUri ?? '',
  });
