// The typed client (@voice/client, generated from the committed OpenAPI document) against the
// running platform: the document it was generated from is the one the platform serves; tools and
// assistants are created, read, listed and paged through it, with failures as typed errors; and a
// webhook delivery the platform signs verifies with the client's signature helper.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { orThrow, paginate, verifyWebhookSignature, VoiceApiError, type Schemas, type VoiceClient } from '@voice/client';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { eventually } from './support/telephony.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';
import { voiceClientFor } from './support/voice-client.js';

let platform: TestPlatform;
let client: VoiceClient;

beforeAll(async () => {
  // The webhook receiver listens on loopback.
  platform = await startTestPlatform({ VOICE_EGRESS_ALLOW_PRIVATE: 'true' });
  client = voiceClientFor(platform.running.url, (await platform.workspace()).key);
});
afterAll(() => platform.close());

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

async function thrownBy(promise: Promise<unknown>): Promise<VoiceApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(VoiceApiError);
  return error as VoiceApiError;
}

const builtin = (name: string) => ({ name, type: 'builtin' as const, config: { type: 'end_call' as const } });
const assistant = (name: string) => ({
  name,
  system_prompt: 'You are the receptionist of Acme Dental. Book, move and cancel appointments.',
  first_message_mode: 'assistant_speaks_first' as const,
  model: { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.3 },
  builtin_tools: [{ type: 'end_call' as const, message: 'Goodbye!' }],
});

test('the committed document the client is generated from is the one the platform serves', async () => {
  const served = await (await fetch(`${platform.running.url}/api/v1/openapi.json`)).text();
  const committed = readFileSync(join(__dirname, '..', 'client', 'openapi.json'), 'utf8');
  // The committed one names the default address of `npm start`; everything else is the same.
  expect(JSON.parse(served.replaceAll(platform.running.url, 'http://127.0.0.1:8080'))).toEqual(JSON.parse(committed));
});

