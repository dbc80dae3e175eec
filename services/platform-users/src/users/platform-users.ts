// A white-label platform's users (PlatformUserService's use cases), orchestrated over identity (customers,
// passwords, tokens, workspace status) and billing (balances, transfers); invitations are kept
// here. Every RPC but the two invitation ones works for the signed caller's workspace.
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import { isPlan, planRank } from '@voice/runtime/access';
import { internalCallerOf, workspaceCallerOf } from '@voice/runtime/caller';
import { serviceError } from '@voice/runtime/errors';
import { toTimestamp } from '@voice/runtime/time';
import type { Amount } from '@voice/proto/voice/billing/v1/billing';
import type {
  AcceptInvitationRequest,
  GetInvitationRequest,
  GetPlatformUserRequest,
  InviteMemberRequest,
  IssuePlatformUserTokenRequest,
  ListPlatformUsersRequest,
  LoginPlatformUserRequest,
  LogoutPlatformUserRequest,
  PlatformUser,
  RegisterPlatformUserRequest,
  SetPlatformUserStatusRequest,
  TransferPlatformCreditsRequest,
} from '@voice/proto/voice/platform/v1/platform_users';
import type { Customer, Workspace } from '@voice/proto/voice/identity/v1/identity';
import type { BillingCalls } from '../downstream/billing.js';
import type { IdentityCalls } from '../downstream/identity.js';
import type { Invitations } from '../invitations/invitations.js';
import type { InvitationStore } from '../store/store.js';
import { customerOf, firstWorkspace, signInWorkspace, workspacesOf } from './customers.js';
import { platformOf, type PlatformCall } from './platform.js';
import { presentTokens, presentUser } from '../presenter.js';
import { readListRequest, readRegistration, readStatus, readTransfer } from './requests.js';
import { transferCredits } from './transfers.js';

export interface PlatformUserDeps {
  identity: IdentityCalls;
  billing: BillingCalls;
  store: Pick<InvitationStore, 'invitationStatuses'>;
  invitations: Invitations;
}

const wrongCredentials = () => serviceError('unauthorized', 'the e-mail or password is wrong');

const isRefusal = (error: unknown): boolean =>
  error instanceof ConnectError && (error.code === Code.Unauthenticated || error.code === Code.NotFound);

export class PlatformUsers {
  constructor(private readonly deps: PlatformUserDeps) {}

  async listPlatformUsers(request: ListPlatformUsersRequest, context: HandlerContext) {
    const platform = await this.platform(context);
    const { query, page } = readListRequest(request);
    const { customers, total } = await this.deps.identity.listCustomers({ platformWorkspaceId: platform.workspace.id, query, ...page }, platform.on);
    const invitations = await this.deps.store.invitationStatuses(customers.map((customer) => customer.userId));
    return { users: customers.map((customer) => presentUser(customer, invitations.get(customer.userId))), total };
  }

  async getPlatformUser(request: GetPlatformUserRequest, context: HandlerContext) {
    const platform = await this.platform(context);
    const customer = await customerOf(this.deps.identity, platform, request.userId);
    const balances = new Map<string, Amount>(
      await Promise.all(
        workspacesOf(customer).map(
          async (workspace) => [workspace.id, await this.deps.billing.balance({ workspaceId: workspace.id, requestId: platform.requestId })] as const,
        ),
      ),
    );
    return { user: await this.present(customer, balances) };
  }

  async registerPlatformUser(request: RegisterPlatformUserRequest, context: HandlerContext) {
    const platform = await this.platform(context);
    const registration = readRegistration(request);
    const platformPlan = platform.workspace.plan;
    if (!isPlan(platformPlan) || planRank(registration.plan) > planRank(platformPlan)) {
      throw serviceError('forbidden', `a platform on ${platform.workspace.plan} cannot hand out ${registration.plan}`);
    }
    const { customer, invited: existing, signIn } = await this.deps.identity.registerCustomer(
      {
        platformWorkspaceId: platform.workspace.id,
        email: registration.email,
        name: registration.name,
        password: registration.password,
        plan: registration.plan,
        workspaceName: registration.name,
      },
      platform.on,
    );
    // A user of the realm already is invited to own the new workspace (accepting with its own
    // password); a new one without a password is invited to choose it.
    const invited = existing || registration.password === '';
    if (invited) {
      const [workspace] = workspacesOf(customer);
      await this.deps.invitations.invite({
        userId: customer.userId,
        email: customer.email,
        name: customer.name,
        platform: { id: platform.workspace.id, name: platform.workspace.name },
        ...(existing && workspace ? { membership: { workspaceId: workspace.id, signIn } } : {}),
      });
    }
    // A user registered just now has no invitation but the one (if any) sent above.
    return { user: presentUser(customer, invited ? 'pending' : undefined) };
  }

