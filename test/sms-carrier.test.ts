// The Twilio-compatible carrier adapter through the gateway, against a real HTTP server on
// loopback: carrier connections with masked credentials, number import, sending, signed status
// callbacks, A2P campaigns, and a carrier that fails (5xx, timeout, down): 503, nothing charged.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expectError } from './support/api-client.js';
import { platformCarrierEnv, startFakeTwilio, twilioSignature, type FakeTwilio } from './support/fake-twilio.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { availableCreditsReach, balance, ledger, ledgerWith, settledBalance } from './support/telephony.js';

let platform: TestPlatform;
let carrier: FakeTwilio;

beforeAll(async () => {
  carrier = await startFakeTwilio();
  platform = await startTestPlatform({ VOICE_EGRESS_ALLOW_PRIVATE: 'true', VOICE_CARRIER_TIMEOUT_MS: '300' });
});
afterAll(async () => {
  await platform.close();
  await carrier.close();
});

const mask = '\u2022\u2022\u2022';
const imported = '+14155550142';
const ukDestination = '+442071838750';
const usDestination = '+12125550199';

const sign = twilioSignature;

const callback = (connectionId: string, params: Record<string, string>, signature?: string) => {
  const url = `${platform.running.url}/webhooks/carriers/${connectionId}`;
  return platform.api.request('POST', `/webhooks/carriers/${connectionId}`, {
    rawBody: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature ?? sign(carrier.authToken, url, params) },
  });
};

async function connectedWorkspace(credits = '5.0000') {
  const workspace = await platform.workspace();
  if (credits !== '0') await platform.fund(workspace.id, credits);
  const connection = await platform.api.post('/carrier-connections', workspace.key, {
    name: 'Our carrier account',
    provider: 'twilio',
    base_url: carrier.url,
    account_sid: carrier.accountSid,
    auth_token: carrier.authToken,
  });
  expect(connection.status).toBe(201);
  return { ...workspace, connectionId: connection.body.data.id as string };
}

async function importNumber(key: string, connectionId: string, number = imported, sms = true) {
  carrier.numbers.set(number, { sms });
  const response = await platform.api.post('/phone-numbers/import', key, { number, carrier_connection_id: connectionId });
  expect(response.status).toBe(201);
  const enabled = await platform.api.patch(`/phone-numbers/${response.body.data.id}`, key, { sms_outbound_enabled: true });
  return enabled.body.data as { id: string; number: string };
}

afterEach(() => {
  carrier.mode = 'ok';
});

