// The identity service's routes over an in-memory Connect transport, with the real signed-caller
// interceptor, a real SQLite store and the in-process notifier.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { fromBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient, createRouterTransport } from '@connectrpc/connect';
import { CredentialsRevokedSchema, IdentityService } from '@voice/proto/voice/identity/v1/identity';
import {
  callerInterceptor,
  callHeaders,
  CallerSigner,
  createLogger,
  credentialsRevokedSubject,
  InProcessNotifier,
  type Caller,
} from '@voice/runtime';
import { bootstrapRoot } from '../src/bootstrap.js';
import { identityRoutes } from '../src/routes.js';
import { SqliteIdentityStore } from '../src/store/sqlite.js';

const logger = createLogger({ service: 'identity-test', level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'identity-service-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function setup() {
  const file = join(dir, `${Math.random()}.sqlite`);
  const store = new SqliteIdentityStore(file);
  const notifier = new InProcessNotifier();
  const signer = new CallerSigner(randomBytes(32));
  const announced: string[] = [];
  await bootstrapRoot(store, { rootApiKey: undefined, logger, announce: (line) => announced.push(line) });
  const transport = createRouterTransport(identityRoutes({ store, notifier }), { router: { interceptors: [callerInterceptor(signer, logger)] } });
  const client = createClient(IdentityService, transport);
  const as = (caller: Omit<Caller, 'requestId'>) => ({ headers: callHeaders(signer, { ...caller, requestId: 'test' }) });
  const gateway = as({ workspaceId: '', principal: { type: 'internal', id: 'gateway', name: 'gateway' }, scopes: null });
  const rootKey = /svc_\w+/.exec(announced[0] ?? '')![0];
  const root = await client.authenticate({ credential: rootKey }, gateway);
  return { file, store, notifier, client, as, gateway, rootKey, root, announced };
}

const codeOf = async (call: Promise<unknown>) => {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error).code;
  }
  return undefined;
};

test('bootstrap announces one generated root key; it authenticates as an unrestricted service account', async () => {
  const { announced, root, store } = await setup();
  expect(announced).toHaveLength(1);
  expect(root).toMatchObject({ unrestricted: true, scopes: [], principal: { type: 'service_account', name: 'root' }, cacheTtlSeconds: 60 });
  expect(root.workspace).toMatchObject({ plan: 'enterprise', whiteLabel: true, status: 'active', parentWorkspaceId: '' });
  await store.close();
});

test('Authenticate refuses unknown, malformed and access-token-shaped credentials, and non-internal callers', async () => {
  const { client, gateway, as, root, rootKey, store } = await setup();
  for (const credential of ['', 'svc_unknown0000000000000000000000000000000', 'svc_at_abc', 'Bearer x', 'x'.repeat(600)]) {
    expect(await codeOf(client.authenticate({ credential }, gateway))).toBe(Code.Unauthenticated);
  }
  const asKey = as({ workspaceId: root.workspace!.id, principal: { type: 'service_account', id: 'k', name: 'k' }, scopes: null });
  expect(await codeOf(client.authenticate({ credential: rootKey }, asKey))).toBe(Code.PermissionDenied);
  expect(await codeOf(client.authenticate({ credential: rootKey }))).toBe(Code.Unauthenticated);
  await store.close();
});

test('revoking a key announces it on the bus before the call returns', async () => {
  const { client, gateway, as, root, notifier, store } = await setup();
  const inWorkspace = as({ workspaceId: root.workspace!.id, principal: { type: 'service_account', id: 'admin', name: 'admin' }, scopes: null });
  const created = await client.createApiKey({ name: 'temp', scopes: ['calls:read'] }, inWorkspace);
  expect((await client.authenticate({ credential: created.key }, gateway)).scopes).toEqual(['calls:read']);
  const notices: string[][] = [];
  notifier.subscribe(credentialsRevokedSubject, (payload) => void notices.push(fromBinary(CredentialsRevokedSchema, payload).credentialIds));
  await client.revokeApiKey({ id: created.apiKey!.id }, inWorkspace);
  expect(notices).toEqual([[created.apiKey!.id]]);
  expect(await codeOf(client.authenticate({ credential: created.key }, gateway))).toBe(Code.Unauthenticated);
  await store.close();
});

test('a suspended workspace authenticates nobody', async () => {
  const { client, gateway, store, rootKey, root, file } = await setup();
  const workspace = await client.createWorkspace({ name: 'Acme', plan: 'pro', parentWorkspaceId: root.workspace!.id }, gateway);
  expect(workspace.workspace).toMatchObject({ name: 'Acme', plan: 'pro', features: ['mcp', 'automations', 'dashboards', 'simulations'] });
  // Suspension arrives with the members API; an operator's direct update stands in for it here.
  const operator = new Database(file);
  operator.prepare("UPDATE workspaces SET status = 'suspended' WHERE parent_workspace_id IS NULL").run();
  operator.close();
  expect(await codeOf(client.authenticate({ credential: rootKey }, gateway))).toBe(Code.Unauthenticated);
  await store.close();
});

test('CreateWorkspace validates plan and parent and is internal only', async () => {
  const { client, gateway, as, root, store } = await setup();
  expect(await codeOf(client.createWorkspace({ name: 'x', plan: 'platinum', parentWorkspaceId: root.workspace!.id }, gateway))).toBe(Code.InvalidArgument);
  expect(await codeOf(client.createWorkspace({ name: 'x', plan: 'pro', parentWorkspaceId: '6f1c1d7e-9a5b-4c1e-8f00-123456789abc' }, gateway))).toBe(Code.InvalidArgument);
  expect(await codeOf(client.createWorkspace({ name: ' ', plan: 'pro', parentWorkspaceId: root.workspace!.id }, gateway))).toBe(Code.InvalidArgument);
  const user = as({ workspaceId: root.workspace!.id, principal: { type: 'user', id: 'u', name: 'u' }, scopes: null });
  expect(await codeOf(client.createWorkspace({ name: 'x', plan: 'pro', parentWorkspaceId: root.workspace!.id }, user))).toBe(Code.PermissionDenied);
  await store.close();
});

test('GetWorkspace shows a caller only its own workspace', async () => {
  const { client, gateway, as, root, store } = await setup();
  const other = (await client.createWorkspace({ name: 'Other', plan: 'starter', parentWorkspaceId: root.workspace!.id }, gateway)).workspace!;
  const inOther = as({ workspaceId: other.id, principal: { type: 'service_account', id: 'k', name: 'k' }, scopes: null });
  expect((await client.getWorkspace({ id: other.id }, inOther)).workspace?.name).toBe('Other');
  expect(await codeOf(client.getWorkspace({ id: root.workspace!.id }, inOther))).toBe(Code.NotFound);
  expect((await client.getWorkspace({ id: root.workspace!.id }, gateway)).workspace?.plan).toBe('enterprise');
  await store.close();
});
