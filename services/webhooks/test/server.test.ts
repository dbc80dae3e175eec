// Tier 3: the webhooks service on a real server (port 0, loopback) with a real HTTP/2 client:
// signed callers, error details across the wire, and a clean close.
import { Code } from '@connectrpc/connect';
import { newId } from '@voice/runtime/ids';
import { failure, setup, type WebhooksTier } from './harness.js';

let tier: WebhooksTier;
beforeAll(async () => {
  tier = await setup('server', { allowPrivate: true });
});
afterAll(() => tier.close());

test('an endpoint is created, changed and deleted over HTTP/2', async () => {
  const workspace = tier.inWorkspace(newId());
  const created = await tier.client.createEndpoint({ url: 'http://127.0.0.1:9/hooks', eventTypes: ['sms.status'] }, workspace);
  const updated = await tier.client.updateEndpoint({ id: created.endpoint!.id, eventTypes: ['balance.low', 'number.released'], hasEventTypes: true }, workspace);
  expect(updated.endpoint!.eventTypes).toEqual(['balance.low', 'number.released']);
  await tier.client.deleteEndpoint({ id: created.endpoint!.id }, workspace);
  expect(await failure(tier.client.getEndpoint({ id: created.endpoint!.id }, workspace))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
});

test('unsigned calls and bad bodies are refused with their reasons', async () => {
  expect((await failure(tier.client.listEndpoints({}))).code).toBe(Code.Unauthenticated);
  expect(await failure(tier.client.createEndpoint({ url: 'http://127.0.0.1:9/hooks', eventTypes: ['call.ringing'] }, tier.inWorkspace(newId())))).toMatchObject({
    code: Code.InvalidArgument,
    fields: [{ field: 'event_types.0', issue: expect.any(String) }],
  });
});
