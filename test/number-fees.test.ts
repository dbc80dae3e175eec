// Monthly fees of bought numbers, end to end with real billing: the first month is charged at
// purchase (409 when the wallet cannot pay it); later months on each anniversary by the renewal
// job, which two telephony replicas with a moved clock run over the platform's storage and NATS
// (its job lease in the event namespace's bucket) without charging a month twice; a month the
// wallet cannot pay makes the number past due, and after the grace period it is released; the workspace's
// webhook endpoint hears of both (number.past_due, number.released) with the number as the API shows it.
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { callHeaders } from '@voice/runtime/caller';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { metricsRegistry } from '@voice/runtime/metrics';
import type { StartedService } from '@voice/runtime/server';
import { toIso } from '@voice/runtime/time';
import { startTelephonyService } from '@voice/telephony';
import { expectError } from './support/api-client.js';
import { deleteNamespaceStreams, testNatsUrl } from './support/nats-namespace.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { availableCreditsReach, balance, eventually, ledger, ledgerWith, settledBalance } from './support/telephony.js';
import { startWebhookReceiver, verifySignature, type WebhookReceiver } from './support/webhook-receiver.js';

const namespace = `fees_${newId().slice(0, 8)}`;
const day = 24 * 3600 * 1000;
let platform: TestPlatform;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // NATS on both topologies, so the replicas this file starts share the platform's events and job leases.
  // Private egress: the webhook receiver listens on loopback.
  platform = await startTestPlatform({ NATS_URL: testNatsUrl, VOICE_EVENT_NAMESPACE: namespace, VOICE_EGRESS_ALLOW_PRIVATE: 'true' });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  try {
    await platform.close();
  } finally {
    await deleteNamespaceStreams(namespace);
  }
});

/** Telephony replicas whose clock runs `offsetMs` ahead, over the platform's storage, billing and NATS. */
async function startReplicas(count: number, offsetMs: number): Promise<{ replicas: StartedService[]; stop(): Promise<void> }> {
  const replicas: StartedService[] = [];
  for (let index = 0; index < count; index += 1) {
    replicas.push(
      await startTelephonyService(
        { ...platform.env, LOG_LEVEL: 'silent', VOICE_TELEPHONY_PORT: '0', VOICE_BILLING_URL: platform.running.services.billing, VOICE_NUMBER_RENEWAL_CHECK_SECONDS: '1' },
        { clock: () => new Date(Date.now() + offsetMs), logger: createLogger({ service: `telephony-replica-${index}`, level: 'silent' }) },
      ),
    );
  }
  return { replicas, stop: async () => void (await Promise.all(replicas.map((replica) => replica.close()))) };
}

function telephonyAt(url: string): Client<typeof TelephonyService> {
  return createClient(TelephonyService, createConnectTransport({ baseUrl: url, httpVersion: '2' }));
}

const asWorkspace = (workspaceId: string) => ({
  headers: callHeaders(platform.signer, { workspaceId, principal: { type: 'internal', id: 'e2e', name: 'e2e' }, scopes: null, requestId: 'e2e-fees' }),
});

/** The number as a replica reads it (undefined once it is gone). */
async function numberAt(url: string, workspaceId: string, id: string) {
  try {
    return (await telephonyAt(url).getNumber({ id }, asWorkspace(workspaceId))).number;
  } catch (error) {
    if ((error as { code?: number }).code === 5) return undefined;
    throw error;
  }
}

const renewalRuns = async (): Promise<number> => {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find((entry) => entry.name === 'periodic_job_runs_total');
  return metric?.values.filter((value) => value.labels.job === 'telephony.number-renewals').reduce((sum, value) => sum + value.value, 0) ?? 0;
};

async function buyFirstOffer(key: string, country = 'US') {
  const search = await platform.api.get(`/phone-numbers/available?country=${country}&limit=5`, key);
  expect(search.status).toBe(200);
  return { offer: search.body.data[0].number as string, buy: () => platform.api.post('/phone-numbers', key, { number: search.body.data[0].number }) };
}

test('buying a number charges its first month at once, and a wallet that cannot pay it is 409 with nothing bought or charged', async () => {
  const { id, key } = await platform.workspace();
  await platform.fund(id, '1.1000');
  const { offer, buy } = await buyFirstOffer(key);
  const refused = await buy();
  expectError(refused, 409, 'conflict');
  expect(refused.body.error.message).toMatch(/1\.1500.*1\.1000/);
  expect(await balance(platform.api, key)).toEqual(settledBalance('1.1000'));
  expect((await platform.api.get('/phone-numbers', key)).body.meta.pagination.total).toBe(0);

  await platform.fund(id, '0.0500');
  const bought = await buy();
  expect(bought.status).toBe(201);
  const number = bought.body.data;
  expect(number).toMatchObject({ number: offer, status: 'active', monthly_credits: '1.1500', release_at: null });
  const created = new Date(number.created_at);
  const renews = new Date(number.next_renewal_at);
  // The first anniversary: 28 to 31 days later, at the same time of day.
  expect(renews.getTime() - created.getTime()).toBeGreaterThanOrEqual(28 * day);
  expect(renews.getTime() - created.getTime()).toBeLessThanOrEqual(31 * day);
  expect(renews.toISOString().slice(10)).toBe(created.toISOString().slice(10));
  const [fee] = await ledgerWith(platform.api, key, 'number.monthly', 1);
  expect(fee).toMatchObject({ credits: '-1.1500', reference: number.id, balance_after: { credits: '0.0000' } });
  await availableCreditsReach(platform.api, key, '0.0000', 10_000);
  expect(await balance(platform.api, key)).toEqual(settledBalance('0.0000'));
});

