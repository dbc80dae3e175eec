// The identity calls this service makes, as an internal caller, each failing as
// downstreamFailure says.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import type { CallerSigner } from '@voice/runtime/caller';
import type {
  Customer,
  IdentityService,
  IssueUserTokensResponse,
  Member,
  ListCustomersRequestSchema,
  RegisterCustomerRequestSchema,
  VerifyPasswordResponse,
  Workspace,
} from '@voice/proto/voice/identity/v1/identity';
import { internalCallOptions, type OnBehalfOf } from './caller.js';
import { answered, callDownstream } from './failures.js';

/**
 * Calls that hash a password (scrypt at OWASP's cost, a second or more under load, queued two at a
 * time in identity) get the gateway's whole budget instead of the usual bound.
 */
const passwordCallTimeoutMs = 30_000;
const hashing = (options: ReturnType<typeof internalCallOptions>) => ({ ...options, timeoutMs: passwordCallTimeoutMs });

export class IdentityCalls {
  constructor(
    private readonly client: Client<typeof IdentityService>,
    private readonly signer: CallerSigner,
  ) {}

  async getWorkspace(id: string, on: OnBehalfOf): Promise<Workspace> {
    const answer = await this.call(() => this.client.getWorkspace({ id }, internalCallOptions(this.signer, on)));
    return answered('identity', answer.workspace, 'a workspace');
  }

  /** The customer as registered; `invited` when the e-mail had a user in the realm, who is invited to own the workspace. */
  async registerCustomer(
    request: MessageInitShape<typeof RegisterCustomerRequestSchema>,
    on: OnBehalfOf,
  ): Promise<{ customer: Customer; invited: boolean; signIn: boolean }> {
    const answer = await this.call(() => this.client.registerCustomer(request, hashing(internalCallOptions(this.signer, on))));
    return { customer: answered('identity', answer.customer, 'a customer'), invited: answer.invited, signIn: answer.signIn };
  }

  async listCustomers(request: MessageInitShape<typeof ListCustomersRequestSchema>, on: OnBehalfOf): Promise<{ customers: Customer[]; total: number }> {
    const answer = await this.call(() => this.client.listCustomers(request, internalCallOptions(this.signer, on)));
    return { customers: answer.customers, total: answer.total };
  }

  /** Rejects with identity's not_found when the user is no customer of the platform. */
  async getCustomer(platformWorkspaceId: string, userId: string, on: OnBehalfOf): Promise<Customer> {
    const answer = await this.call(() => this.client.getCustomer({ platformWorkspaceId, userId }, internalCallOptions(this.signer, on)));
    return answered('identity', answer.customer, 'a customer');
  }

  /** `resource`: the RFC 8707 resource the tokens are bound to. */
  async issueUserTokens(workspaceId: string, userId: string, resource: string, on: OnBehalfOf): Promise<IssueUserTokensResponse> {
    return this.call(() => this.client.issueUserTokens({ workspaceId, userId, resource }, internalCallOptions(this.signer, on)));
  }

  /** How many access and refresh tokens stopped working. */
  async revokeUserCredentials(workspaceId: string, userId: string, on: OnBehalfOf): Promise<number> {
    const answer = await this.call(() => this.client.revokeUserCredentials({ workspaceId, userId }, internalCallOptions(this.signer, on)));
    return answer.revokedTokens;
  }

  async setInitialPassword(userId: string, password: string, on: OnBehalfOf): Promise<void> {
    await this.call(() => this.client.setInitialPassword({ userId, password }, hashing(internalCallOptions(this.signer, on))));
  }

  /** Activates an invited member that chose its first password, or proved the one it has. */
  async acceptMembership(workspaceId: string, userId: string, password: string, on: OnBehalfOf): Promise<void> {
    await this.call(() => this.client.acceptMembership({ workspaceId, userId, password }, hashing(internalCallOptions(this.signer, on))));
  }

  /** Signs in within the realm of the platform `realmWorkspaceId` (empty: the root platform's). */
  async verifyPassword(email: string, password: string, realmWorkspaceId: string, on: OnBehalfOf): Promise<VerifyPasswordResponse> {
    return this.call(() => this.client.verifyPassword({ email, password, realmWorkspaceId }, hashing(internalCallOptions(this.signer, on))));
  }

  /** The members of the workspace `on` names, a page of them. */
  async listMembers(page: { limit: number; offset: number }, on: OnBehalfOf): Promise<{ members: Member[]; total: number }> {
    return this.call(() => this.client.listMembers(page, internalCallOptions(this.signer, on)));
  }

  async setWorkspaceStatus(workspaceId: string, status: 'active' | 'suspended', on: OnBehalfOf): Promise<Workspace> {
    const answer = await this.call(() => this.client.setWorkspaceStatus({ workspaceId, status }, internalCallOptions(this.signer, on)));
    return answered('identity', answer.workspace, 'a workspace');
  }

  private call<T>(call: () => Promise<T>): Promise<T> {
    return callDownstream('identity', call);
  }
}
