// Webhooks end to end, with a real receiver on loopback: endpoints and their secret (shown once,
// only hinted afterwards), a ping signed as documented (and a tampered body that fails the check),
// the rotation window (both secrets sign, the old one no longer after 24 hours on a moved clock),
// the delivery log and a retry of one delivery, retries with backoff of a receiver that fails then
// recovers (moved clock), an endpoint failing for three days disabled and its workspace's owner
// e-mailed, deliveries sharing a kept connection, the events of calls, of SMS statuses and of a balance falling below its threshold, and a private
// receiver refused by a platform without VOICE_EGRESS_ALLOW_PRIVATE.
import { createLogger } from '@voice/runtime/logger';
import type { StartedService } from '@voice/runtime/server';
import { startWebhookDelivery } from '@voice/webhooks';
import { expectError } from './support/api-client.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { buySmsNumber, eventually } from './support/telephony.js';
import { signatureParts, startWebhookReceiver, verifySignature, type WebhookReceiver } from './support/webhook-receiver.js';

const hour = 3600_000;
let platform: TestPlatform;
let receiver: WebhookReceiver;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  platform = await startTestPlatform({ VOICE_EGRESS_ALLOW_PRIVATE: 'true', VOICE_SMTP_URL: smtp.url });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await platform?.close();
  await smtp?.close();
});

/** Paths under /api/v1 in full: the test client sends bare /webhooks/… to the carrier callbacks. */
const api = (path: string) => `/api/v1${path}`;

async function createEndpoint(key: string, body: Record<string, unknown> = {}) {
  const created = await platform.api.post(api('/webhooks'), key, { url: receiver.url, event_types: ['sms.status'], ...body });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; secret: string; secret_hint: string };
}

/** The requests the receiver got for `eventId`, once there are `count` of them. */
const requestsFor = (eventId: string, count = 1) =>
  eventually(async () => {
    const found = receiver.received.filter((request) => request.event.id === eventId);
    return found.length >= count ? found : undefined;
  }, 15_000, `${count} request(s) for event ${eventId}`);

/** The platform's delivery worker replaced by one whose clock runs `offsetMs` ahead, over the same storage. */
async function withWorkerAhead<T>(offsetMs: number, work: () => Promise<T>): Promise<T> {
  await platform.running.stopService('webhooksDelivery');
  let worker: StartedService | undefined;
  try {
    worker = await startWebhookDelivery(
      { ...platform.env, LOG_LEVEL: 'silent', VOICE_WEBHOOKS_DELIVERY_PORT: '0', VOICE_METRICS_PORT: 'off', VOICE_PLATFORM_USERS_URL: platform.running.services.platformUsers },
      { clock: () => new Date(Date.now() + offsetMs), logger: createLogger({ service: 'webhooks-delivery-ahead', level: 'silent' }) },
    );
    return await work();
  } finally {
    await worker?.close();
    await platform.running.startService('webhooksDelivery');
  }
}