describe('tools', () => {
  test('created, read and updated with typed bodies and answers', async () => {
    const created = await orThrow(
      client.POST('/tools', {
        body: { name: 'order_lookup', type: 'api', description: 'Looks up an order', config: { url: 'https://orders.example.com/v1', method: 'GET', timeout_ms: 5000 } },
      }),
    );
    const tool: Schemas['Tool'] = created.data;
    expect(tool).toMatchObject({ name: 'order_lookup', type: 'api', revision: 1, is_active: true });
    if (tool.type !== 'api') throw new Error('the answer is discriminated by type');
    expect(tool.config).toMatchObject({ url: 'https://orders.example.com/v1', method: 'GET', timeout_ms: 5000 });

    const read = await orThrow(client.GET('/tools/{id}', { params: { path: { id: tool.id } } }));
    expect(read.data).toEqual(tool);

    const updated = await orThrow(client.PATCH('/tools/{id}', { params: { path: { id: tool.id } }, body: { expected_revision: 1, is_active: false } }));
    expect(updated.data).toMatchObject({ id: tool.id, revision: 2, is_active: false });
  });

  test('paginate walks every page of a filtered list, newest first, and only the caller’s workspace', async () => {
    const names = Array.from({ length: 5 }, (_, index) => `paged_${index}`);
    for (const name of names) await orThrow(client.POST('/tools', { body: builtin(name) }));
    const paged = await collect(paginate(client, '/tools', { query: { type: 'builtin' }, pageSize: 2 }));
    expect(paged.map((tool) => tool.name)).toEqual([...names].reverse());
    expect(paged.every((tool) => tool.type === 'builtin')).toBe(true);
    // The same list in one page: pages add up to it, in the same order.
    const whole = await orThrow(client.GET('/tools', { params: { query: { type: 'builtin', limit: 200 } } }));
    expect(whole.meta.pagination.total).toBe(5);
    expect(whole.data.map((tool) => tool.id)).toEqual(paged.map((tool) => tool.id));

    const other = voiceClientFor(platform.running.url, (await platform.workspace()).key);
    expect(await collect(paginate(other, '/tools'))).toEqual([]);
  });

  test('failures arrive typed: code, message, details and request id of the error envelope', async () => {
    const invalid = await thrownBy(orThrow(client.POST('/tools', { body: { name: '1st tool', type: 'api' } })));
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(invalid.details.map((detail) => detail.field)).toContain('name');
    expect(invalid.requestId).toMatch(/.+/);

    const { error, response } = await client.GET('/tools/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
    expect(response.status).toBe(404);
    expect(error?.error.code).toBe('not_found');

    await orThrow(client.POST('/tools', { body: builtin('taken') }));
    expect(await thrownBy(orThrow(client.POST('/tools', { body: builtin('taken') })))).toMatchObject({ status: 409, code: 'conflict' });

    const tool = (await orThrow(client.POST('/tools', { body: builtin('revised') }))).data;
    const stale = client.PATCH('/tools/{id}', { params: { path: { id: tool.id } }, body: { expected_revision: 2, description: 'stale' } });
    expect(await thrownBy(orThrow(stale))).toMatchObject({ status: 409, code: 'revision_conflict' });
  });

  test('a bad credential is unauthorized and a missing scope forbidden, each a VoiceApiError', async () => {
    const anonymous = voiceClientFor(platform.running.url, 'svc_not_a_key_of_this_platform_0000000000000000');
    expect(await thrownBy(orThrow(anonymous.GET('/tools')))).toMatchObject({ status: 401, code: 'unauthorized' });
    const reader = voiceClientFor(platform.running.url, (await platform.workspace({ scopes: ['assistants:read'] })).key);
    expect(await thrownBy(orThrow(reader.POST('/tools', { body: builtin('not_allowed') })))).toMatchObject({ status: 403, code: 'forbidden' });
  });
});

describe('assistants', () => {
  test('created through the client and paged with their full configuration', async () => {
    const created: Schemas['Assistant'][] = [];
    for (let index = 0; index < 3; index += 1) created.push((await orThrow(client.POST('/assistants', { body: assistant(`Desk ${index}`) }))).data);
    const paged = await collect(paginate(client, '/assistants', { pageSize: 1 }));
    expect(paged.map((assistant) => assistant.id)).toEqual(created.map((assistant) => assistant.id).reverse());
    expect(paged[0]).toEqual(created[2]);
  });
});

describe('webhooks', () => {
  test('a ping signed during a rotation verifies with either secret through verifyWebhookSignature; the delivery log pages', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const endpoint = (await orThrow(client.POST('/webhooks', { body: { url: receiver.url, event_types: ['sms.status'] } }))).data;
      const rotated = (await orThrow(client.POST('/webhooks/{id}/rotate-secret', { params: { path: { id: endpoint.id } } }))).data;
      const ping = (await orThrow(client.POST('/webhooks/{id}/test', { params: { path: { id: endpoint.id } } }))).data;
      const request = await eventually(async () => receiver.received.find((received) => received.event.id === ping.event_id), 15_000, 'the ping at the receiver');
      const header = request.headers['voice-signature'] as string;

      for (const secret of [rotated.secret, endpoint.secret]) {
        const verified = await verifyWebhookSignature({ payload: request.rawBody, header, secret });
        expect(Math.abs(verified.timestamp - Date.now() / 1000)).toBeLessThan(300);
      }
      await expect(verifyWebhookSignature({ payload: request.rawBody.replace('ping', 'pong'), header, secret: rotated.secret })).rejects.toMatchObject({
        reason: 'no_matching_signature',
      });
      await expect(verifyWebhookSignature({ payload: request.rawBody, header, secret: rotated.secret, now: Date.now() + 3_600_000 })).rejects.toMatchObject({
        reason: 'timestamp_outside_tolerance',
      });

      const delivered = await eventually(async () => {
        const deliveries = await collect(paginate(client, '/webhooks/{id}/deliveries', { path: { id: endpoint.id }, pageSize: 1 }));
        return deliveries.length === 1 && deliveries[0]!.status === 'delivered' ? deliveries : undefined;
      }, 15_000, 'the delivery logged as delivered');
      expect(delivered[0]).toMatchObject({ id: ping.id, event_type: 'ping' });
    } finally {
      await receiver.close();
    }
  });
});
