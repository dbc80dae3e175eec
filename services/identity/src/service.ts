// The IdentityService: turns bearer credentials into principals, and owns workspaces,
// service-account keys, users and members, platforms' customers, and the OAuth 2.0 server's
// state. It checks who may call each RPC and delegates to the area that owns it; revocations are
// announced before the revoking call returns.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { callerOf, internalCallerOf, workspaceCallerOf } from '@voice/runtime/caller';
import { egressPolicy } from '@voice/runtime/egress';
import type { Notifier } from '@voice/runtime/nats';
import { monotonicClock } from '@voice/runtime/time';
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
import { ApiKeys } from './api-keys/api-keys.js';
import { Authentication } from './credentials/authenticate.js';
import { Customers } from './customers/customers.js';
import { MembershipAcceptance } from './members/acceptance.js';
import { Members } from './members/members.js';
import { Authorization } from './oauth/authorization.js';
import { Clients } from './oauth/clients.js';
import { guardedMetadataFetcher, type ClientMetadataFetcher } from './oauth/metadata-fetch.js';
import { MetadataDocuments } from './oauth/metadata-documents.js';
import { TokenEndpoint } from './oauth/token-endpoint.js';
import { presentClient } from './presenter.js';
import type { IdentityStore } from './store/store.js';
import { PasswordHasher } from './users/passwords.js';
import { signIn } from './users/sign-in.js';
import { UserCredentials } from './users/user-credentials.js';
import { Workspaces } from './workspaces/workspaces.js';

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

export class IdentityServiceImpl implements ServiceImpl<typeof IdentityService> {
  private readonly authentication: Authentication;
  private readonly workspaces: Workspaces;
  private readonly apiKeys: ApiKeys;
  private readonly members: Members;
  private readonly acceptance: MembershipAcceptance;
  private readonly clients: Clients;
  private readonly authorization: Authorization;
  private readonly tokens: TokenEndpoint;
  private readonly customers: Customers;
  private readonly userCredentials: UserCredentials;
  private readonly signIn: (request: VerifyPasswordRequest, signal?: AbortSignal) => ReturnType<typeof signIn>;

  constructor(deps: IdentityDeps) {
    const { store, notifier } = deps;
    const now = deps.now ?? monotonicClock();
    const passwords = deps.passwords ?? new PasswordHasher();
    const documents = new MetadataDocuments(deps.fetchClientMetadata ?? guardedMetadataFetcher(egressPolicy({ allowPrivate: false })), now);
    this.authentication = new Authentication({ store, now });
    this.workspaces = new Workspaces({ store, notifier, now });
    this.apiKeys = new ApiKeys({ store, notifier, now });
    this.members = new Members({ store, notifier, now });
    this.acceptance = new MembershipAcceptance({ store, passwords });
    this.clients = new Clients({ store, documents, now });
    this.authorization = new Authorization({ store, clients: this.clients, now });
    this.tokens = new TokenEndpoint({ store, clients: this.clients, notifier, now });
    this.customers = new Customers({ store, passwords, now });
    this.userCredentials = new UserCredentials({ store, passwords, notifier, now });
    this.signIn = (request, signal) => signIn({ store, passwords }, request, signal);
  }

  async authenticate(request: { credential: string }, context: HandlerContext) {
    internalCallerOf(context);
    return this.authentication.authenticate(request.credential);
  }

  async getWorkspace(request: { id: string }, context: HandlerContext) {
    return this.workspaces.get(request.id, callerOf(context));
  }

  async createWorkspace(request: CreateWorkspaceRequest, context: HandlerContext) {
    internalCallerOf(context);
    return this.workspaces.create(request);
  }

  async setWorkspaceStatus(request: SetWorkspaceStatusRequest, context: HandlerContext) {
    internalCallerOf(context);
    return this.workspaces.setStatus(request);
  }

  async createApiKey(request: CreateApiKeyRequest, context: HandlerContext) {
    return this.apiKeys.create(request, workspaceCallerOf(context));
  }

  async listApiKeys(request: { limit: number; offset: number }, context: HandlerContext) {
    return this.apiKeys.list(request, workspaceCallerOf(context));
  }

  async revokeApiKey(request: { id: string }, context: HandlerContext) {
    return this.apiKeys.revoke(request.id, workspaceCallerOf(context));
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
    internalCallerOf(context);
    return this.signIn(request, context.signal);
  }

  async registerClient(request: RegisterClientRequest, context: HandlerContext) {
    internalCallerOf(context);
    const { client, secret } = await this.clients.register(request);
    return { client: presentClient(client), clientSecret: secret };
  }

  async checkAuthorizationRequest(request: CheckAuthorizationRequestRequest, context: HandlerContext) {
    internalCallerOf(context);
    const { client, scopes } = await this.authorization.check(request);
    return { client: presentClient(client), scopes, redirectUriTrusted: true };
  }

  async issueAuthorizationCode(request: IssueAuthorizationCodeRequest, context: HandlerContext) {
    internalCallerOf(context);
    return { code: await this.authorization.issueCode(request) };
  }

  async exchangeAuthorizationCode(request: ExchangeAuthorizationCodeRequest, context: HandlerContext) {
    internalCallerOf(context);
    return { tokens: await this.tokens.exchange(request) };
  }

  async refreshAccessToken(request: RefreshAccessTokenRequest, context: HandlerContext) {
    internalCallerOf(context);
    return { tokens: await this.tokens.refresh(request) };
  }

  async revokeToken(request: RevokeTokenRequest, context: HandlerContext) {
    internalCallerOf(context);
    await this.tokens.revoke(request);
    return {};
  }

  async registerCustomer(request: RegisterCustomerRequest, context: HandlerContext) {
    internalCallerOf(context);
    return this.customers.register(request, context.signal);
  }

  async listCustomers(request: ListCustomersRequest, context: HandlerContext) {
    internalCallerOf(context);
    return this.customers.list(request);
  }

  async getCustomer(request: GetCustomerRequest, context: HandlerContext) {
    internalCallerOf(context);
    return this.customers.get(request);
  }

  async issueUserTokens(request: IssueUserTokensRequest, context: HandlerContext) {
    internalCallerOf(context);
    return this.userCredentials.issueTokens(request);
  }

  async revokeUserCredentials(request: RevokeUserCredentialsRequest, context: HandlerContext) {
    internalCallerOf(context);
    return this.userCredentials.revoke(request);
  }

  async setInitialPassword(request: SetInitialPasswordRequest, context: HandlerContext) {
    internalCallerOf(context);
    return this.userCredentials.setInitialPassword(request, context.signal);
  }

  async acceptMembership(request: AcceptMembershipRequest, context: HandlerContext) {
    internalCallerOf(context);
    return this.acceptance.accept(request, context.signal);
  }
}
