// Tier 3: the tools service on a real server (port 0, loopback) with a real HTTP/2 client: what
// crosses the wire (signed callers, error details, concurrent calls on one connection) and a clean close.
import { Code, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { newId } from '@voice/runtime/ids';
import { failure, setup, type ToolsTier } from './harness.js';

let tier: ToolsTier;
beforeAll(async () => {
  tier = await setup('server');
});
afterAll(() => tier.close());

test('a tool is created, read, updated and deleted over HTTP/2, its config intact', async () => {
  const workspace = tier.inWorkspace(newId());
  const config = { url: 'https://api.example.com/lookup', method: 'POST' };
  const created = (await tier.client.createTool({ name: 'lookup', type: 'api', config }, workspace)).tool!;
  expect((await tier.client.getTool({ id: created.id }, workspace)).tool).toMatchObject({ id: created.id, name: 'lookup', revision: created.revision, config });
  const updated = (await tier.client.updateTool({ id: created.id, expectedRevision: created.revision, description: 'looks things up' }, workspace)).tool!;
  expect(updated).toMatchObject({ description: 'looks things up', revision: created.revision + 1 });
  await tier.client.deleteTool({ id: created.id }, workspace);
  expect(await failure(tier.client.getTool({ id: created.id }, workspace))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
});

test('unsigned calls, bad input and another workspace’s tool are refused with their reasons', async () => {
  expect((await failure(tier.client.listTools({}))).code).toBe(Code.Unauthenticated);
  const workspace = tier.inWorkspace(newId());
  expect(await failure(tier.client.createTool({ name: '9lives', type: 'api', config: { url: 'nope' } }, workspace))).toMatchObject({
    code: Code.InvalidArgument,
    reason: 'invalid_request',
    fields: [{ field: 'name', issue: expect.any(String) }],
  });
  const theirs = (await tier.client.createTool({ name: 'theirs', type: 'builtin', config: { type: 'end_call' } }, tier.inWorkspace(newId()))).tool!;
  expect(await failure(tier.client.deleteTool({ id: theirs.id }, workspace))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
});

test('concurrent creations over one connection each get a tool of their own, and one name only once', async () => {
  const workspace = tier.inWorkspace(newId());
  const created = await Promise.all(
    Array.from({ length: 8 }, (_, i) => tier.client.createTool({ name: `tool_${i}`, type: 'builtin', config: { type: 'end_call' } }, workspace)),
  );
  expect(new Set(created.map((answer) => answer.tool!.id)).size).toBe(8);
  const sameName = await Promise.allSettled(
    Array.from({ length: 4 }, () => tier.client.createTool({ name: 'only_once', type: 'builtin', config: { type: 'end_call' } }, workspace)),
  );
  expect(sameName.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  expect((await tier.client.listTools({}, workspace)).total).toBe(9);
});

test('after close the port is free and a new client reaches nothing', async () => {
  const closing = await setup('server');
  const workspace = closing.inWorkspace(newId());
  expect((await closing.client.listTools({}, workspace)).total).toBe(0);
  await closing.close();
  const client = createClient(ToolsService, createConnectTransport({ baseUrl: closing.url!, httpVersion: '2' }));
  expect((await failure(client.listTools({}, workspace))).message).toMatch(/ECONNREFUSED/);
});
