// /platform/users: a white-label platform's end-users (SPEC.md 4.3, API.md 5): list and search,
// register (preset password or invitation), detail with balances, tokens, login, logout, credit
// transfers and suspension. Platform scopes and the white_label feature.
import { emptyBodySchema } from '@voice/runtime/validation';
import {
  listPlatformUsersQuerySchema,
  loginPlatformUserBodySchema,
  registerPlatformUserBodySchema,
  setPlatformUserStatusBodySchema,
  transferCreditsBodySchema,
} from '@voice/contracts/platform-users';
import { dataOf, listOfSchema } from '@voice/contracts/responses';
import { logoutSchema, platformUserSchema, transferSchema, userTokenSchema } from '@voice/contracts/platform-users';
import { resourcesOf } from '../oauth/resources.js';
import { currentTenant } from '../tenants/tenant-context.js';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { replayHeaders, toolHints } from './operation.js';
import { presentPlatformUser, presentTransfer, presentUserToken, } from './platform-users-presenters.js';
import { listOf } from './presenters.js';
import { pageOf } from './validate.js';

/** Tokens are credentials: no cache may keep the answer. */
const noStore = { 'Cache-Control': 'no-store' };

export function registerPlatformUserRoutes(rest: RestRouter, deps: RestDeps): void {
  const users = deps.clients.platformUsers;
  const read = 'platform:read';
  const write = 'platform:write';
  const toolset = 'platform';

  rest.operation({
    method: 'get',
    path: '/platform/users',
    scope: read,
    feature: 'white_label',
    query: listPlatformUsersQuerySchema,
    doc: {
      id: 'listPlatformUsers',
      summary: 'The platform’s end-users, newest first; `q` matches e-mail or name',
      description: '`q` is a case-insensitive substring of the e-mail or name (`%` and `_` match themselves).',
      toolset,
      response: listOfSchema(platformUserSchema),
      mcp: { tool: 'list_platform_users', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await users.listPlatformUsers({ query: call.query.q ?? '', limit: page.limit, offset: page.offset }, call.options);
      return { body: listOf(answer.users.map(presentPlatformUser), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/platform/users',
    scope: write,
    feature: 'white_label',
    body: registerPlatformUserBodySchema,
    doc: {
      id: 'registerPlatformUser',
      summary: 'Register an end-user with a workspace of their own under the platform',
      description:
        'The user owns a new workspace named after them, on `plan` (default `starter`, never above the platform’s own). Without `password` an invitation is e-mailed. The user belongs to the platform’s realm: the same e-mail under another platform (or the root platform) is another user with its own password. An e-mail that already has a user in this platform’s realm is never given `password`: that user is e-mailed an invitation to own the new workspace, which they accept by signing in with their own password; the answer carries the user’s id, the `name` sent and `invitation_status: pending`, and the workspace appears in the user’s detail once accepted.',
      toolset,
      status: 201,
      response: dataOf(platformUserSchema),
      mcp: { tool: 'register_platform_user', annotations: toolHints.create },
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await users.registerPlatformUser({ email: body.email, name: body.name, password: body.password ?? '', plan: body.plan ?? '' }, call.options);
      return { body: { data: presentPlatformUser(answer.user!) } };
    },
  });

  // Registered before /platform/users/:user_id so "login" is never read as an id.
  rest.operation({
    method: 'post',
    path: '/platform/users/login',
    scope: write,
    feature: 'white_label',
    body: loginPlatformUserBodySchema,
    doc: {
      id: 'loginPlatformUser',
      summary: 'Sign an end-user in with e-mail and password; answers their tokens',
      description:
        'Signs in within the platform’s realm: a wrong password, an unknown e-mail and another platform’s user (even with the same e-mail) are the same 401. A suspended user is 409 `conflict`. On a tenant’s custom domain only that tenant’s users are found. Answered with `Cache-Control: no-store`.',
      toolset,
      response: dataOf(userTokenSchema),
    },
    handle: async (call) => {
      const answer = await users.loginPlatformUser(
        {
          email: call.body.email,
          password: call.body.password,
          tenantWorkspaceId: currentTenant()?.workspaceId ?? '',
          resource: resourcesOf(deps.publicUrl()).api,
        },
        call.options,
      );
      return { body: { data: presentUserToken(answer.tokens!) }, headers: noStore };
    },
  });

  rest.operation({
    method: 'get',
    path: '/platform/users/:user_id',
    scope: read,
    feature: 'white_label',
    doc: {
      id: 'getPlatformUser',
      summary: 'An end-user with each workspace’s balance',
      toolset,
      response: dataOf(platformUserSchema),
      mcp: { tool: 'get_platform_user', annotations: toolHints.read },
    },
    handle: async (call) => {
      const answer = await users.getPlatformUser({ userId: call.params.user_id }, call.options);
      return { body: { data: presentPlatformUser(answer.user!) } };
    },
  });

  rest.operation({
    method: 'patch',
    path: '/platform/users/:user_id',
    scope: write,
    feature: 'white_label',
    body: setPlatformUserStatusBodySchema,
    doc: {
      id: 'setPlatformUserStatus',
      summary: 'Suspend or reactivate an end-user',
      description:
        'Suspending suspends the user’s workspaces under the platform and revokes every credential of them, API keys included; reactivating revives none. A suspended workspace that is a white-label platform takes its own end-users (every workspace under it) with it from the next request, without changing them: reactivating it brings their credentials back as they were.',
      toolset,
      response: dataOf(platformUserSchema),
    },
    handle: async (call) => {
      const answer = await users.setPlatformUserStatus({ userId: call.params.user_id, status: call.body.status }, call.options);
      return { body: { data: presentPlatformUser(answer.user!) } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/platform/users/:user_id/token',
    scope: write,
    feature: 'white_label',
    body: emptyBodySchema,
    doc: {
      id: 'createPlatformUserToken',
      summary: 'Issue tokens for an end-user, to act as them',
      description: 'Takes no fields. Answered with `Cache-Control: no-store`.',
      toolset,
      status: 201,
      response: dataOf(userTokenSchema),
      mcp: { tool: 'create_platform_user_token', annotations: toolHints.create },
    },
    handle: async (call) => {
      const answer = await users.issuePlatformUserToken({ userId: call.params.user_id, resource: resourcesOf(deps.publicUrl()).api }, call.options);
      return { body: { data: presentUserToken(answer.tokens!) }, headers: noStore };
    },
  });

  rest.operation({
    method: 'post',
    path: '/platform/users/:user_id/logout',
    scope: write,
    feature: 'white_label',
    body: emptyBodySchema,
    doc: {
      id: 'logoutPlatformUser',
      summary: 'Sign an end-user out everywhere',
      description:
        'Takes no fields. Every OAuth token, refresh token and unused authorization code of the user in its workspaces under the platform is revoked; API keys the user created keep working.',
      toolset,
      response: dataOf(logoutSchema),
      mcp: { tool: 'logout_platform_user', annotations: toolHints.remove },
    },
    handle: async (call) => {
      const userId = call.params.user_id;
      const answer = await users.logoutPlatformUser({ userId }, call.options);
      return { body: { data: { user_id: userId, revoked_tokens: answer.revokedTokens } } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/platform/users/:user_id/balance',
    scope: write,
    feature: 'white_label',
    body: transferCreditsBodySchema,
    idempotent: true,
    doc: {
      id: 'transferPlatformCredits',
      summary: 'Move credits from the platform’s wallet to an end-user’s (or back, with a negative amount)',
      description:
        'Either wallet going below zero is 409 `conflict` and nothing moves. With an `Idempotency-Key` a retry answers the first result with `Idempotent-Replayed: true`; the same key with another body is 409.',
      toolset,
      status: 201,
      response: dataOf(transferSchema),
      mcp: { tool: 'transfer_platform_credits', annotations: toolHints.create },
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await users.transferPlatformCredits(
        { userId: call.params.user_id, creditUnits: BigInt(body.amount), description: body.description ?? '', idempotencyKey: call.idempotencyKey },
        call.options,
      );
      return { body: { data: presentTransfer(answer) }, headers: replayHeaders(answer.replayed) };
    },
  });
}
