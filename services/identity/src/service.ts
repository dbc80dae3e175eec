// The IdentityService: turns bearer credentials into principals, and owns workspaces,
// service-account keys, users and members, platforms' customers, and the OAuth 2.0 server's
// state. Revocations are announced before the revoking call returns.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { hasScope, isPlan, nonCanonical } from '@voice/runtime/access';
import { callerOf, workspaceCallerOf } from '@voice/runtime/caller';
import { constantTimeEqual } from '@voice/runtime/crypto';
import { egressPolicy } from '@voice/runtime/egress';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { isUuid, newId } from '@voice/runtime/ids';
import type { Notifier } from '@voice/runtime/nats';
import { monotonicClock } from '@voice/runtime/time';
import { normalisePage } from '@voice/runtime/validation';
import type {
  AcceptMembershipRequest,
  AddMemberRequest,
  CheckAuthorizationRequestRequest,
  CreateApiKeyRequest,
  CreateWorkspaceRequest,
  ExchangeAuthorizationCodeRequest,
  GetCustomerRequest,
  IdentityService,
  IssueAuthorizationCodeRequest,
  IssueUserTokensRequest,
  ListCustomersRequest,
  RefreshAccessTokenRequest,
  RegisterClientRequest,
  RegisterCustomerRequest,
  RevokeTokenRequest,
  RevokeUserCredentialsRequest,
  SetInitialPasswordRequest,
  SetWorkspaceStatusRequest,
  UpdateMemberRequest,
  VerifyPasswordRequest,
} from '@voice/proto/voice/identity/v1/identity';
import { requireInternal } from './internal.js';
import { accessTokenPrefix, apiKeyPrefix, generateApiKey, hashCredential, keyHint, looksLike } from './credentials.js';
import { Customers } from './customers.js';
import { MembershipAcceptance } from './members/acceptance.js';
import { Members } from './members/members.js';
import { authenticateAccessToken } from './oauth/access-tokens.js';
import { Authorization } from './oauth/authorization.js';
import { Clients } from './oauth/clients.js';
import { guardedMetadataFetcher, type ClientMetadataFetcher } from './oauth/metadata-fetch.js';
import { MetadataDocuments } from './oauth/metadata-documents.js';
import { TokenEndpoint } from './oauth/token-endpoint.js';
import { presentApiKey, presentClient, presentWorkspace } from './presenter.js';
import { announceRevoked } from './revocations.js';
import { PasswordHasher } from './passwords.js';
import { signIn } from './sign-in.js';
import { activeStanding } from './standing.js';
import type { IdentityStore } from './store/store.js';
import { UserCredentials } from './user-credentials.js';

export interface IdentityDeps {
  store: IdentityStore;
  notifier: Notifier;
  now?: () => Date;
  /**
   * Fetches a Client ID Metadata Document and answers its JSON; by default an HTTPS GET through
   * the egress guard with private addresses refused (main.ts passes VOICE_EGRESS_ALLOW_PRIVATE).
   */
  fetchClientMetadata?: ClientMetadataFetcher;
  /** Hashes passwords; at the default cost unless main.ts passes VOICE_PASSWORD_HASH_COST's. */
  passwords?: PasswordHasher;
}

/** How long the gateway may keep an Authenticate answer; revocations reach it sooner. */
export const authenticationCacheSeconds = 60;
/** last_used_at is written at most this often per key, so reads stay reads. */
const lastUsedResolutionMs = 60_000;

const unauthenticated = () => serviceError('unauthorized', 'the credential is missing, invalid, expired or revoked');

export class IdentityServiceImpl implements ServiceImpl<typeof IdentityService> {
  private readonly now: () => Date;
  private readonly members: Members;
  private readonly acceptance: MembershipAcceptance;
  private readonly clients: Clients;
  private readonly authorization: Authorization;
  private readonly tokens: TokenEndpoint;
  private readonly customers: Customers;
  private readonly userCredentials: UserCredentials;
  private readonly passwords: PasswordHasher;

  constructor(private readonly deps: IdentityDeps) {
    this.now = deps.now ?? monotonicClock();
    const { store, notifier } = deps;
    const now = this.now;
    const passwords = (this.passwords = deps.passwords ?? new PasswordHasher());
    const documents = new MetadataDocuments(deps.fetchClientMetadata ?? guardedMetadataFetcher(egressPolicy({ allowPrivate: false })), now);
    this.members = new Members({ store, notifier, now });
    this.acceptance = new MembershipAcceptance({ store, passwords });
    this.clients = new Clients({ store, documents, now });
    this.authorization = new Authorization({ store, clients: this.clients, now });
    this.tokens = new TokenEndpoint({ store, clients: this.clients, notifier, now });
    this.customers = new Customers({ store, passwords, now });
    this.userCredentials = new UserCredentials({ store, passwords, notifier, now });
  }

