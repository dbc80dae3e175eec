// Tier 2: the WebhooksService through Connect's router transport: endpoints with their secrets
// (sealed at rest, shown once, rotated), URL rules, pings and deliveries, settings, and another
// workspace's resources answering NotFound.
import { toJsonString } from '@bufbuild/protobuf';
import { Code } from '@connectrpc/connect';
import { GetEndpointResponseSchema } from '@voice/proto/voice/webhooks/v1/webhooks';
import { newId } from '@voice/runtime/ids';
import { failure, setup, type WebhooksTier } from './harness.js';

let tier: WebhooksTier;
beforeEach(async () => {
  tier = await setup();
});
afterEach(() => tier.close());

const create = (workspace: string, url = 'https://1.1.1.1/hooks', eventTypes = ['sms.status']) =>
  tier.client.createEndpoint({ url, eventTypes }, tier.inWorkspace(workspace));

test('a created endpoint’s secret is sealed at rest and never answered again', async () => {
  const workspace = newId();
  const created = await create(workspace);
  expect(created.secret).toMatch(/^whsec_/);
  const stored = (await tier.store.getEndpoint(workspace, created.endpoint!.id))!;
  expect(JSON.stringify(stored)).not.toContain(created.secret);
  expect(tier.box.open(stored.secrets[0]!.sealed)).toBe(created.secret);
  const read = await tier.client.getEndpoint({ id: created.endpoint!.id }, tier.inWorkspace(workspace));
  expect(toJsonString(GetEndpointResponseSchema, read)).not.toContain(created.secret);
  expect(read.endpoint!.secretHint).toBe(`whsec_…${created.secret.slice(-4)}`);
});

test('a rotation keeps the previous secret for 24 hours beside the new one', async () => {
  const workspace = newId();
  const created = await create(workspace);
  const rotated = await tier.client.rotateSecret({ id: created.endpoint!.id }, tier.inWorkspace(workspace));
  const stored = (await tier.store.getEndpoint(workspace, created.endpoint!.id))!;
  expect(stored.secrets.map((secret) => tier.box.open(secret.sealed))).toEqual([rotated.secret, created.secret]);
  expect(stored.secrets[0]!.expiresAt).toBeNull();
  const overlap = Date.parse(stored.secrets[1]!.expiresAt!) - Date.now();
  expect(overlap).toBeGreaterThan(23.9 * 3600_000);
  expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
  // A second rotation drops the oldest: two secrets sign at most.
  await tier.client.rotateSecret({ id: created.endpoint!.id }, tier.inWorkspace(workspace));
  expect((await tier.store.getEndpoint(workspace, created.endpoint!.id))!.secrets).toHaveLength(2);
});

test('private, loopback and plain-http URLs are refused without private egress; public https passes', async () => {
  const workspace = newId();
  for (const url of ['https://127.0.0.1/hooks', 'https://192.168.1.10/hooks', 'https://[::1]/hooks', 'http://1.1.1.1/hooks', 'https://169.254.169.254/latest']) {
    expect(await failure(create(workspace, url))).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request', fields: [{ field: 'url', issue: expect.any(String) }] });
  }
  expect((await tier.client.listEndpoints({}, tier.inWorkspace(workspace))).total).toBe(0);
  expect((await create(workspace, 'https://1.1.1.1/hooks')).endpoint!.url).toBe('https://1.1.1.1/hooks');
  const updated = await failure(tier.client.updateEndpoint({ id: (await create(workspace)).endpoint!.id, url: 'https://10.1.2.3/' }, tier.inWorkspace(workspace)));
  expect(updated).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'url', issue: expect.any(String) }] });
});

test('another workspace’s endpoint and malformed ids are NotFound for every operation', async () => {
  const owner = newId();
  const id = (await create(owner)).endpoint!.id;
  const stranger = tier.inWorkspace(newId());
  for (const call of [
    tier.client.getEndpoint({ id }, stranger),
    tier.client.updateEndpoint({ id, enabled: false }, stranger),
    tier.client.deleteEndpoint({ id }, stranger),
    tier.client.rotateSecret({ id }, stranger),
    tier.client.testEndpoint({ id }, stranger),
    tier.client.listDeliveries({ endpointId: id }, stranger),
    tier.client.retryDelivery({ endpointId: id, deliveryId: newId() }, tier.inWorkspace(owner)),
    tier.client.retryDelivery({ endpointId: id, deliveryId: 'nope' }, tier.inWorkspace(owner)),
    tier.client.getEndpoint({ id: 'not-a-uuid' }, tier.inWorkspace(owner)),
  ]) {
    expect(await failure(call)).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  }
  expect((await tier.client.getEndpoint({ id }, tier.inWorkspace(owner))).endpoint!.enabled).toBe(true);
});

test('a ping is a pending delivery of a ping event; a disabled endpoint cannot be tested or retried', async () => {
  const workspace = newId();
  const id = (await create(workspace)).endpoint!.id;
  const { delivery } = await tier.client.testEndpoint({ id }, tier.inWorkspace(workspace));
  expect(delivery).toMatchObject({ endpointId: id, eventType: 'ping', status: 'pending', attempts: [] });
  const listed = await tier.client.listDeliveries({ endpointId: id }, tier.inWorkspace(workspace));
  expect(listed.deliveries.map((each) => each.id)).toEqual([delivery!.id]);
  expect(await failure(tier.client.listDeliveries({ endpointId: id, status: 'lost' }, tier.inWorkspace(workspace)))).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'status' }] });
  await tier.client.updateEndpoint({ id, enabled: false }, tier.inWorkspace(workspace));
  expect((await tier.client.listDeliveries({ endpointId: id, status: 'failed' }, tier.inWorkspace(workspace))).total).toBe(1);
  expect(await failure(tier.client.testEndpoint({ id }, tier.inWorkspace(workspace)))).toMatchObject({ code: Code.FailedPrecondition, reason: 'conflict' });
  expect(await failure(tier.client.retryDelivery({ endpointId: id, deliveryId: delivery!.id }, tier.inWorkspace(workspace)))).toMatchObject({ reason: 'conflict' });
});

test('the balance.low threshold is set, cleared and validated per workspace', async () => {
  const workspace = tier.inWorkspace(newId());
  expect((await tier.client.getSettings({}, workspace)).settings!.balanceLowThreshold).toBe('');
  expect((await tier.client.updateSettings({ balanceLowThreshold: '10' }, workspace)).settings!.balanceLowThreshold).toBe('10.0000');
  expect((await tier.client.getSettings({}, tier.inWorkspace(newId()))).settings!.balanceLowThreshold).toBe('');
  expect(await failure(tier.client.updateSettings({ balanceLowThreshold: '1.23456' }, workspace))).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'balance_low_threshold' }] });
  expect((await tier.client.updateSettings({ balanceLowThreshold: '' }, workspace)).settings!.balanceLowThreshold).toBe('');
});
