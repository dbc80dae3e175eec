// Authenticate, workspaces and service-account keys over the router transport (see harness.ts).
import { Code } from '@connectrpc/connect';
import { failure, setup } from './harness.js';

const codeOf = async (call: Promise<unknown>) => (await failure(call).catch(() => undefined))?.code;

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
  const { client, gateway, as, root, notices, store } = await setup();
  const inWorkspace = as({ workspaceId: root.workspace!.id, principal: { type: 'service_account', id: 'admin', name: 'admin' }, scopes: null });
  const created = await client.createApiKey({ name: 'temp', scopes: ['calls:read'] }, inWorkspace);
  expect((await client.authenticate({ credential: created.key }, gateway)).scopes).toEqual(['calls:read']);
  await client.revokeApiKey({ id: created.apiKey!.id }, inWorkspace);
  expect(notices.map((n) => n.credentialIds)).toEqual([[created.apiKey!.id]]);
  expect(await codeOf(client.authenticate({ credential: created.key }, gateway))).toBe(Code.Unauthenticated);
  await store.close();
});

test('a suspended workspace authenticates nobody; the root platform cannot be suspended', async () => {
  const { client, gateway, store, rootKey, root, as } = await setup();
  const workspace = await client.createWorkspace({ name: 'Acme', plan: 'pro', parentWorkspaceId: root.workspace!.id }, gateway);
  expect(workspace.workspace).toMatchObject({ name: 'Acme', plan: 'pro', features: ['mcp', 'automations', 'dashboards', 'simulations'] });
  const inAcme = as({ workspaceId: workspace.workspace!.id, principal: { type: 'internal', id: 'ops', name: 'ops' }, scopes: null });
  const { key } = await client.createApiKey({ name: 'acme', scopes: ['calls:read'] }, inAcme);
  await client.setWorkspaceStatus({ workspaceId: workspace.workspace!.id, status: 'suspended' }, gateway);
  expect(await codeOf(client.authenticate({ credential: key }, gateway))).toBe(Code.Unauthenticated);
  expect(await codeOf(client.setWorkspaceStatus({ workspaceId: root.workspace!.id, status: 'suspended' }, gateway))).toBe(Code.FailedPrecondition);
  expect((await client.authenticate({ credential: rootKey }, gateway)).unrestricted).toBe(true);
  await store.close();
});

test('suspending a workspace revokes every key and token of it in one go and announces the workspace', async () => {
  const h = await setup();
  const workspace = await h.newWorkspace();
  const other = await h.newWorkspace('Other');
  const keys = await Promise.all(['a', 'b'].map((name) => h.client.createApiKey({ name, scopes: ['calls:read'] }, h.serviceAccount(workspace.id))));
  const foreign = await h.client.createApiKey({ name: 'x', scopes: ['calls:read'] }, h.serviceAccount(other.id));
  const revokedKey = keys[1]!;
  await h.client.revokeApiKey({ id: revokedKey.apiKey!.id }, h.serviceAccount(workspace.id));
  h.notices.length = 0;

  const suspended = await h.client.setWorkspaceStatus({ workspaceId: workspace.id, status: 'suspended' }, h.gateway);
  expect(suspended.workspace).toMatchObject({ id: workspace.id, status: 'suspended' });
  expect(h.notices).toHaveLength(1);
  expect(h.notices[0]).toMatchObject({ workspaceId: workspace.id, credentialIds: [keys[0]!.apiKey!.id] });
  expect(await codeOf(h.client.authenticate({ credential: keys[0]!.key }, h.gateway))).toBe(Code.Unauthenticated);
  expect((await h.client.authenticate({ credential: foreign.key }, h.gateway)).workspace?.id).toBe(other.id);
  expect((await h.client.listApiKeys({ limit: 50, offset: 0 }, h.serviceAccount(workspace.id))).total).toBe(0);

  // Reactivation revives nothing: revoked stays revoked, and no notice is needed.
  const active = await h.client.setWorkspaceStatus({ workspaceId: workspace.id, status: 'active' }, h.gateway);
  expect(active.workspace?.status).toBe('active');
  expect(h.notices).toHaveLength(1);
  expect(await codeOf(h.client.authenticate({ credential: keys[0]!.key }, h.gateway))).toBe(Code.Unauthenticated);
  const fresh = await h.client.createApiKey({ name: 'new', scopes: ['calls:read'] }, h.serviceAccount(workspace.id));
  expect((await h.client.authenticate({ credential: fresh.key }, h.gateway)).workspace?.status).toBe('active');
  await h.store.close();
});

test('SetWorkspaceStatus is internal only and validates its input', async () => {
  const h = await setup();
  const workspace = await h.newWorkspace();
  expect(await codeOf(h.client.setWorkspaceStatus({ workspaceId: workspace.id, status: 'suspended' }, h.serviceAccount(workspace.id)))).toBe(Code.PermissionDenied);
  expect(await failure(h.client.setWorkspaceStatus({ workspaceId: workspace.id, status: 'frozen' }, h.gateway))).toMatchObject({
    code: Code.InvalidArgument,
    fields: [{ field: 'status', issue: 'must be active or suspended' }],
  });
  expect(await codeOf(h.client.setWorkspaceStatus({ workspaceId: 'nope', status: 'suspended' }, h.gateway))).toBe(Code.NotFound);
  expect(await codeOf(h.client.setWorkspaceStatus({ workspaceId: '6f1c1d7e-9a5b-4c1e-8f00-123456789abc', status: 'suspended' }, h.gateway))).toBe(Code.NotFound);
  await h.store.close();
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
