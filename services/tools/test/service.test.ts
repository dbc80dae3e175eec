// Tier 2: the tools service's routes over an in-memory Connect transport, with the real
// signed-caller interceptor, SQLite store, secret box and runner (private egress refused).
import { Code } from '@connectrpc/connect';
import { newId } from '@voice/runtime/ids';
import { failure, setup, type ToolsTier } from './harness.js';

let tier: ToolsTier;
let client: ToolsTier['client'];
let inWorkspace: ToolsTier['inWorkspace'];
beforeAll(async () => {
  tier = await setup();
  ({ client, inWorkspace } = tier);
});
afterAll(() => tier.close());

test('every call needs a signed caller naming a workspace', async () => {
  expect((await failure(client.listTools({}))).code).toBe(Code.Unauthenticated);
  const refused = await failure(client.listTools({}, tier.internal));
  expect(refused.reason).toBe('unauthorized');
});

test('errors carry the public reason and the field violations', async () => {
  const workspace = inWorkspace(newId());
  const invalid = await failure(client.createTool({ name: '9lives', type: 'api', config: { url: 'nope' } }, workspace));
  expect(invalid.code).toBe(Code.InvalidArgument);
  expect(invalid).toMatchObject({ reason: 'invalid_request', fields: [{ field: 'name', issue: expect.any(String) }] });
  const created = await client.createTool({ name: 'ok', type: 'api', config: { url: 'https://a.example' } }, workspace);
  const stale = await failure(client.updateTool({ id: created.tool!.id, expectedRevision: 7, description: 'x' }, workspace));
  expect([stale.code, stale.reason]).toEqual([Code.Aborted, 'revision_conflict']);
  const duplicate = await failure(client.createTool({ name: 'ok', type: 'api', config: { url: 'https://a.example' } }, workspace));
  expect([duplicate.code, duplicate.reason]).toEqual([Code.FailedPrecondition, 'conflict']);
});

test('a tool of one workspace does not exist for another', async () => {
  const created = await client.createTool({ name: 'mine', type: 'builtin', config: { type: 'end_call' } }, inWorkspace(newId()));
  const other = inWorkspace(newId());
  expect((await failure(client.getTool({ id: created.tool!.id }, other))).code).toBe(Code.NotFound);
  expect((await failure(client.deleteTool({ id: created.tool!.id }, other))).code).toBe(Code.NotFound);
  expect((await client.listTools({}, other)).total).toBe(0);
});

test('a test run towards a private address is refused with destination_forbidden', async () => {
  const workspace = inWorkspace(newId());
  const created = await client.createTool({ name: 'local', type: 'api', config: { url: 'http://127.0.0.1:9/x' } }, workspace);
  const refused = await failure(client.testTool({ id: created.tool!.id }, workspace));
  expect([refused.code, refused.reason]).toEqual([Code.PermissionDenied, 'destination_forbidden']);
});