  async authenticate(request: { credential: string }, context: HandlerContext) {
    requireInternal(context);
    const credential = request.credential;
    if (!looksLike(credential, apiKeyPrefix)) throw unauthenticated();
    if (credential.startsWith(accessTokenPrefix)) {
      const answer = await authenticateAccessToken(this.deps.store, credential, this.now(), authenticationCacheSeconds);
      if (!answer) throw unauthenticated();
      return answer;
    }
    const hash = hashCredential(credential);
    const key = await this.deps.store.findApiKeyByHash(hash);
    if (!key || !constantTimeEqual(key.keyHash, hash) || key.status !== 'active') throw unauthenticated();
    const standing = await activeStanding(this.deps.store, key.workspaceId);
    if (!standing) throw unauthenticated();
    const now = this.now();
    if (!key.lastUsedAt || now.getTime() - Date.parse(key.lastUsedAt) >= lastUsedResolutionMs) {
      await this.deps.store.touchApiKey(key.id, now.toISOString());
    }
    return {
      principal: { type: 'service_account', id: key.principalId, name: key.name },
      workspace: presentWorkspace(standing.workspace),
      platformWorkspaceIds: standing.platformIds,
      unrestricted: key.scopes === null,
      scopes: key.scopes ?? [],
      credentialId: key.id,
      cacheTtlSeconds: authenticationCacheSeconds,
    };
  }

  async getWorkspace(request: { id: string }, context: HandlerContext) {
    const caller = callerOf(context);
    if (caller.principal.type !== 'internal' && caller.workspaceId !== request.id) throw notFound('workspace');
    const workspace = isUuid(request.id) ? await this.deps.store.getWorkspace(request.id) : undefined;
    if (!workspace) throw notFound('workspace');
    return { workspace: presentWorkspace(workspace) };
  }

  async createWorkspace(request: CreateWorkspaceRequest, context: HandlerContext) {
    requireInternal(context);
    const issues = [];
    if (request.name.trim().length === 0 || request.name.length > 200) issues.push({ field: 'name', issue: 'must be 1 to 200 characters' });
    if (!isPlan(request.plan)) issues.push({ field: 'plan', issue: 'must be starter, pro or enterprise' });
    if (issues.length > 0) throw invalidRequest(issues);
    const parent = isUuid(request.parentWorkspaceId) ? await this.deps.store.getWorkspace(request.parentWorkspaceId) : undefined;
    if (!parent) throw invalidRequest([{ field: 'parent_workspace_id', issue: 'must name an existing workspace' }]);
    const workspace = {
      id: newId(),
      name: request.name.trim(),
      plan: request.plan,
      status: 'active' as const,
      parentWorkspaceId: parent.id,
      createdAt: this.now().toISOString(),
    };
    await this.deps.store.createWorkspace(workspace);
    return { workspace: presentWorkspace(workspace) };
  }

  /** Suspending revokes every credential of the workspace; reactivating revives none of them. */
  async setWorkspaceStatus(request: SetWorkspaceStatusRequest, context: HandlerContext) {
    requireInternal(context);
    if (request.status !== 'active' && request.status !== 'suspended') throw invalidRequest([{ field: 'status', issue: 'must be active or suspended' }]);
    const workspace = isUuid(request.workspaceId) ? await this.deps.store.getWorkspace(request.workspaceId) : undefined;
    if (!workspace) throw notFound('workspace');
    // Suspending the root would revoke the root key with no way back: bootstrap never runs twice.
    if (workspace.parentWorkspaceId === null) throw serviceError('conflict', 'the root platform workspace cannot be suspended');
    const outcome = await this.deps.store.setWorkspaceStatus(workspace.id, request.status);
    if (!outcome) throw notFound('workspace');
    if (request.status === 'suspended') {
      await announceRevoked(this.deps.notifier, { credentialIds: outcome.revokedCredentialIds, workspaceId: outcome.workspace.id });
    }
    return { workspace: presentWorkspace(outcome.workspace) };
  }

