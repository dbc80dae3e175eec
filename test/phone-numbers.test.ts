// Phone numbers, the suppression list and sandbox A2P campaigns through the gateway.
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('marketplace', () => {
  test('search lists valid E.164 numbers with capabilities and a monthly price; bought numbers leave the list', async () => {
    const { id: workspaceId, key } = await platform.workspace();
    await platform.fund(workspaceId, '1.1500');
    const search = await platform.api.get('/phone-numbers/available?country=us&area_code=415&limit=5', key);
    expect(search.status).toBe(200);
    expect(search.body.meta.pagination).toMatchObject({ limit: 5, offset: 0 });
    expect(search.body.data).toHaveLength(5);
    const everything = await platform.api.get('/phone-numbers/available?country=US&area_code=415&limit=200', key);
    expect(search.body.meta.pagination.total).toBe(everything.body.data.length);
    expect(search.body.meta.pagination.total).toBeGreaterThan(5);
    const second = await platform.api.get('/phone-numbers/available?country=US&area_code=415&limit=5&offset=5', key);
    expect(second.body.data).toEqual(everything.body.data.slice(5, 10));
    for (const offer of search.body.data) {
      expect(offer).toEqual({ number: expect.stringMatching(/^\+1415\d{7}$/), country: 'US', sms_capable: true, voice_capable: true, monthly_credits: '1.1500' });
    }
    const chosen = search.body.data[0].number;
    const bought = await platform.api.post('/phone-numbers', key, { number: chosen });
    expect(bought.status).toBe(201);
    expect(bought.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      number: chosen,
      country: 'US',
      source: 'marketplace',
      name: '',
      sms_capable: true,
      voice_capable: true,
      sms_outbound_enabled: false,
      carrier_connection_id: null,
      a2p_campaign_id: null,
      assistant_id: null,
      status: 'active',
      monthly_credits: '1.1500',
      next_renewal_at: expect.stringMatching(iso),
      release_at: null,
      created_at: expect.stringMatching(iso),
      updated_at: expect.stringMatching(iso),
    });
    const again = await platform.api.get('/phone-numbers/available?country=US&area_code=415&limit=50', key);
    expect(again.body.data.map((offer: { number: string }) => offer.number)).not.toContain(chosen);
    const other = await platform.workspace();
    await platform.fund(other.id, '1.1500');
    expectError(await platform.api.post('/phone-numbers', other.key, { number: chosen }), 409, 'conflict');
  });

  test('numbers the carrier does not offer, bad numbers and bad queries are refused', async () => {
    const { id: workspaceId, key } = await platform.workspace();
    await platform.fund(workspaceId, '1.1500');
    expectError(await platform.api.post('/phone-numbers', key, { number: '+14155550100' }), 409, 'conflict');
    const bad = await platform.api.post('/phone-numbers', key, { number: '555-0100' });
    expectError(bad, 400, 'invalid_request');
    expect(fieldsOf(bad)).toEqual(['number']);
    expect(fieldsOf(await platform.api.get('/phone-numbers/available?country=USA', key))).toEqual(['country']);
    expect(fieldsOf(await platform.api.get('/phone-numbers/available', key))).toEqual(['country']);
    expect(fieldsOf(await platform.api.get('/phone-numbers/available?country=US&limit=500', key))).toEqual(['limit']);
    expect(fieldsOf(await platform.api.get('/phone-numbers/available?country=US&colour=red', key))).toEqual(['colour']);
  });

  test('settings, assignment, listing, release; another workspace sees 404', async () => {
    const { id: workspaceId, key } = await platform.workspace();
    await platform.fund(workspaceId, '2.3000');
    const [first, second] = (await platform.api.get('/phone-numbers/available?country=GB&limit=2', key)).body.data;
    const a = (await platform.api.post('/phone-numbers', key, { number: first.number })).body.data;
    const b = (await platform.api.post('/phone-numbers', key, { number: second.number })).body.data;
    expect(a.country).toBe('GB');
    // A number is assigned an assistant of its workspace (test/assistants-references.test.ts has the refusals).
    const assistantId = (await platform.api.post('/assistants', key, { name: 'Front desk' })).body.data.id as string;
    const patched = await platform.api.patch(`/phone-numbers/${a.id}`, key, { name: 'Front desk', sms_outbound_enabled: true, assistant_id: assistantId });
    expect(patched.body.data).toMatchObject({ name: 'Front desk', sms_outbound_enabled: true, assistant_id: assistantId });
    expect((await platform.api.patch(`/phone-numbers/${a.id}`, key, { assistant_id: null })).body.data.assistant_id).toBeNull();
    expect(fieldsOf(await platform.api.patch(`/phone-numbers/${a.id}`, key, { sms_outbound_enabled: 'yes' }))).toEqual(['sms_outbound_enabled']);
    expect(fieldsOf(await platform.api.patch(`/phone-numbers/${a.id}`, key, { number: '+15550100' }))).toEqual(['number']);
    expectError(await platform.api.patch(`/phone-numbers/${a.id}`, key, { a2p_campaign_id: '0f8fad5b-d9cb-469f-a165-70867728950f' }), 404, 'not_found');

    const list = await platform.api.get('/phone-numbers?limit=1', key);
    expect(list.body.meta.pagination).toEqual({ limit: 1, offset: 0, total: 2 });
    expect(list.body.data[0].id).toBe(b.id);

    const stranger = await platform.workspace();
    await platform.fund(stranger.id, '1.1500');
    expectError(await platform.api.get(`/phone-numbers/${a.id}`, stranger.key), 404, 'not_found');
    expectError(await platform.api.patch(`/phone-numbers/${a.id}`, stranger.key, { name: 'mine' }), 404, 'not_found');
    expectError(await platform.api.delete(`/phone-numbers/${a.id}`, stranger.key), 404, 'not_found');
    expectError(await platform.api.get('/phone-numbers/42', key), 404, 'not_found');

    expect((await platform.api.delete(`/phone-numbers/${a.id}`, key)).body).toEqual({ data: { id: a.id, deleted: true } });
    expectError(await platform.api.get(`/phone-numbers/${a.id}`, key), 404, 'not_found');
    // A released number can be bought again.
    expect((await platform.api.post('/phone-numbers', stranger.key, { number: first.number })).status).toBe(201);
  });

  test('scopes: phone_numbers:read lists, phone_numbers:write buys; others are 403', async () => {
    const { id } = await platform.workspace();
    const reader = await platform.key(id, ['phone_numbers:read']);
    const nobody = await platform.key(id, ['assistants:read']);
    expect((await platform.api.get('/phone-numbers', reader)).status).toBe(200);
    expectError(await platform.api.get('/phone-numbers', nobody), 403, 'forbidden');
    expectError(await platform.api.post('/phone-numbers', reader, { number: '+14155550100' }), 403, 'forbidden');
    expectError(await platform.api.request('PUT', '/phone-numbers', { key: reader }), 405, 'invalid_request');
  });
});