  async issuePlatformUserToken(request: IssuePlatformUserTokenRequest, context: HandlerContext) {
    const platform = await this.platform(context);
    return this.issueTokens(await customerOf(this.deps.identity, platform, request.userId), platform, request.resource);
  }

  async loginPlatformUser(request: LoginPlatformUserRequest, context: HandlerContext) {
    const platform = await this.platform(context);
    // A tenant's domain signs in only its own platform's users.
    if (request.tenantWorkspaceId && request.tenantWorkspaceId !== platform.workspace.id) throw wrongCredentials();
    let userId: string;
    try {
      // A platform's customers are the users of its realm.
      ({ userId } = await this.deps.identity.verifyPassword(request.email, request.password, platform.workspace.id, platform.on));
    } catch (error) {
      if (isRefusal(error)) throw wrongCredentials();
      throw error;
    }
    let customer: Customer;
    try {
      customer = await customerOf(this.deps.identity, platform, userId);
    } catch (error) {
      // Never tell that the e-mail and password belong to someone elsewhere on the platform.
      if (isRefusal(error)) throw wrongCredentials();
      throw error;
    }
    return this.issueTokens(customer, platform, request.resource);
  }

  async logoutPlatformUser(request: LogoutPlatformUserRequest, context: HandlerContext) {
    const platform = await this.platform(context);
    const customer = await customerOf(this.deps.identity, platform, request.userId);
    const revoked = await Promise.all(
      workspacesOf(customer).map((workspace) => this.deps.identity.revokeUserCredentials(workspace.id, customer.userId, platform.on)),
    );
    return { revokedTokens: revoked.reduce((sum, count) => sum + count, 0) };
  }

  async transferPlatformCredits(request: TransferPlatformCreditsRequest, context: HandlerContext) {
    const platform = await this.platform(context);
    const input = readTransfer(request);
    const customer = await customerOf(this.deps.identity, platform, input.userId);
    return transferCredits(this.deps.billing, platform, firstWorkspace(customer).id, input);
  }

  async setPlatformUserStatus(request: SetPlatformUserStatusRequest, context: HandlerContext) {
    const platform = await this.platform(context);
    const status = readStatus(request);
    const customer = await customerOf(this.deps.identity, platform, request.userId);
    // Identity revokes every credential of a workspace it suspends; it answers with the workspace as it is now.
    const updated = new Map<string, Workspace>();
    for (const workspace of workspacesOf(customer)) updated.set(workspace.id, await this.deps.identity.setWorkspaceStatus(workspace.id, status, platform.on));
    const workspaces = customer.workspaces.map((entry) => ({ ...entry, workspace: entry.workspace && (updated.get(entry.workspace.id) ?? entry.workspace) }));
    return { user: await this.present({ ...customer, workspaces }) };
  }

  async getInvitation(request: GetInvitationRequest, context: HandlerContext) {
    const requestId = this.invitationCaller(context);
    const invitation = await this.deps.invitations.describe(request.token, request.realmWorkspaceId, requestId);
    return {
      invitation: {
        email: invitation.email,
        name: invitation.name,
        platformName: invitation.platformName,
        expiresAt: toTimestamp(invitation.expiresAt),
        signIn: invitation.signIn,
      },
    };
  }

  async acceptInvitation(request: AcceptInvitationRequest, context: HandlerContext) {
    const requestId = this.invitationCaller(context);
    const invitation = await this.deps.invitations.accept(request.token, request.password, request.realmWorkspaceId, requestId);
    return { email: invitation.email };
  }

  /** The pending member identity's AddMember just recorded for the caller's workspace, invited by e-mail. */
  async inviteMember(request: InviteMemberRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const on = { workspaceId: caller.workspaceId, requestId: caller.requestId };
    const workspace = await this.deps.identity.getWorkspace(caller.workspaceId, on);
    await this.deps.invitations.invite({
      userId: request.userId,
      email: request.email,
      name: request.name,
      platform: { id: request.realmWorkspaceId, name: workspace.name },
      membership: { workspaceId: workspace.id, signIn: request.signIn },
    });
    return {};
  }

  private platform(context: HandlerContext): Promise<PlatformCall> {
    return platformOf(context, this.deps.identity);
  }

  /** The invitation RPCs belong to no workspace: the token is the proof, and only the platform's own parts ask. */
  private invitationCaller(context: HandlerContext): string {
    return internalCallerOf(context, 'only the platform serves invitations').requestId;
  }

  private async issueTokens(customer: Customer, platform: PlatformCall, resource: string) {
    const workspace = signInWorkspace(customer);
    const tokens = await this.deps.identity.issueUserTokens(workspace.id, customer.userId, resource, platform.on);
    return { tokens: presentTokens(tokens, customer.userId, workspace.id) };
  }

  private async present(customer: Customer, balances?: ReadonlyMap<string, Amount>): Promise<PlatformUser> {
    const invitations = await this.deps.store.invitationStatuses([customer.userId]);
    return presentUser(customer, invitations.get(customer.userId), balances);
  }
}