test('renewals on each anniversary by two replicas charge each month once; an unpaid month is past due, then the number is released', async () => {
  const { id, key } = await platform.workspace();
  // The first two months, not the third.
  await platform.fund(id, '2.3000');
  const bought = await (await buyFirstOffer(key, 'GB')).buy();
  expect(bought.status).toBe(201);
  const number = bought.body.data;
  const endpoint = await platform.api.post('/api/v1/webhooks', key, { url: receiver.url, event_types: ['number.past_due', 'number.released'] });
  expect(endpoint.status).toBe(201);
  const heard = (type: string) =>
    eventually(async () => receiver.received.find((request) => request.event.type === type && request.event.data.id === number.id), 15_000, `the ${type} event`);
  await ledgerWith(platform.api, key, 'number.monthly', 1);
  const firstRenewal = Date.parse(number.next_renewal_at);

  // The platform's own telephony (real clock) hands its job lease back; two replicas a month ahead take over.
  await platform.running.stopService('telephony');
  let replicas = await startReplicas(2, firstRenewal - Date.now() + 3600_000);
  const url = replicas.replicas[0]!.server.url;
  const renewed = await eventually(async () => {
    const current = await numberAt(url, id, number.id);
    return current && toIso(current.nextRenewalAt) !== number.next_renewal_at ? current : undefined;
  }, 30_000, 'the first renewal');
  expect(renewed.billingStatus).toBe('active');
  const secondRenewal = Date.parse(toIso(renewed.nextRenewalAt)!);
  expect(secondRenewal - firstRenewal).toBeGreaterThanOrEqual(28 * day);
  const fees = await ledgerWith(platform.api, key, 'number.monthly', 2);
  expect(fees.map((entry) => entry.credits)).toEqual(['-1.1500', '-1.1500']);
  // Several more runs of the job on the replicas: still one charge per month.
  const runs = await renewalRuns();
  await eventually(async () => ((await renewalRuns()) >= runs + 4 ? true : undefined), 30_000, 'more renewal runs');
  expect((await ledger(platform.api, key)).filter((entry) => entry.kind === 'number.monthly')).toHaveLength(2);
  expect(await balance(platform.api, key)).toEqual(settledBalance('0.0000'));
  await replicas.stop();

  // The next month finds the wallet empty: past due, released at the end of the grace period.
  replicas = await startReplicas(2, secondRenewal - Date.now() + 3600_000);
  const pastDue = await eventually(async () => {
    const current = await numberAt(replicas.replicas[1]!.server.url, id, number.id);
    return current?.billingStatus === 'past_due' ? current : undefined;
  }, 30_000, 'past due');
  expect(Date.parse(toIso(pastDue.releaseAt)!)).toBe(secondRenewal + 7 * day);
  await replicas.stop();
  await platform.running.startService('telephony');
  const shown = await platform.api.get(`/phone-numbers/${number.id}`, key);
  expect(shown.body.data).toMatchObject({ status: 'past_due', next_renewal_at: new Date(secondRenewal).toISOString(), release_at: new Date(secondRenewal + 7 * day).toISOString() });
  const pastDueEvent = await heard('number.past_due');
  expect(pastDueEvent.event.data).toEqual(shown.body.data);
  expect(await verifySignature(pastDueEvent.rawBody, pastDueEvent.headers['voice-signature'] as string, endpoint.body.data.secret)).toBe(true);
  await platform.running.stopService('telephony');

  replicas = await startReplicas(2, secondRenewal + 7 * day - Date.now() + 3600_000);
  await eventually(async () => ((await numberAt(replicas.replicas[0]!.server.url, id, number.id)) === undefined ? true : undefined), 30_000, 'the release');
  await replicas.stop();
  await platform.running.startService('telephony');
  expectError(await platform.api.get(`/phone-numbers/${number.id}`, key), 404, 'not_found');
  expect((await heard('number.released')).event.data).toMatchObject({ id: number.id, number: number.number, status: 'past_due' });
  expect((await ledger(platform.api, key)).filter((entry) => entry.kind === 'number.monthly')).toHaveLength(2);
  expect(await balance(platform.api, key)).toEqual(settledBalance('0.0000'));
  // The released number is on sale again.
  const again = await platform.workspace();
  await platform.fund(again.id, '1.1500');
  expect((await platform.api.post('/phone-numbers', again.key, { number: number.number })).status).toBe(201);
});