describe('suppression list', () => {
  test('add, list, duplicate, remove; scoped to the workspace and to leads:*', async () => {
    const { id, key } = await platform.workspace();
    const added = await platform.api.post('/suppression', key, { number: '+1 212 555 0199', reason: 'complained' });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({ id: expect.any(String), number: '+12125550199', reason: 'complained', created_at: expect.stringMatching(iso) });
    expectError(await platform.api.post('/suppression', key, { number: '+12125550199' }), 409, 'conflict');
    expect(fieldsOf(await platform.api.post('/suppression', key, { number: 'call me' }))).toEqual(['number']);
    expect((await platform.api.get('/suppression', key)).body.meta.pagination.total).toBe(1);
    const stranger = await platform.workspace();
    expectError(await platform.api.delete(`/suppression/${added.body.data.id}`, stranger.key), 404, 'not_found');
    const phoneOnly = await platform.key(id, ['phone_numbers:write']);
    expectError(await platform.api.get('/suppression', phoneOnly), 403, 'forbidden');
    const leadsReader = await platform.key(id, ['leads:read']);
    expect((await platform.api.get('/suppression', leadsReader)).status).toBe(200);
    expectError(await platform.api.post('/suppression', leadsReader, { number: '+12125550198' }), 403, 'forbidden');
    expect((await platform.api.delete(`/suppression/${added.body.data.id}`, key)).status).toBe(200);
    expectError(await platform.api.delete(`/suppression/${added.body.data.id}`, key), 404, 'not_found');
  });
});

