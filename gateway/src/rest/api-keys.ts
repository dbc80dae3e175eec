// /api-keys: service-account keys (API.md 3). The subset rule is enforced by identity.
import { z } from 'zod';
import { pageQuerySchema } from '@voice/runtime';
import type { RestRouter } from './router.js';
import { callOptions, type RestDeps } from './deps.js';
import { deletedOf, listOf, presentApiKey } from './presenters.js';
import { pageOf, parseBody, parseQuery } from './validate.js';

export const createApiKeyBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.string()).min(1, 'must list at least one scope').max(64),
});


export function registerApiKeyRoutes(rest: RestRouter, deps: RestDeps): void {
  const identity = deps.clients.identity;

  rest.route('get', '/api-keys', { scope: 'settings:read' }, async (req, res) => {
    const page = pageOf(parseQuery(pageQuerySchema, req));
    const answer = await identity.listApiKeys(page, callOptions(deps, res));
    res.json(listOf(answer.apiKeys.map(presentApiKey), page, answer.total));
  });

  rest.route('post', '/api-keys', { scope: 'settings:write' }, async (req, res) => {
    const body = parseBody(createApiKeyBodySchema, req.body);
    const answer = await identity.createApiKey(body, callOptions(deps, res));
    res.status(201).json({ data: { ...presentApiKey(answer.apiKey!), key: answer.key } });
  });

  rest.route('delete', '/api-keys/:id', { scope: 'settings:write' }, async (req, res) => {
    const id = String(req.params.id);
    await identity.revokeApiKey({ id }, callOptions(deps, res));
    // Identity has announced the revocation; dropping it here too covers a bus that delivers late.
    deps.cache.invalidate({ credentialIds: [id], workspaceId: '' });
    res.json(deletedOf(id));
  });
}
