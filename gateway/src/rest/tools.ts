// /tools: the Tools API (SPEC.md 2.2-2.4, 3, 4.1; API.md 7).
import {
  createToolBodySchema,
  createToolDocumentedBodySchema,
  listToolsQuerySchema,
  testResultSchema,
  testToolBodySchema,
  toolSchema,
  updateToolBodySchema,
  updateToolDocumentedBodySchema,
} from '@voice/contracts/tools';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { replayHeaders } from './operation.js';
import { deletedOf, listOf, presentTestResult, presentTool, } from './presenters.js';
import { pageOf } from './validate.js';

export function registerToolRoutes(rest: RestRouter, deps: RestDeps): void {
  const tools = deps.clients.tools;

  rest.operation({
    method: 'get',
    path: '/tools',
    scope: 'assistants:read',
    query: listToolsQuerySchema,
    doc: { id: 'listTools', summary: 'The workspace’s tools, optionally by type and active state', toolset: 'assistants', response: listOfSchema(toolSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const isActive = call.query.is_active === undefined ? undefined : call.query.is_active === 'true';
      const answer = await tools.listTools({ type: call.query.type, isActive, page }, call.options);
      return { body: listOf(answer.tools.map(presentTool), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/tools',
    scope: 'assistants:write',
    body: createToolBodySchema,
    idempotent: true,
    doc: {
      id: 'createTool',
      requestBody: createToolDocumentedBodySchema,
      summary: 'Create a tool (api, mcp or builtin) with its configuration',
      description:
        '`config` is validated by `type` and shown with its defaults applied; a builtin `assistant_transfer` must name an assistant of the workspace. With an `Idempotency-Key` a retry answers 201 with the first body and `Idempotent-Replayed: true`.',
      toolset: 'assistants',
      status: 201,
      response: dataOf(toolSchema),
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await tools.createTool(
        { name: body.name, description: body.description ?? '', type: body.type, config: body.config, isActive: body.is_active, idempotencyKey: call.idempotencyKey },
        call.options,
      );
      return { body: { data: presentTool(answer.tool!) }, headers: replayHeaders(answer.replayed) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/tools/:id',
    scope: 'assistants:read',
    doc: { id: 'getTool', summary: 'A tool with its configuration, secrets masked', toolset: 'assistants', response: dataOf(toolSchema) },
    handle: async (call) => {
      const answer = await tools.getTool({ id: call.params.id }, call.options);
      return { body: { data: presentTool(answer.tool!) } };
    },
  });

  rest.operation({
    method: 'patch',
    path: '/tools/:id',
    scope: 'assistants:write',
    body: updateToolBodySchema,
    doc: {
      id: 'updateTool',
      requestBody: updateToolDocumentedBodySchema,
      summary: 'Change a tool’s fields',
      description:
        '`expected_revision` must be the tool’s current `revision` (409 otherwise). Sending the mask `•••` keeps a stored secret only while its destination stays the same.',
      toolset: 'assistants',
      response: dataOf(toolSchema),
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await tools.updateTool(
        {
          id: call.params.id,
          expectedRevision: body.expected_revision,
          name: body.name,
          description: body.description,
          type: body.type,
          config: body.config,
          isActive: body.is_active,
        },
        call.options,
      );
      return { body: { data: presentTool(answer.tool!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/tools/:id',
    scope: 'assistants:write',
    doc: { id: 'deleteTool', summary: 'Delete a tool', toolset: 'assistants', response: deletedSchema },
    handle: async (call) => {
      const id = call.params.id;
      await tools.deleteTool({ id }, call.options);
      return { body: deletedOf(id) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/tools/:id/test',
    scope: 'assistants:write',
    body: testToolBodySchema,
    doc: {
      id: 'testTool',
      summary: 'Run an api tool once with the given arguments, or list an mcp tool’s server tools',
      description:
        'Only globally reachable destinations are called (the IANA IPv4 and IPv6 special-purpose address registries decide, after DNS resolution): loopback, private, shared, link-local, documentation, reserved, multicast and metadata addresses, IPv4-mapped and translated forms of them, and the platform host\'s own addresses are 403 `destination_forbidden` and nothing is sent, unless the operator set `VOICE_EGRESS_ALLOW_PRIVATE`. A request that gets no usable answer is a 200 whose `error.code` is `unreachable`, `timeout`, `tls_error`, `dns_error` or `bad_response` (the network detail is only in the platform\'s log). Builtin tools cannot be tested (400).',
      toolset: 'assistants',
      response: dataOf(testResultSchema),
    },
    handle: async (call) => {
      const answer = await tools.testTool({ id: call.params.id, arguments: call.body.arguments ?? {} }, call.options);
      return { body: { data: presentTestResult(answer) } };
    },
  });
}
