// /platform/users: a white-label platform's end-users (SPEC.md 4.3, API.md 5): list and search,
// register (preset password or invitation), detail with balances, tokens, login, logout, credit
// transfers and suspension. Platform scopes and the white_label feature.
import {
  emptyBodySchema,
  listPlatformUsersQuerySchema,
  loginPlatformUserBodySchema,
  registerPlatformUserBodySchema,
  setPlatformUserStatusBodySchema,
  transferCreditsBodySchema,
} from '@voice/platform-users/schema';
import { requireFeature } from '../middleware/require-feature.js';
import { currentTenant } from '../tenants/tenant-context.js';
import type { RestRouter } from './router.js';
import { callOptions, type RestDeps } from './deps.js';
import { presentPlatformUser, presentTransfer, presentUserToken } from './platform-users-presenters.js';
import { listOf } from './presenters.js';
import { idempotencyKeyOf, pageOf, parseBody, parseQuery } from './validate.js';

export function registerPlatformUserRoutes(rest: RestRouter, deps: RestDeps): void {
  const users = deps.clients.platformUsers;
  const gates = [requireFeature('white_label')];
  const read = { scope: 'platform:read', gates };
  const write = { scope: 'platform:write', gates };

  rest.route('get', '/platform/users', read, async (req, res) => {
    const query = parseQuery(listPlatformUsersQuerySchema, req);
    const page = pageOf(query);
    const answer = await users.listPlatformUsers({ query: query.q ?? '', limit: page.limit, offset: page.offset }, callOptions(deps, res));
    res.json(listOf(answer.users.map(presentPlatformUser), page, answer.total));
  });

  rest.route('post', '/platform/users', write, async (req, res) => {
    const body = parseBody(registerPlatformUserBodySchema, req.body);
    const answer = await users.registerPlatformUser(
      { email: body.email, name: body.name, password: body.password ?? '', plan: body.plan ?? '' },
      callOptions(deps, res),
    );
    res.status(201).json({ data: presentPlatformUser(answer.user!) });
  });

  // Registered before /platform/users/:id so "login" is never read as an id.
  rest.route('post', '/platform/users/login', write, async (req, res) => {
    const body = parseBody(loginPlatformUserBodySchema, req.body);
    const answer = await users.loginPlatformUser(
      { email: body.email, password: body.password, tenantWorkspaceId: currentTenant()?.workspaceId ?? '' },
      callOptions(deps, res),
    );
    res.setHeader('Cache-Control', 'no-store');
    res.json({ data: presentUserToken(answer.tokens!) });
  });

  rest.route('get', '/platform/users/:id', read, async (req, res) => {
    const answer = await users.getPlatformUser({ userId: String(req.params.id) }, callOptions(deps, res));
    res.json({ data: presentPlatformUser(answer.user!) });
  });

  rest.route('patch', '/platform/users/:id', write, async (req, res) => {
    const body = parseBody(setPlatformUserStatusBodySchema, req.body);
    const answer = await users.setPlatformUserStatus({ userId: String(req.params.id), status: body.status }, callOptions(deps, res));
    res.json({ data: presentPlatformUser(answer.user!) });
  });

  rest.route('post', '/platform/users/:id/token', write, async (req, res) => {
    parseBody(emptyBodySchema, req.body);
    const answer = await users.issuePlatformUserToken({ userId: String(req.params.id) }, callOptions(deps, res));
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ data: presentUserToken(answer.tokens!) });
  });

  rest.route('post', '/platform/users/:id/logout', write, async (req, res) => {
    parseBody(emptyBodySchema, req.body);
    const userId = String(req.params.id);
    const answer = await users.logoutPlatformUser({ userId }, callOptions(deps, res));
    res.json({ data: { user_id: userId, revoked_tokens: answer.revokedTokens } });
  });

  rest.route('post', '/platform/users/:id/balance', write, async (req, res) => {
    const idempotencyKey = idempotencyKeyOf(req);
    const body = parseBody(transferCreditsBodySchema, req.body);
    const answer = await users.transferPlatformCredits(
      { userId: String(req.params.id), creditUnits: BigInt(body.amount), description: body.description ?? '', idempotencyKey },
      callOptions(deps, res),
    );
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json({ data: presentTransfer(answer) });
  });
}
