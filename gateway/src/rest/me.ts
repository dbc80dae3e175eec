// GET /me: the caller as the gateway authenticated it; needs no scope.
import type { z } from 'zod';
import { features, plans } from '@voice/runtime/access';
import { dataOf, oneOf } from '@voice/contracts/responses';
import { meSchema, workspaceStatuses } from '@voice/contracts/identity';
import type { AuthContext } from '../auth/auth-context.js';
import { toolHints } from './operation.js';
import type { RestRouter } from './router.js';

const presentMe = ({ principal, workspace, scopes }: AuthContext): z.infer<typeof meSchema> => ({
  principal,
  workspace: {
    ...workspace,
    plan: oneOf(plans, workspace.plan),
    features: workspace.features.map((feature) => oneOf(features, feature)),
    status: oneOf(workspaceStatuses, workspace.status),
  },
  scopes: scopes === null ? null : [...scopes],
});

export function registerMeRoutes(rest: RestRouter): void {
  rest.operation({
    method: 'get',
    path: '/me',
    doc: {
      id: 'getMe',
      summary: 'Who is calling: the principal, its workspace and the scopes granted',
      description: 'Any valid credential may call it; no scope is needed.',
      toolset: 'account',
      response: dataOf(meSchema),
      mcp: { tool: 'get_me', annotations: toolHints.read },
    },
    handle: async (call) => ({ body: { data: presentMe(call.auth) } }),
  });
}
