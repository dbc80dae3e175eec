// RegisterCustomer, ListCustomers and GetCustomer for the platform-users service: a platform's
// customers are the owners of the workspaces under the platform's workspace.
import { isPlan } from '@voice/runtime/access';
import { defaultName, emailIssue, nameIssue, normaliseEmail, passwordIssue } from '@voice/runtime/accounts';
import { invalidRequest, notFound, type FieldIssue } from '@voice/runtime/errors';
import { isUuid, newId } from '@voice/runtime/ids';
import { normalisePage } from '@voice/runtime/validation';
import type { GetCustomerRequest, ListCustomersRequest, RegisterCustomerRequest } from '@voice/proto/voice/identity/v1/identity';
import type { PasswordHasher } from '../users/passwords.js';
import { presentCustomer } from '../presenter.js';
import type { CustomerStore, MembershipRecord, MemberStore, UserRecord, WorkspaceKeyStore, WorkspaceRecord } from '../store/store.js';

/** As long as the longest e-mail: a longer query can match nothing. */
const maxQueryLength = 254;

export class Customers {
  constructor(private readonly deps: { store: CustomerStore & MemberStore & WorkspaceKeyStore; passwords: PasswordHasher; now: () => Date }) {}

  async register(request: RegisterCustomerRequest, signal?: AbortSignal) {
    const { store } = this.deps;
    const email = normaliseEmail(request.email);
    const givenName = request.name.trim();
    const name = givenName || defaultName(request.email.trim());
    const workspaceName = request.workspaceName.trim() || name;
    const platform = isUuid(request.platformWorkspaceId) ? await store.getWorkspace(request.platformWorkspaceId) : undefined;
    const issues: FieldIssue[] = [];
    if (!platform) issues.push({ field: 'platform_workspace_id', issue: 'must name an existing workspace' });
    const problems: [string, string | undefined][] = [
      ['email', emailIssue(email)],
      ['name', nameIssue(givenName)],
      ['password', request.password ? passwordIssue(request.password) : undefined],
      ['plan', isPlan(request.plan) ? undefined : 'must be starter, pro or enterprise'],
      ['workspace_name', nameIssue(workspaceName)],
    ];
    for (const [field, issue] of problems) if (issue) issues.push({ field, issue });
    if (issues.length > 0 || !platform) throw invalidRequest(issues);
    // A platform's customers are users of its realm. An e-mail that has a user there gets the new
    // workspace as an invitation that user accepts with its own password: the given password is
    // not applied (nor hashed), and the answer shows only what the request gave.
    const realmId = platform.id;
    const existing = await store.findUserByEmail(realmId, email);
    const passwordHash = request.password && !existing ? await this.deps.passwords.hash(request.password, signal) : null;
    const createdAt = this.deps.now().toISOString();
    const user: UserRecord = { id: newId(), realmId, email, name, passwordHash, createdAt };
    const workspace: WorkspaceRecord = { id: newId(), name: workspaceName, plan: request.plan, status: 'active', parentWorkspaceId: platform.id, createdAt };
    const membership: MembershipRecord = { workspaceId: workspace.id, userId: user.id, role: 'owner', status: 'active', createdAt };
    const outcome = await store.registerCustomer(user, workspace, membership);
    if (outcome.kind === 'registered') return { customer: presentCustomer({ user, workspaces: [{ workspace, role: membership.role }] }), invited: false, signIn: false };
    const invitee = await store.getUser(outcome.userId);
    const shown = { ...user, id: outcome.userId, passwordHash: null };
    return { customer: presentCustomer({ user: shown, workspaces: [{ workspace, role: membership.role }] }), invited: true, signIn: Boolean(invitee?.passwordHash) };
  }

  async list(request: ListCustomersRequest) {
    const query = request.query.trim();
    if (query.length > maxQueryLength) throw invalidRequest([{ field: 'query', issue: `must be at most ${maxQueryLength} characters` }]);
    if (!isUuid(request.platformWorkspaceId)) return { customers: [], total: 0 };
    const { customers, total } = await this.deps.store.listCustomers(request.platformWorkspaceId, query, normalisePage(request));
    return { customers: customers.map(presentCustomer), total };
  }

  async get(request: GetCustomerRequest) {
    const customer =
      isUuid(request.platformWorkspaceId) && isUuid(request.userId)
        ? await this.deps.store.getCustomer(request.platformWorkspaceId, request.userId)
        : undefined;
    if (!customer) throw notFound('customer');
    return { customer: presentCustomer(customer) };
  }
}