test('an endpoint shows its secret once, then only a hint; it is read, listed, changed and deleted in its workspace only', async () => {
  const { key } = await platform.workspace({ scopes: ['settings:write'] });
  const other = await platform.workspace();
  const created = await createEndpoint(key, { description: 'orders', event_types: ['sms.status', 'balance.low'] });
  expect(created.secret).toMatch(/^whsec_[A-Za-z0-9]{40}$/);
  expect(created).toMatchObject({ url: receiver.url, description: 'orders', event_types: ['sms.status', 'balance.low'], enabled: true, failing_since: null, disabled_reason: null, previous_secret_expires_at: null });
  expect(created.secret_hint).toBe(`whsec_…${created.secret.slice(-4)}`);

  const read = await platform.api.get(api(`/webhooks/${created.id}`), key);
  expect(read.status).toBe(200);
  expect(read.body.data).not.toHaveProperty('secret');
  expect(read.text).not.toContain(created.secret);
  const listed = await platform.api.get(api('/webhooks?limit=5'), key);
  expect(listed.body).toMatchObject({ data: [{ id: created.id }], meta: { pagination: { limit: 5, offset: 0, total: 1 } } });

  const changed = await platform.api.patch(api(`/webhooks/${created.id}`), key, { event_types: ['number.released'], enabled: false });
  expect(changed.status).toBe(200);
  expect(changed.body.data).toMatchObject({ event_types: ['number.released'], enabled: false, description: 'orders' });

  for (const path of [`/webhooks/${created.id}`, `/webhooks/${created.id}/deliveries`]) expectError(await platform.api.get(api(path), other.key), 404, 'not_found');
  expectError(await platform.api.patch(api(`/webhooks/${created.id}`), other.key, { enabled: true }), 404, 'not_found');
  expectError(await platform.api.delete(api(`/webhooks/${created.id}`), other.key), 404, 'not_found');
  for (const path of [`/webhooks/${created.id}/rotate-secret`, `/webhooks/${created.id}/test`, `/webhooks/${created.id}/deliveries/${created.id}/retry`]) {
    expectError(await platform.api.post(api(path), other.key, {}), 404, 'not_found');
  }
  expectError(await platform.api.get(api('/webhooks/not-a-uuid'), key), 404, 'not_found');
  expectError(await platform.api.post(api(`/webhooks/${created.id}/deliveries/not-a-uuid/retry`), key, {}), 404, 'not_found');
  // Nothing the other workspace asked for changed it: the same secret, still disabled, no delivery queued.
  expect((await platform.api.get(api(`/webhooks/${created.id}`), key)).body.data).toMatchObject({ secret_hint: created.secret_hint, enabled: false, previous_secret_expires_at: null });
  expect((await platform.api.get(api(`/webhooks/${created.id}/deliveries`), key)).body.meta.pagination.total).toBe(0);

  const deleted = await platform.api.delete(api(`/webhooks/${created.id}`), key);
  expect(deleted.body).toEqual({ data: { id: created.id, deleted: true } });
  expectError(await platform.api.get(api(`/webhooks/${created.id}`), key), 404, 'not_found');
});