  async createApiKey(request: CreateApiKeyRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const name = request.name.trim();
    const issues = [];
    if (name.length === 0 || name.length > 100) issues.push({ field: 'name', issue: 'must be 1 to 100 characters' });
    if (request.scopes.length === 0) issues.push({ field: 'scopes', issue: 'must list at least one scope' });
    const unknown = nonCanonical(request.scopes);
    if (unknown.length > 0) issues.push({ field: 'scopes', issue: `not canonical scopes: ${unknown.join(', ')}` });
    if (issues.length > 0) throw invalidRequest(issues);
    const scopes = [...new Set(request.scopes)];
    const beyond = scopes.filter((scope) => !hasScope(caller.scopes, scope));
    if (beyond.length > 0) {
      throw serviceError('forbidden', `a key can only create keys within its own scopes; not held: ${beyond.join(', ')}`);
    }
    const key = generateApiKey();
    const record = {
      id: newId(),
      workspaceId: caller.workspaceId,
      name,
      principalId: newId(),
      keyHash: hashCredential(key),
      keyHint: keyHint(key),
      scopes,
      status: 'active' as const,
      createdAt: this.now().toISOString(),
      lastUsedAt: null,
    };
    await this.deps.store.createApiKey(record);
    return { apiKey: presentApiKey(record), key };
  }

  async listApiKeys(request: { limit: number; offset: number }, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const { keys, total } = await this.deps.store.listApiKeys(caller.workspaceId, normalisePage(request));
    return { apiKeys: keys.map(presentApiKey), total };
  }

  async revokeApiKey(request: { id: string }, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const outcome = isUuid(request.id) ? await this.deps.store.revokeApiKey(caller.workspaceId, request.id) : 'not_found';
    if (outcome === 'not_found') throw notFound('API key');
    if (outcome === 'last_unrestricted') {
      throw serviceError(
        'conflict',
        'this is the root platform’s last key without scope restrictions and cannot be revoked; restart identity with a new VOICE_ROOT_API_KEY to register another, then revoke this one',
      );
    }
    await announceRevoked(this.deps.notifier, { credentialIds: [request.id] });
    return {};
  }

  listMembers(request: { limit: number; offset: number }, context: HandlerContext) {
    return this.members.list(request, context);
  }

  addMember(request: AddMemberRequest, context: HandlerContext) {
    return this.members.add(request, context);
  }

  updateMember(request: UpdateMemberRequest, context: HandlerContext) {
    return this.members.update(request, context);
  }

  removeMember(request: { userId: string }, context: HandlerContext) {
    return this.members.remove(request, context);
  }

  async verifyPassword(request: VerifyPasswordRequest, context: HandlerContext) {
    requireInternal(context);
    return signIn({ store: this.deps.store, passwords: this.passwords }, request, context.signal);
  }

  async registerClient(request: RegisterClientRequest, context: HandlerContext) {
    requireInternal(context);
    const { client, secret } = await this.clients.register(request);
    return { client: presentClient(client), clientSecret: secret };
  }

  async checkAuthorizationRequest(request: CheckAuthorizationRequestRequest, context: HandlerContext) {
    requireInternal(context);
    const { client, scopes } = await this.authorization.check(request);
    return { client: presentClient(client), scopes, redirectUriTrusted: true };
  }

  async issueAuthorizationCode(request: IssueAuthorizationCodeRequest, context: HandlerContext) {
    requireInternal(context);
    return { code: await this.authorization.issueCode(request) };
  }

  async exchangeAuthorizationCode(request: ExchangeAuthorizationCodeRequest, context: HandlerContext) {
    requireInternal(context);
    return { tokens: await this.tokens.exchange(request) };
  }

  async refreshAccessToken(request: RefreshAccessTokenRequest, context: HandlerContext) {
    requireInternal(context);
    return { tokens: await this.tokens.refresh(request) };
  }

  async revokeToken(request: RevokeTokenRequest, context: HandlerContext) {
    requireInternal(context);
    await this.tokens.revoke(request);
    return {};
  }

  async registerCustomer(request: RegisterCustomerRequest, context: HandlerContext) {
    requireInternal(context);
    return this.customers.register(request, context.signal);
  }

  async listCustomers(request: ListCustomersRequest, context: HandlerContext) {
    requireInternal(context);
    return this.customers.list(request);
  }

  async getCustomer(request: GetCustomerRequest, context: HandlerContext) {
    requireInternal(context);
    return this.customers.get(request);
  }

  async issueUserTokens(request: IssueUserTokensRequest, context: HandlerContext) {
    requireInternal(context);
    return this.userCredentials.issueTokens(request);
  }

  async revokeUserCredentials(request: RevokeUserCredentialsRequest, context: HandlerContext) {
    requireInternal(context);
    return this.userCredentials.revoke(request);
  }

  async setInitialPassword(request: SetInitialPasswordRequest, context: HandlerContext) {
    requireInternal(context);
    return this.userCredentials.setInitialPassword(request, context.signal);
  }

  async acceptMembership(request: AcceptMembershipRequest, context: HandlerContext) {
    requireInternal(context);
    return this.acceptance.accept(request, context.signal);
  }
}
