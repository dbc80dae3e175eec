// /tools: the Tools API (SPEC.md 2.2-2.4, 3, 4.1; API.md 7).
import { createToolBodySchema, listToolsQuerySchema, testToolBodySchema, updateToolBodySchema } from '@voice/tools/schema';
import type { RestRouter } from './router.js';
import { callOptions, type RestDeps } from './deps.js';
import { deletedOf, listOf, presentTestResult, presentTool } from './presenters.js';
import { idempotencyKeyOf, pageOf, parseBody, parseQuery } from './validate.js';

export function registerToolRoutes(rest: RestRouter, deps: RestDeps): void {
  const tools = deps.clients.tools;

  rest.route('get', '/tools', { scope: 'assistants:read' }, async (req, res) => {
    const query = parseQuery(listToolsQuerySchema, req);
    const page = pageOf(query);
    const isActive = query.is_active === undefined ? undefined : query.is_active === 'true';
    const answer = await tools.listTools({ type: query.type, isActive, page }, callOptions(deps, res));
    res.json(listOf(answer.tools.map(presentTool), page, answer.total));
  });

  rest.route('post', '/tools', { scope: 'assistants:write' }, async (req, res) => {
    const idempotencyKey = idempotencyKeyOf(req);
    const body = parseBody(createToolBodySchema, req.body);
    const answer = await tools.createTool(
      { name: body.name, description: body.description ?? '', type: body.type, config: body.config, isActive: body.is_active, idempotencyKey },
      callOptions(deps, res),
    );
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json({ data: presentTool(answer.tool!) });
  });

  rest.route('get', '/tools/:id', { scope: 'assistants:read' }, async (req, res) => {
    const answer = await tools.getTool({ id: String(req.params.id) }, callOptions(deps, res));
    res.json({ data: presentTool(answer.tool!) });
  });

  rest.route('patch', '/tools/:id', { scope: 'assistants:write' }, async (req, res) => {
    const body = parseBody(updateToolBodySchema, req.body);
    const answer = await tools.updateTool(
      {
        id: String(req.params.id),
        expectedRevision: body.expected_revision,
        name: body.name,
        description: body.description,
        type: body.type,
        config: body.config,
        isActive: body.is_active,
      },
      callOptions(deps, res),
    );
    res.json({ data: presentTool(answer.tool!) });
  });

  rest.route('delete', '/tools/:id', { scope: 'assistants:write' }, async (req, res) => {
    const id = String(req.params.id);
    await tools.deleteTool({ id }, callOptions(deps, res));
    res.json(deletedOf(id));
  });

  rest.route('post', '/tools/:id/test', { scope: 'assistants:write' }, async (req, res) => {
    const body = parseBody(testToolBodySchema, req.body);
    const answer = await tools.testTool({ id: String(req.params.id), arguments: body.arguments ?? {} }, callOptions(deps, res));
    res.json({ data: presentTestResult(answer) });
  });
}
