// GET /me: the caller as the gateway authenticated it; needs no scope.
import { z } from 'zod';
import { features, plans } from '@voice/runtime/access';
import type { AuthContext } from '../auth/auth-context.js';
import { toolHints } from './operation.js';
import type { RestRouter } from './router.js';
import { dataOf, idSchema, oneOf, timeSchema } from './responses.js';

const workspaceStatuses = ['active', 'suspended'] as const;

export const meSchema = z.object({
  principal: z.object({
    type: z.enum(['service_account', 'user']).describe('a service-account API key, or a user through an OAuth token'),
    id: idSchema,
    name: z.string(),
  }),
  workspace: z.object({
    id: idSchema,
    name: z.string(),
    plan: z.enum(plans),
    features: z.array(z.enum(features)).describe('the features of the plan'),
    white_label: z.boolean().describe('whether the plan includes white_label: the workspace may run a platform of its own users'),
    status: z.enum(workspaceStatuses),
    created_at: timeSchema.nullable(),
  }),
  scopes: z.array(z.string()).nullable().describe('the scopes granted; null when unrestricted (every scope)'),
});

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
