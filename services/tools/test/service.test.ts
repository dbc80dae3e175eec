// The tools service's routes over an in-memory Connect transport, with the real signed-caller
// interceptor, SQLite store, secret box and runner (private egress refused).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Code, ConnectError, createClient, createRouterTransport } from '@connectrpc/connect';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { callHeaders, CallerSigner } from '@voice/runtime/caller';
import { SecretBox } from '@voice/runtime/crypto';
import { errorDetailOf } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { callerInterceptor } from '@voice/runtime/server';
import { ToolSecrets } from '@voice/contracts/tool-secrets';
import { toolsRoutes } from '../src/routes.js';
import { createToolRunner } from '../src/runner.js';
import { SqliteToolStore } from '../src/store/sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'tools-service-'));
const store = new SqliteToolStore(join(dir, 'tools.sqlite'));
const signer = new CallerSigner(randomBytes(32));
const logger = createLogger({ service: 'tools-test', level: 'silent' });
const client = createClient(
  ToolsService,
  createRouterTransport(
    toolsRoutes({ store, secrets: new ToolSecrets(new SecretBox(randomBytes(32))), runner: createToolRunner({ allowPrivate: false }) }),
    { router: { interceptors: [callerInterceptor(signer, logger)] } },
  ),
);
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const inWorkspace = (workspaceId: string) => ({
  headers: callHeaders(signer, { workspaceId, principal: { type: 'service_account', id: 'k', name: 'k' }, scopes: null, requestId: 'r' }),
});

async function failure(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error('the call succeeded');
}

test('every call needs a signed caller naming a workspace', async () => {
  expect((await failure(client.listTools({}))).code).toBe(Code.Unauthenticated);
  const noWorkspace = { headers: callHeaders(signer, { workspaceId: '', principal: { type: 'internal', id: 'x', name: 'x' }, scopes: null, requestId: 'r' }) };
  const refused = await failure(client.listTools({}, noWorkspace));
  expect(errorDetailOf(refused).reason).toBe('unauthorized');
});

test('errors carry the public reason and the field violations', async () => {
  const workspace = inWorkspace(newId());
  const invalid = await failure(client.createTool({ name: '9lives', type: 'api', config: { url: 'nope' } }, workspace));
  expect(invalid.code).toBe(Code.InvalidArgument);
  expect(errorDetailOf(invalid)).toEqual({ reason: 'invalid_request', fields: [{ field: 'name', issue: expect.any(String) }] });
  const created = await client.createTool({ name: 'ok', type: 'api', config: { url: 'https://a.example' } }, workspace);
  const stale = await failure(client.updateTool({ id: created.tool!.id, expectedRevision: 7, description: 'x' }, workspace));
  expect([stale.code, errorDetailOf(stale).reason]).toEqual([Code.Aborted, 'revision_conflict']);
  const duplicate = await failure(client.createTool({ name: 'ok', type: 'api', config: { url: 'https://a.example' } }, workspace));
  expect([duplicate.code, errorDetailOf(duplicate).reason]).toEqual([Code.FailedPrecondition, 'conflict']);
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
  expect([refused.code, errorDetailOf(refused).reason]).toEqual([Code.PermissionDenied, 'destination_forbidden']);
});
