// /api-keys: service-account keys (API.md 3). The subset rule is enforced by identity.
import { pageQuerySchema } from '@voice/runtime/validation';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import { apiKeySchema, createApiKeyBodySchema, createdApiKeySchema } from '@voice/contracts/identity';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { toolHints } from './operation.js';
import { deletedOf, listOf, presentApiKey } from './presenters.js';
import { pageOf } from './validate.js';

export function registerApiKeyRoutes(rest: RestRouter, deps: RestDeps): void {
  const identity = deps.clients.identity;

  rest.operation({
    method: 'get',
    path: '/api-keys',
    scope: 'settings:read',
    query: pageQuerySchema,
    doc: {
      id: 'listApiKeys',
      summary: 'The workspace’s service-account API keys, without their secrets',
      toolset: 'account',
      response: listOfSchema(apiKeySchema),
      mcp: { tool: 'list_api_keys', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await identity.listApiKeys(page, call.options);
      return { body: listOf(answer.apiKeys.map(presentApiKey), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/api-keys',
    scope: 'settings:write',
    body: createApiKeyBodySchema,
    doc: {
      id: 'createApiKey',
      summary: 'Create a service-account API key with the given scopes',
      description: 'The scopes must be within the caller’s own. The secret `key` is in this answer only: it cannot be read again.',
      toolset: 'account',
      status: 201,
      response: dataOf(createdApiKeySchema),
      mcp: { tool: 'create_api_key', annotations: toolHints.create },
    },
    handle: async (call) => {
      const answer = await identity.createApiKey(call.body, call.options);
      return { body: { data: { ...presentApiKey(answer.apiKey!), key: answer.key } } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/api-keys/:id',
    scope: 'settings:write',
    doc: {
      id: 'revokeApiKey',
      summary: 'Revoke an API key',
      description:
        'The key is refused (401) from the very next request, on every gateway. The root platform’s last key without scope restrictions cannot be revoked (409 `conflict`): an operator first registers another by restarting with a new `VOICE_ROOT_API_KEY`.',
      toolset: 'account',
      response: deletedSchema,
      mcp: { tool: 'revoke_api_key', annotations: toolHints.remove },
    },
    handle: async (call) => {
      const id = call.params.id;
      await identity.revokeApiKey({ id }, call.options);
      // Identity has announced the revocation; dropping it here too covers a bus that delivers late.
      deps.cache.invalidate({ credentialIds: [id], workspaceId: '' });
      return { body: deletedOf(id) };
    },
  });
}