describe('sandbox carrier connections and A2P', () => {
  test('the sandbox vets campaigns at once; an imported US number sends to the US only with an approved one', async () => {
    const { id, key } = await platform.workspace();
    await platform.fund(id, '1.0000');
    const connection = await platform.api.post('/carrier-connections', key, { name: 'Sandbox', provider: 'sandbox', account_sid: 'AC-sandbox-account', auth_token: 'sandbox-token-123' });
    expect(connection.status).toBe(201);
    expect(connection.body.data).toMatchObject({ provider: 'sandbox', base_url: null, auth_token: '\u2022\u2022\u2022' });
    const connectionId = connection.body.data.id;
    expect((await platform.api.post(`/carrier-connections/${connectionId}/test`, key, {})).body.data.ok).toBe(true);
    const number = (await platform.api.post('/phone-numbers/import', key, { number: '+13125550142', carrier_connection_id: connectionId })).body.data;
    expect(number).toMatchObject({ source: 'imported', carrier_connection_id: connectionId, sms_capable: true });
    await platform.api.patch(`/phone-numbers/${number.id}`, key, { sms_outbound_enabled: true });

    const rejected = await platform.api.post('/a2p-campaigns', key, { name: 'Thin', carrier_connection_id: connectionId, use_case: 'MARKETING', description: 'Too short' });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', rejection_reason: expect.any(String) });
    const approved = await platform.api.post('/a2p-campaigns', key, {
      name: 'Reminders',
      carrier_connection_id: connectionId,
      use_case: 'ACCOUNT_NOTIFICATION',
      description: 'Appointment reminders for patients who booked online.',
      sample_messages: ['Reminder: your appointment is tomorrow at 9:00. Reply STOP to opt out.'],
    });
    expect(approved.body.data.status).toBe('approved');
    expect((await platform.api.get('/a2p-campaigns', key)).body.meta.pagination.total).toBe(2);

    const send = () => platform.api.post('/sms/send', key, { from_number_id: number.id, to: '+12125550199', body: 'Reminder' });
    await platform.api.patch(`/phone-numbers/${number.id}`, key, { a2p_campaign_id: rejected.body.data.id });
    expectError(await send(), 409, 'telephony_configuration_error');
    await platform.api.patch(`/phone-numbers/${number.id}`, key, { a2p_campaign_id: approved.body.data.id });
    const sent = await send();
    expect(sent.status).toBe(202);
    // Imported numbers pay the platform fee only.
    expect(sent.body.data.credits).toBe('0.0100');

    // A campaign of another connection cannot be linked.
    const other = await platform.api.post('/carrier-connections', key, { name: 'Second', provider: 'sandbox', account_sid: 'AC-second', auth_token: 'token-2' });
    const foreign = await platform.api.post('/a2p-campaigns', key, {
      name: 'Elsewhere',
      carrier_connection_id: other.body.data.id,
      use_case: 'ACCOUNT_NOTIFICATION',
      description: 'Appointment reminders for patients who booked online.',
      sample_messages: ['Reminder'],
    });
    const linked = await platform.api.patch(`/phone-numbers/${number.id}`, key, { a2p_campaign_id: foreign.body.data.id });
    expectError(linked, 400, 'invalid_request');
    expect(fieldsOf(linked)).toEqual(['a2p_campaign_id']);
  });

  test('sandbox magic destinations: invalid and blocked are refused; undeliverable fails after acceptance', async () => {
    const { id, key } = await platform.workspace();
    // The number's first month and the messages.
    await platform.fund(id, '2.1500');
    const search = await platform.api.get('/phone-numbers/available?country=US&limit=1', key);
    const number = (await platform.api.post('/phone-numbers', key, { number: search.body.data[0].number })).body.data;
    await platform.api.patch(`/phone-numbers/${number.id}`, key, { sms_outbound_enabled: true });
    const send = (to: string) => platform.api.post('/sms/send', key, { from_number_id: number.id, to, body: 'x' });
    expectError(await send('+15005550004'), 403, 'destination_forbidden');
    const undeliverable = await send('+15005550009');
    expect(undeliverable.status).toBe(202);
    let status = 'queued';
    for (let attempt = 0; attempt < 100 && status !== 'failed'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = (await platform.api.get(`/sms/messages/${undeliverable.body.data.id}`, key)).body.data.status;
    }
    expect(status).toBe('failed');
  });
});