describe('carrier connections', () => {
  test('credentials are write-only: masked in every answer, encrypted at rest', async () => {
    const { key, connectionId } = await connectedWorkspace();
    const read = await platform.api.get(`/carrier-connections/${connectionId}`, key);
    expect(read.body.data).toEqual({
      id: connectionId,
      name: 'Our carrier account',
      provider: 'twilio',
      base_url: carrier.url,
      account_sid: `${mask}${carrier.accountSid.slice(-4)}`,
      auth_token: mask,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const raw = readdirSync(platform.dataDir)
      .filter((file) => file.startsWith('telephony'))
      .map((file) => readFileSync(join(platform.dataDir, file)).toString('latin1'))
      .join('');
    expect(raw).not.toContain(carrier.authToken);
    expect(raw).not.toContain(carrier.accountSid);
    expect(platform.api.transcript.join('\n')).not.toContain(carrier.authToken);
  });

  test('the test action reports working and refused credentials; the mask keeps the token', async () => {
    const { key, connectionId } = await connectedWorkspace();
    const ok = await platform.api.post(`/carrier-connections/${connectionId}/test`, key, {});
    expect(ok.body.data).toMatchObject({ ok: true, failure: null });
    await platform.api.patch(`/carrier-connections/${connectionId}`, key, { auth_token: 'not-the-token' });
    const refused = await platform.api.post(`/carrier-connections/${connectionId}/test`, key, {});
    expect(refused.body.data).toMatchObject({ ok: false, failure: { code: 'authentication_failed' } });
    await platform.api.patch(`/carrier-connections/${connectionId}`, key, { auth_token: carrier.authToken });
    expect((await platform.api.patch(`/carrier-connections/${connectionId}`, key, { name: 'Renamed', auth_token: mask })).status).toBe(200);
    expect((await platform.api.post(`/carrier-connections/${connectionId}/test`, key, {})).body.data.ok).toBe(true);
  });

  test('moving base_url needs the token again, so a stored token never goes to a new address', async () => {
    const { key, connectionId } = await connectedWorkspace();
    const moved = await platform.api.patch(`/carrier-connections/${connectionId}`, key, { base_url: 'https://carrier.example', auth_token: mask });
    expectError(moved, 400, 'invalid_request');
    expect(moved.body.error.details).toEqual([{ field: 'auth_token', issue: expect.any(String) }]);
  });

  test('validation, other workspaces and deletion while in use', async () => {
    const { key, connectionId } = await connectedWorkspace();
    expectError(await platform.api.post('/carrier-connections', key, { name: 'x', provider: 'bandwidth', account_sid: 'a', auth_token: 'b' }), 400, 'invalid_request');
    expectError(await platform.api.post('/carrier-connections', key, { name: 'x', provider: 'twilio', account_sid: 'a', auth_token: mask }), 400, 'invalid_request');
    const badBodies: [string, unknown, string][] = [
      ['post', { name: 'x', provider: 'twilio', base_url: 'ftp://carrier.example', account_sid: 'a', auth_token: 'b' }, 'base_url'],
      ['post', { name: 'x', provider: 'twilio', base_url: 'https://user:pw@carrier.example', account_sid: 'a', auth_token: 'b' }, 'base_url'],
      ['post', { name: 'x', provider: 'sandbox', base_url: 'https://carrier.example', account_sid: 'a', auth_token: 'b' }, 'base_url'],
      ['post', { name: '', provider: 'twilio', account_sid: 'a', auth_token: 'b' }, 'name'],
      ['post', { name: 'x', provider: 'twilio', account_sid: 'a', auth_token: 'b', region: 'eu' }, 'region'],
      ['patch', { base_url: 'not a url', auth_token: 'b' }, 'base_url'],
    ];
    for (const [method, body, field] of badBodies) {
      const response = method === 'post' ? await platform.api.post('/carrier-connections', key, body) : await platform.api.patch(`/carrier-connections/${connectionId}`, key, body);
      expectError(response, 400, 'invalid_request');
      expect(response.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    const campaignBodies: [unknown, string][] = [
      [{ carrier_connection_id: connectionId, use_case: 'X', description: 'd' }, 'name'],
      [{ name: 'n', carrier_connection_id: 'nope', use_case: 'X', description: 'd' }, 'carrier_connection_id'],
      [{ name: 'n', carrier_connection_id: connectionId, use_case: 'X', description: 'd', sample_messages: ['1', '2', '3', '4', '5', '6'] }, 'sample_messages'],
    ];
    for (const [body, field] of campaignBodies) {
      const response = await platform.api.post('/a2p-campaigns', key, body);
      expectError(response, 400, 'invalid_request');
      expect(response.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    expectError(
      await platform.api.post('/a2p-campaigns', key, { name: 'n', carrier_connection_id: '5b7e0c3e-4d5f-4a1b-9c2d-0e1f2a3b4c5d', use_case: 'X', description: 'd' }),
      404,
      'not_found',
    );
    expect((await platform.api.get('/a2p-campaigns', key)).body.meta.pagination.total).toBe(0);
    const stranger = await platform.workspace();
    expectError(await platform.api.get(`/carrier-connections/${connectionId}`, stranger.key), 404, 'not_found');
    expectError(await platform.api.post('/phone-numbers/import', stranger.key, { number: imported, carrier_connection_id: connectionId }), 404, 'not_found');
    const number = await importNumber(key, connectionId, '+14155550143');
    expectError(await platform.api.delete(`/carrier-connections/${connectionId}`, key), 409, 'conflict');
    expect((await platform.api.delete(`/phone-numbers/${number.id}`, key)).status).toBe(200);
    expect((await platform.api.delete(`/carrier-connections/${connectionId}`, key)).body).toEqual({ data: { id: connectionId, deleted: true } });
  });
});

describe('imported numbers', () => {
  test('only numbers the carrier account holds can be imported, with its capabilities', async () => {
    const { key, connectionId } = await connectedWorkspace();
    carrier.numbers.set('+14155550144', { sms: false });
    const response = await platform.api.post('/phone-numbers/import', key, { number: '+1 (415) 555-0144', carrier_connection_id: connectionId });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ number: '+14155550144', country: 'US', source: 'imported', sms_capable: false, carrier_connection_id: connectionId, sms_outbound_enabled: false });
    expectError(await platform.api.post('/phone-numbers/import', key, { number: '+14155550199', carrier_connection_id: connectionId }), 409, 'telephony_configuration_error');
    expectError(await platform.api.post('/phone-numbers/import', key, { number: '+14155550144', carrier_connection_id: connectionId }), 409, 'conflict');
  });

  test('a number that is not SMS-capable is 409 telephony_configuration_error', async () => {
    const { key, connectionId } = await connectedWorkspace();
    const number = await importNumber(key, connectionId, '+14155550145', false);
    expectError(await platform.api.post('/sms/send', key, { from_number_id: number.id, to: ukDestination, body: 'x' }), 409, 'telephony_configuration_error');
  });
});

describe('sending through the carrier', () => {
  test('form-encoded Messages request with basic auth and the status callback; charged without pass-through', async () => {
    const { key, connectionId } = await connectedWorkspace('1.0000');
    const number = await importNumber(key, connectionId, '+14155550146');
    const response = await platform.api.post('/sms/send', key, { from_number_id: number.id, to: ukDestination, body: 'Hello from our own account' });
    expect(response.status).toBe(202);
    // Imported numbers pay the platform fee only (0.0100 per segment).
    expect(response.body.data).toMatchObject({ status: 'queued', credits: '0.0100', from: '+14155550146' });
    expect(carrier.sentMessages().at(-1)).toEqual({
      From: '+14155550146',
      To: ukDestination,
      Body: 'Hello from our own account',
      StatusCallback: `${platform.running.url}/webhooks/carriers/${connectionId}`,
    });
    const request = carrier.requests.filter((r) => r.path.endsWith('/Messages.json')).at(-1)!;
    expect(request.path).toBe(`/2010-04-01/Accounts/${carrier.accountSid}/Messages.json`);
    expect(request.authorization).toBe(`Basic ${Buffer.from(`${carrier.accountSid}:${carrier.authToken}`).toString('base64')}`);
    const [debit] = await ledgerWith(platform.api, key, 'sms.outbound', 1);
    expect(debit!.credits).toBe('-0.0100');
  });

  test('a delivery callback that comes before the send is recorded is applied when it is, once', async () => {
    const { key, connectionId } = await connectedWorkspace();
    const number = await importNumber(key, connectionId, '+14155550158');
    // Twilio can report a message before its answer naming the sid has been recorded: here, before the send at all.
    const carrierSid = `SM${'e'.repeat(32)}`;
    carrier.nextMessageSids.push(carrierSid);
    expect((await callback(connectionId, { MessageSid: carrierSid, MessageStatus: 'sent' })).status).toBe(204);
    expect((await callback(connectionId, { MessageSid: carrierSid, MessageStatus: 'delivered' })).status).toBe(204);
    const sent = await platform.api.post('/sms/send', key, { from_number_id: number.id, to: ukDestination, body: 'Reported early' });
    expect(sent.status).toBe(202);
    expect(carrierIdOf('Reported early')).toBe(carrierSid);
    expect((await platform.api.get(`/sms/messages/${sent.body.data.id}`, key)).body.data).toMatchObject({ status: 'delivered', failure_reason: null });
    // A repeated report once it is recorded changes nothing.
    expect((await callback(connectionId, { MessageSid: carrierSid, MessageStatus: 'sent' })).status).toBe(204);
    expect((await platform.api.get(`/sms/messages/${sent.body.data.id}`, key)).body.data.status).toBe('delivered');
  });

  test('signed delivery callbacks move the message forward; bad signatures change nothing', async () => {
    const { key, connectionId } = await connectedWorkspace();
    const number = await importNumber(key, connectionId, '+14155550147');
    const sent = await platform.api.post('/sms/send', key, { from_number_id: number.id, to: ukDestination, body: 'Track me' });
    const messageId = sent.body.data.id;
    // The carrier's id of the message is what callbacks name; the platform never shows it.
    const carrierSid = carrierIdOf('Track me');
    expect(carrierSid).toMatch(/^SM/);
    expect(sent.text).not.toContain(carrierSid);
    const forged = await callback(connectionId, { MessageSid: carrierSid, MessageStatus: 'delivered' }, 'bm90IGEgc2lnbmF0dXJl');
    expectError(forged, 403, 'forbidden');
    expect((await platform.api.get(`/sms/messages/${messageId}`, key)).body.data.status).toBe('queued');
    expect((await callback(connectionId, { MessageSid: carrierSid, MessageStatus: 'sent' })).status).toBe(204);
    expect((await platform.api.get(`/sms/messages/${messageId}`, key)).body.data.status).toBe('sent');
    expect((await callback(connectionId, { MessageSid: carrierSid, MessageStatus: 'undelivered', ErrorCode: '30003' })).status).toBe(204);
    const failed = (await platform.api.get(`/sms/messages/${messageId}`, key)).body.data;
    expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('30003') });
    // Final states stay final.
    await callback(connectionId, { MessageSid: carrierSid, MessageStatus: 'delivered' });
    expect((await platform.api.get(`/sms/messages/${messageId}`, key)).body.data.status).toBe('failed');
    expectError(await callback('5b7e0c3e-4d5f-4a1b-9c2d-0e1f2a3b4c5d', { MessageSid: carrierSid, MessageStatus: 'sent' }), 404, 'not_found');
    expectError(await callback('platform', { MessageSid: carrierSid, MessageStatus: 'sent' }), 403, 'forbidden');
    // Malformed callbacks change nothing either.
    const path = `/webhooks/carriers/${connectionId}`;
    const asJson = await platform.api.request('POST', path, { body: { MessageSid: carrierSid, MessageStatus: 'sent' }, headers: { 'x-twilio-signature': 'x' } });
    expectError(asJson, 400, 'invalid_request');
    const repeated = 'MessageSid=a&MessageSid=b&MessageStatus=sent';
    expectError(
      await platform.api.request('POST', path, { rawBody: repeated, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'x' } }),
      400,
      'invalid_request',
    );
    expectError(await callback(connectionId, { MessageSid: carrierSid, MessageStatus: 'teleported' }), 400, 'invalid_request');
    expectError(await callback(connectionId, { Hello: 'world' }), 400, 'invalid_request');
    expectError(await platform.api.request('GET', path), 405, 'invalid_request');
    expect((await platform.api.get(`/sms/messages/${messageId}`, key)).body.data.status).toBe('failed');
  });

  test.each([
    ['answers 500', 'server_error' as const],
    ['never answers (timeout)', 'hang' as const],
  ])('a carrier that %s is 503 telephony_unavailable with Retry-After, and nothing is charged', async (_name, mode) => {
    const { key, connectionId } = await connectedWorkspace('1.0000');
    const number = await importNumber(key, connectionId, mode === 'hang' ? '+14155550148' : '+14155550149');
    carrier.mode = mode;
    const before = carrier.sentMessages().length;
    const response = await platform.api.post('/sms/send', key, { from_number_id: number.id, to: ukDestination, body: 'x' }, { headers: { 'Idempotency-Key': `down-${mode}` } });
    expectError(response, 503, 'telephony_unavailable');
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    // A send that may have reached the carrier is never retried (it could go out twice).
    expect(carrier.sentMessages().length - before).toBe(1);
    carrier.mode = 'ok';
    expect((await platform.api.get('/sms/messages', key)).body.meta.pagination.total).toBe(0);
    // The hold goes back through the outbox after the answer: once it has, nothing was debited.
    await availableCreditsReach(platform.api, key, '1.0000');
    expect((await ledger(platform.api, key)).filter((entry) => entry.kind === 'sms.outbound')).toHaveLength(0);
    expect(await balance(platform.api, key)).toEqual(settledBalance('1.0000'));
    // The same key works again once the carrier is back: a failed attempt does not bind it.
    const retry = await platform.api.post('/sms/send', key, { from_number_id: number.id, to: ukDestination, body: 'x' }, { headers: { 'Idempotency-Key': `down-${mode}` } });
    expect(retry.status).toBe(202);
  });

  test('a carrier that is down (nothing listens) is 503, and nothing is charged', async () => {
    const workspace = await platform.workspace();
    await platform.fund(workspace.id, '1.0000');
    const closed = await startFakeTwilio();
    const downUrl = closed.url;
    await closed.close();
    const connection = await platform.api.post('/carrier-connections', workspace.key, {
      name: 'Gone',
      provider: 'twilio',
      base_url: carrier.url,
      account_sid: carrier.accountSid,
      auth_token: carrier.authToken,
    });
    const number = await importNumber(workspace.key, connection.body.data.id, '+14155550150');
    await platform.api.patch(`/carrier-connections/${connection.body.data.id}`, workspace.key, { base_url: downUrl, auth_token: carrier.authToken });
    expectError(await platform.api.post('/sms/send', workspace.key, { from_number_id: number.id, to: ukDestination, body: 'x' }), 503, 'telephony_unavailable');
    expect((await platform.api.get('/sms/messages', workspace.key)).body.meta.pagination.total).toBe(0);
    await availableCreditsReach(platform.api, workspace.key, '1.0000');
    expect(await balance(platform.api, workspace.key)).toEqual(settledBalance('1.0000'));
  });

  test('missing credits are refused before the carrier is asked: 409, not 503, when the carrier is down too', async () => {
    const broke = await platform.workspace();
    const connection = await platform.api.post('/carrier-connections', broke.key, {
      name: 'Soon gone',
      provider: 'twilio',
      base_url: carrier.url,
      account_sid: carrier.accountSid,
      auth_token: carrier.authToken,
    });
    const number = await importNumber(broke.key, connection.body.data.id, '+14155550160');
    const closed = await startFakeTwilio();
    await closed.close();
    await platform.api.patch(`/carrier-connections/${connection.body.data.id}`, broke.key, { base_url: closed.url, auth_token: carrier.authToken });
    const refused = await platform.api.post('/sms/send', broke.key, { from_number_id: number.id, to: ukDestination, body: 'x' });
    expectError(refused, 409, 'conflict');
    expect(refused.body.error.message).toMatch(/credits/);
  });
});

describe('A2P 10DLC', () => {
  test('a US long code sending to the US needs an approved campaign; other destinations do not', async () => {
    const { key, connectionId } = await connectedWorkspace();
    const number = await importNumber(key, connectionId, '+14155550151');
    const toUs = () => platform.api.post('/sms/send', key, { from_number_id: number.id, to: usDestination, body: 'Appointment reminder' });
    const noCampaign = await toUs();
    expectError(noCampaign, 409, 'telephony_configuration_error');
    expect(noCampaign.body.error.message).toMatch(/A2P/);
    expect((await platform.api.post('/sms/send', key, { from_number_id: number.id, to: ukDestination, body: 'x' })).status).toBe(202);

    const campaign = await platform.api.post('/a2p-campaigns', key, {
      name: 'Reminders',
      carrier_connection_id: connectionId,
      use_case: 'ACCOUNT_NOTIFICATION',
      description: 'Appointment reminders for customers who booked online.',
      sample_messages: ['Your appointment is tomorrow at 10:00. Reply STOP to opt out.'],
    });
    expect(campaign.status).toBe(201);
    expect(campaign.body.data.status).toBe('pending');
    const campaignId = campaign.body.data.id;
    expect((await platform.api.patch(`/phone-numbers/${number.id}`, key, { a2p_campaign_id: campaignId })).body.data.a2p_campaign_id).toBe(campaignId);
    expectError(await toUs(), 409, 'telephony_configuration_error');

    expectError(await callback(connectionId, { CampaignId: campaignId, CampaignStatus: 'approved' }, 'forged'), 403, 'forbidden');
    expect((await callback(connectionId, { CampaignId: campaignId, CampaignStatus: 'approved' })).status).toBe(204);
    expect((await platform.api.get(`/a2p-campaigns/${campaignId}`, key)).body.data.status).toBe('approved');
    expect((await toUs()).status).toBe(202);
  });

  test('a rejected campaign still refuses; toll-free and marketplace numbers need none', async () => {
    const { key, connectionId } = await connectedWorkspace();
    const number = await importNumber(key, connectionId, '+14155550152');
    const campaign = await platform.api.post('/a2p-campaigns', key, {
      name: 'Promotions',
      carrier_connection_id: connectionId,
      use_case: 'MARKETING',
      description: 'Weekly promotions for subscribers of the newsletter.',
      sample_messages: ['20% off this week'],
    });
    await platform.api.patch(`/phone-numbers/${number.id}`, key, { a2p_campaign_id: campaign.body.data.id });
    await callback(connectionId, { CampaignId: campaign.body.data.id, CampaignStatus: 'rejected', Reason: 'opt-out language missing' });
    expect((await platform.api.get(`/a2p-campaigns/${campaign.body.data.id}`, key)).body.data).toMatchObject({ status: 'rejected', rejection_reason: 'opt-out language missing' });
    expectError(await platform.api.post('/sms/send', key, { from_number_id: number.id, to: usDestination, body: 'x' }), 409, 'telephony_configuration_error');
    const tollFree = await importNumber(key, connectionId, '+18005550100');
    expect((await platform.api.post('/sms/send', key, { from_number_id: tollFree.id, to: usDestination, body: 'x' })).status).toBe(202);
  });
});

/** The carrier's id of the message with this body, as the fake carrier issued it. */
const carrierIdOf = (body: string): string => carrier.requests.find((request) => request.form.Body === body)?.sid ?? '';

describe('a platform whose own carrier is Twilio-compatible', () => {
  test('refuses sandbox connections, which would let anyone claim real numbers', async () => {
    const production = await startTestPlatform(platformCarrierEnv(carrier));
    try {
      const { key } = await production.workspace();
      const refused = await production.api.post('/carrier-connections', key, { name: 'Sandbox', provider: 'sandbox', account_sid: 'a', auth_token: 'b' });
      expectError(refused, 400, 'invalid_request');
      expect(refused.body.error.details).toEqual([{ field: 'provider', issue: expect.stringContaining('sandbox') }]);
    } finally {
      await production.close();
    }
  });
});
