// Tier 3: the identity service on a real server (port 0, loopback) with a real HTTP/2 client: what
// crosses the wire (signed callers, error details, the revocation notice) and a clean close.
import { Code, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { failure, setup, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await setup({ tier: 'server' });
});
afterAll(() => h.close());

test('the root key authenticates; a new key works until it is revoked, and the revocation is announced', async () => {
  expect((await h.client.authenticate({ credential: h.rootKey }, h.gateway)).unrestricted).toBe(true);
  const workspace = await h.newWorkspace();
  const created = await h.client.createApiKey({ name: 'over http/2', scopes: ['calls:read'] }, h.serviceAccount(workspace.id));
  expect(await h.client.authenticate({ credential: created.key }, h.gateway)).toMatchObject({ scopes: ['calls:read'], workspace: { id: workspace.id } });
  h.notices.length = 0;
  await h.client.revokeApiKey({ id: created.apiKey!.id }, h.serviceAccount(workspace.id));
  expect(h.notices.map((notice) => notice.credentialIds)).toEqual([[created.apiKey!.id]]);
  expect((await failure(h.client.authenticate({ credential: created.key }, h.gateway))).code).toBe(Code.Unauthenticated);
});

test('unsigned calls, bad input and another workspace’s key are refused with their reasons', async () => {
  expect((await failure(h.client.authenticate({ credential: h.rootKey }))).code).toBe(Code.Unauthenticated);
  const workspace = await h.newWorkspace();
  expect(await failure(h.client.setWorkspaceStatus({ workspaceId: workspace.id, status: 'frozen' }, h.gateway))).toMatchObject({
    code: Code.InvalidArgument,
    reason: 'invalid_request',
    fields: [{ field: 'status', issue: 'must be active or suspended' }],
  });
  const other = await h.newWorkspace('Other');
  const key = await h.client.createApiKey({ name: 'theirs', scopes: ['calls:read'] }, h.serviceAccount(other.id));
  expect(await failure(h.client.revokeApiKey({ id: key.apiKey!.id }, h.serviceAccount(workspace.id)))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  expect((await h.client.authenticate({ credential: key.key }, h.gateway)).workspace?.id).toBe(other.id);
});

test('concurrent key creations over one connection each get a key of their own', async () => {
  const workspace = await h.newWorkspace();
  const created = await Promise.all(Array.from({ length: 8 }, (_, i) => h.client.createApiKey({ name: `key ${i}`, scopes: ['calls:read'] }, h.serviceAccount(workspace.id))));
  expect(new Set(created.map((answer) => answer.apiKey!.id)).size).toBe(8);
  expect((await h.client.listApiKeys({ limit: 50, offset: 0 }, h.serviceAccount(workspace.id))).total).toBe(8);
});

test('after close the port is free and a new client reaches nothing', async () => {
  const closing = await setup({ tier: 'server' });
  expect((await closing.client.authenticate({ credential: closing.rootKey }, closing.gateway)).unrestricted).toBe(true);
  await closing.close();
  const client = createClient(IdentityService, createConnectTransport({ baseUrl: closing.url!, httpVersion: '2' }));
  expect((await failure(client.authenticate({ credential: closing.rootKey }, closing.gateway))).message).toMatch(/ECONNREFUSED/);
});
