// GET /me: the caller as the gateway authenticated it; needs no scope.
import { authOf } from '../auth/auth-context.js';
import type { RestRouter } from './router.js';

export function registerMeRoutes(rest: RestRouter): void {
  rest.route('get', '/me', {}, async (_req, res) => {
    const auth = authOf(res);
    res.json({ data: { principal: auth.principal, workspace: auth.workspace, scopes: auth.scopes } });
  });
}