test('bad bodies are 400 naming the field, and read-only keys cannot write', async () => {
  const { id, key } = await platform.workspace({ scopes: ['settings:write'] });
  const cases: [Record<string, unknown>, string][] = [
    [{ url: receiver.url, event_types: ['sms.sent'] }, 'event_types.0'],
    [{ url: receiver.url, event_types: [] }, 'event_types'],
    [{ url: receiver.url, event_types: ['sms.status', 'sms.status'] }, 'event_types'],
    [{ url: 'ftp://example.com/hook', event_types: ['sms.status'] }, 'url'],
    [{ url: 'https://user:pw@example.com/hook', event_types: ['sms.status'] }, 'url'],
    [{ event_types: ['sms.status'] }, 'url'],
    [{ url: receiver.url, event_types: ['sms.status'], secret: 'mine' }, 'secret'],
  ];
  for (const [body, field] of cases) {
    const refused = await platform.api.post(api('/webhooks'), key, body);
    expectError(refused, 400, 'invalid_request');
    expect(refused.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
  }
  expect((await platform.api.get(api('/webhooks'), key)).body.meta.pagination.total).toBe(0);

  const endpoint = await createEndpoint(key, { description: 'orders' });
  const before = (await platform.api.get(api(`/webhooks/${endpoint.id}`), key)).body.data;
  const changes: [Record<string, unknown>, string][] = [
    [{ event_types: [] }, 'event_types'],
    [{ event_types: ['call.ringing'] }, 'event_types.0'],
    [{ url: 'ftp://example.com/hook' }, 'url'],
    [{ url: 'https://user:pw@example.com/hook' }, 'url'],
    [{ enabled: 'yes' }, 'enabled'],
    [{ description: 'x'.repeat(501) }, 'description'],
    [{ secret: 'mine' }, 'secret'],
  ];
  for (const [body, field] of changes) {
    const refused = await platform.api.patch(api(`/webhooks/${endpoint.id}`), key, body);
    expectError(refused, 400, 'invalid_request');
    expect(refused.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
  }
  expect((await platform.api.get(api(`/webhooks/${endpoint.id}`), key)).body.data).toEqual(before);

  const reader = await platform.key(id, ['settings:read']);
  expectError(await platform.api.post(api('/webhooks'), reader, { url: receiver.url, event_types: ['sms.status'] }), 403, 'forbidden');
  expectError(await platform.api.patch(api(`/webhooks/${endpoint.id}`), reader, { enabled: false }), 403, 'forbidden');
  expectError(await platform.api.get(api('/webhooks'), await platform.key(id, ['billing:read'])), 403, 'forbidden');
  expect((await platform.api.get(api(`/webhooks/${endpoint.id}`), key)).body.data).toEqual(before);
});

test('a ping is delivered signed with the shown secret; a tampered body or another secret fails the check; the log shows the attempt', async () => {
  const { key } = await platform.workspace();
  const endpoint = await createEndpoint(key);
  const queued = await platform.api.post(api(`/webhooks/${endpoint.id}/test`), key, {});
  expect(queued.status).toBe(202);
  expect(queued.body.data).toMatchObject({ endpoint_id: endpoint.id, event_type: 'ping', status: 'pending', attempts: [] });
  const [request] = await requestsFor(queued.body.data.event_id);
  expect(request!.event).toEqual({ id: queued.body.data.event_id, type: 'ping', created_at: expect.any(String), data: { endpoint_id: endpoint.id } });
  expect(request!.headers['content-type']).toBe('application/json');
  const header = request!.headers['voice-signature'] as string;
  expect(signatureParts(header).v1).toHaveLength(1);
  expect(Math.abs(Number(signatureParts(header).t) - Date.now() / 1000)).toBeLessThan(600);
  expect(await verifySignature(request!.rawBody, header, endpoint.secret)).toBe(true);
  expect(await verifySignature(request!.rawBody.replace('ping', 'pong'), header, endpoint.secret)).toBe(false);
  expect(await verifySignature(request!.rawBody, header.replace(/t=\d+/, `t=${Number(signatureParts(header).t) + 1}`), endpoint.secret)).toBe(false);
  expect(await verifySignature(request!.rawBody, header, `${endpoint.secret.slice(0, -1)}${endpoint.secret.endsWith('x') ? 'y' : 'x'}`)).toBe(false);

  const log = await eventually(async () => {
    const answer = await platform.api.get(api(`/webhooks/${endpoint.id}/deliveries`), key);
    return answer.body.data[0]?.status === 'delivered' ? answer : undefined;
  });
  expect(log.body.data).toEqual([
    {
      id: queued.body.data.id,
      endpoint_id: endpoint.id,
      event_id: queued.body.data.event_id,
      event_type: 'ping',
      status: 'delivered',
      attempts: [{ at: expect.any(String), status_code: 200, latency_ms: expect.any(Number), error: null }],
      next_attempt_at: null,
      created_at: queued.body.data.created_at,
      delivered_at: expect.any(String),
    },
  ]);
  expect((await platform.api.get(api(`/webhooks/${endpoint.id}/deliveries?status=pending`), key)).body.meta.pagination.total).toBe(0);
  expectError(await platform.api.get(api(`/webhooks/${endpoint.id}/deliveries?status=lost`), key), 400, 'invalid_request');
});

test('deliveries to an endpoint share one kept connection, and one the receiver closed is replaced', async () => {
  const own = await startWebhookReceiver();
  try {
    const { key } = await platform.workspace();
    const created = await platform.api.post(api('/webhooks'), key, { url: own.url, event_types: ['sms.status'] });
    expect(created.status).toBe(201);
    const ping = async () => {
      const queued = await platform.api.post(api(`/webhooks/${created.body.data.id}/test`), key, {});
      expect(queued.status).toBe(202);
      await eventually(async () => (own.received.some((request) => request.event.id === queued.body.data.event_id) ? true : undefined), 15_000, 'the ping');
    };
    for (let i = 0; i < 3; i++) await ping();
    expect(own.connections()).toBe(1);
    own.closeIdleConnections();
    await ping();
    expect(own.connections()).toBe(2);
    expect(own.received).toHaveLength(4);
  } finally {
    await own.close();
  }
});

test('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
  const { key } = await platform.workspace();
  const endpoint = await createEndpoint(key);
  const rotated = await platform.api.post(api(`/webhooks/${endpoint.id}/rotate-secret`), key, {});
  expect(rotated.status).toBe(200);
  const fresh = rotated.body.data as { secret: string; secret_hint: string; previous_secret_expires_at: string };
  expect(fresh.secret).not.toBe(endpoint.secret);
  expect(fresh.secret_hint).toBe(`whsec_…${fresh.secret.slice(-4)}`);
  expect(Date.parse(fresh.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * hour);

  const ping = async () => (await platform.api.post(api(`/webhooks/${endpoint.id}/test`), key, {})).body.data.event_id as string;
  const [during] = await requestsFor(await ping());
  const header = during!.headers['voice-signature'] as string;
  expect(signatureParts(header).v1).toHaveLength(2);
  expect(await verifySignature(during!.rawBody, header, fresh.secret)).toBe(true);
  expect(await verifySignature(during!.rawBody, header, endpoint.secret)).toBe(true);

  await withWorkerAhead(25 * hour, async () => {
    const [after] = await requestsFor(await ping());
    const later = after!.headers['voice-signature'] as string;
    expect(signatureParts(later).v1).toHaveLength(1);
    expect(await verifySignature(after!.rawBody, later, fresh.secret)).toBe(true);
    expect(await verifySignature(after!.rawBody, later, endpoint.secret)).toBe(false);
  });
});

test('a platform without VOICE_EGRESS_ALLOW_PRIVATE refuses loopback and plain-http receivers', async () => {
  const strict = await startTestPlatform();
  try {
    const { key } = await strict.workspace();
    for (const url of [receiver.url, receiver.url.replace('http:', 'https:'), 'https://10.0.0.8/hook', 'http://example.com/hook']) {
      const refused = await strict.api.post(api('/webhooks'), key, { url, event_types: ['sms.status'] });
      expectError(refused, 400, 'invalid_request');
      expect(refused.body.error.details).toEqual([{ field: 'url', issue: expect.any(String) }]);
    }
    expect((await strict.api.get(api('/webhooks'), key)).body.meta.pagination.total).toBe(0);
    // Nor can an endpoint be moved to one afterwards.
    const created = await strict.api.post(api('/webhooks'), key, { url: 'https://1.1.1.1/hooks', event_types: ['sms.status'] });
    expect(created.status).toBe(201);
    const refused = await strict.api.patch(api(`/webhooks/${created.body.data.id}`), key, { url: receiver.url.replace('http:', 'https:') });
    expectError(refused, 400, 'invalid_request');
    expect(refused.body.error.details).toEqual([{ field: 'url', issue: expect.any(String) }]);
    expect((await strict.api.get(api(`/webhooks/${created.body.data.id}`), key)).body.data.url).toBe('https://1.1.1.1/hooks');
  } finally {
    await strict.close();
  }
});

test('the webhook settings keep a balance.low threshold per workspace', async () => {
  const { key } = await platform.workspace();
  expect((await platform.api.get(api('/settings/webhooks'), key)).body).toEqual({ data: { balance_low_threshold: null } });
  const set = await platform.api.patch(api('/settings/webhooks'), key, { balance_low_threshold: '2.5' });
  expect(set.body).toEqual({ data: { balance_low_threshold: '2.5000' } });
  expect((await platform.api.get(api('/settings/webhooks'), (await platform.workspace()).key)).body.data.balance_low_threshold).toBeNull();
  for (const threshold of ['-1', '1.23456', 5, '']) {
    expectError(await platform.api.patch(api('/settings/webhooks'), key, { balance_low_threshold: threshold }), 400, 'invalid_request');
  }
  expectError(await platform.api.patch(api('/settings/webhooks'), key, { threshold: '1' }), 400, 'invalid_request');
  expect((await platform.api.get(api('/settings/webhooks'), key)).body).toEqual({ data: { balance_low_threshold: '2.5000' } });
  expect((await platform.api.patch(api('/settings/webhooks'), key, { balance_low_threshold: null })).body).toEqual({ data: { balance_low_threshold: null } });
});

/** The endpoint's one delivery, once `ready` says it is as the test waits for it. */
const deliveryOf = (key: string, endpointId: string, ready: (delivery: any) => boolean) =>
  eventually(async () => {
    const [delivery] = (await platform.api.get(api(`/webhooks/${endpointId}/deliveries`), key)).body.data;
    return delivery && ready(delivery) ? delivery : undefined;
  }, 15_000, 'the delivery');

test('a receiver that fails is retried with backoff until it recovers; a retry sends a delivered event again with its id', async () => {
  const { key } = await platform.workspace();
  const endpoint = await createEndpoint(key);
  receiver.answer(500);
  try {
    const queued = (await platform.api.post(api(`/webhooks/${endpoint.id}/test`), key, {})).body.data;
    const failing = await deliveryOf(key, endpoint.id, (delivery) => delivery.attempts.length === 1);
    expect(failing).toMatchObject({ status: 'pending', attempts: [{ status_code: 500, error: null }] });
    const wait = Date.parse(failing.next_attempt_at) - Date.parse(failing.attempts[0].at);
    expect(wait).toBeGreaterThanOrEqual(15_000);
    expect(wait).toBeLessThanOrEqual(30_000);
    expect((await platform.api.get(api(`/webhooks/${endpoint.id}`), key)).body.data.failing_since).toBe(failing.attempts[0].at);

    // An hour on the second attempt fails too; two hours on, once the receiver recovered, the third is delivered.
    await withWorkerAhead(hour, () => deliveryOf(key, endpoint.id, (delivery) => delivery.attempts.length === 2));
    receiver.answer(200);
    await withWorkerAhead(2 * hour, () => deliveryOf(key, endpoint.id, (delivery) => delivery.status === 'delivered'));
    const delivered = await deliveryOf(key, endpoint.id, (delivery) => delivery.status === 'delivered');
    expect(delivered.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([500, 500, 200]);
    expect((await platform.api.get(api(`/webhooks/${endpoint.id}`), key)).body.data.failing_since).toBeNull();
    const first = await requestsFor(queued.event_id, 3);

    const retried = await platform.api.post(api(`/webhooks/${endpoint.id}/deliveries/${queued.id}/retry`), key, {});
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({ id: queued.id, status: 'pending' });
    const again = await requestsFor(queued.event_id, 4);
    expect(again[3]!.rawBody).toBe(first[0]!.rawBody);
    expectError(await platform.api.post(api(`/webhooks/${endpoint.id}/deliveries/${endpoint.id}/retry`), key, {}), 404, 'not_found');
  } finally {
    receiver.answer(200);
  }
});

test('an SMS’s status changes reach the endpoints that want sms.status, as GET /sms/messages/{id} shows the message', async () => {
  const { id, key } = await platform.workspace();
  await platform.fund(id, '20.0000');
  const endpoint = await createEndpoint(key, { event_types: ['sms.status'] });
  const other = await platform.api.post(api('/webhooks'), key, { url: receiver.url, event_types: ['number.released'] });
  const number = await buySmsNumber(platform.api, key);
  const sent = await platform.api.post('/sms/send', key, { from_number_id: number.id, to: '+442071838750', body: 'Your table is ready.' });
  expect(sent.status).toBe(202);
  const message = sent.body.data;
  const statuses = await eventually(async () => {
    const events = receiver.received.filter((request) => request.event.type === 'sms.status' && request.event.data.id === message.id);
    return events.some((request) => request.event.data.status === 'delivered') ? events : undefined;
  }, 30_000, 'the delivered status');
  // Each move forward is an event; a 'sent' report the carrier sends before the send is recorded may
  // arrive after 'delivered' (then it moves nothing, and is no event).
  expect([['sent', 'delivered'], ['delivered']]).toContainEqual(statuses.map((request) => request.event.data.status));
  const final = statuses[statuses.length - 1]!;
  expect(await verifySignature(final.rawBody, final.headers['voice-signature'] as string, endpoint.secret)).toBe(true);
  expect(final.event.data).toEqual((await platform.api.get(`/sms/messages/${message.id}`, key)).body.data);
  expect((await platform.api.get(api(`/webhooks/${other.body.data.id}/deliveries`), key)).body.meta.pagination.total).toBe(0);
});

test('balance.low goes out once when the available credits fall below the threshold, and again only after they rose above it', async () => {
  const { id, key } = await platform.workspace();
  await createEndpoint(key, { event_types: ['balance.low'] });
  expect((await platform.api.patch(api('/settings/webhooks'), key, { balance_low_threshold: '9' })).status).toBe(200);
  await platform.fund(id, '10.0000');
  // A number's first month (1.1500) takes the wallet to 8.8500.
  await buySmsNumber(platform.api, key, { enable: false });
  const first = await eventually(async () => receiver.received.find((request) => request.event.type === 'balance.low' && request.event.data.available === '8.8500'), 15_000, 'balance.low');
  expect(first.event.data).toEqual({ available: '8.8500', threshold: '9.0000' });
  await platform.fund(id, '0.1000');
  await platform.fund(id, '0.1000');
  await buySmsNumber(platform.api, key, { enable: false });
  const second = await eventually(async () => receiver.received.find((request) => request.event.type === 'balance.low' && request.event.data.available === '7.9000'), 15_000, 'the second balance.low');
  expect(second.event.id).not.toBe(first.event.id);
  // 8.8500 → 8.9500 (below: nothing) → 9.0500 (re-armed) → 7.9000 (below again): two events in all.
  expect(receiver.received.filter((request) => request.event.type === 'balance.low' && ['8.8500', '8.9500', '7.9000'].includes(request.event.data.available as string))).toHaveLength(2);
});

test('an endpoint failing for three days is disabled, its pending deliveries failed and the workspace owner e-mailed; enabling it starts afresh', async () => {
  const email = uniqueEmail('owner');
  const customer = await platform.api.post('/platform/users', platform.rootKey, { email, name: 'Olive Owner', password: 'correct horse battery staple' });
  expect(customer.status).toBe(201);
  const workspaceId = customer.body.data.workspaces[0].id as string;
  const key = await platform.key(workspaceId, ['settings:write']);
  const endpoint = await createEndpoint(key);
  receiver.answer(503);
  try {
    await platform.api.post(api(`/webhooks/${endpoint.id}/test`), key, {});
    const first = await deliveryOf(key, endpoint.id, (delivery) => delivery.attempts.length === 1);
    // Two days on it still fails and is retried; three days on it is disabled.
    await withWorkerAhead(2 * 24 * hour, () => deliveryOf(key, endpoint.id, (delivery) => delivery.attempts.length === 2 && delivery.status === 'pending'));
    expect((await platform.api.get(api(`/webhooks/${endpoint.id}`), key)).body.data).toMatchObject({ enabled: true, failing_since: first.attempts[0].at });
    await withWorkerAhead(3 * 24 * hour + hour, () => deliveryOf(key, endpoint.id, (delivery) => delivery.status === 'failed'));
    const disabled = (await platform.api.get(api(`/webhooks/${endpoint.id}`), key)).body.data;
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'failing', failing_since: first.attempts[0].at });
    const mail = await smtp.messageTo(email, 15_000);
    expect(mail.parsed.subject).toBe('A webhook endpoint was disabled');
    expect(mail.parsed.text).toContain(receiver.url);
    expect(mail.parsed.text).toContain(endpoint.id);
    expect(smtp.received.filter((received) => received.envelopeTo.includes(email))).toHaveLength(1);
    expectError(await platform.api.post(api(`/webhooks/${endpoint.id}/test`), key, {}), 409, 'conflict');

    receiver.answer(200);
    const enabled = await platform.api.patch(api(`/webhooks/${endpoint.id}`), key, { enabled: true });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    const ping = (await platform.api.post(api(`/webhooks/${endpoint.id}/test`), key, {})).body.data;
    await requestsFor(ping.event_id);
  } finally {
    receiver.answer(200);
  }
});

test('a call’s start and end reach the endpoints that want them, the ended call as GET /calls/{id} shows it', async () => {
  const { id, key } = await platform.workspace({ plan: 'pro' });
  await platform.fund(id, '10.0000');
  await createEndpoint(key, { event_types: ['call.started', 'call.ended'] });
  const number = await buySmsNumber(platform.api, key, { enable: false });
  const assistant = await platform.api.post('/assistants', key, { name: 'Greeter', first_message: 'Hello, this is Acme.' });
  expect(assistant.status).toBe(201);
  const placed = await platform.api.post('/calls', key, {
    assistant_id: assistant.body.data.id,
    from: number.number,
    to: '+14155550123',
    metadata: { sandbox_script: [{ say: 'Hi there' }, { hangup: 'caller' }] },
  });
  expect(placed.status).toBe(201);
  const callId = placed.body.data.id as string;
  const heard = (type: string) =>
    eventually(async () => receiver.received.find((request) => request.event.type === type && request.event.data.id === callId), 30_000, `the ${type} event`);
  const started = await heard('call.started');
  expect(started.event.data).toMatchObject({ id: callId, status: 'in_progress', answered_at: expect.any(String), ended_at: null });
  const ended = await heard('call.ended');
  expect(ended.event.data).toEqual((await platform.api.get(`/calls/${callId}`, key)).body.data);
  expect(ended.event.data).toMatchObject({ ended_at: expect.any(String) });
});
