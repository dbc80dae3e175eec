// POST /sms/send through the gateway with the built-in sandbox carrier: the happy path, every
// precondition in API.md 6's order, segmentation, prices, idempotent retries and concurrent
// sends against a small balance.
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { balance, buySmsNumber, eventually, ledger, ledgerWith, settledBalance } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  // Numbers are free here: this file counts SMS charges (test/number-fees.test.ts covers the monthly fees).
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

// Defaults of VOICE_SMS_CREDITS_PER_SEGMENT (0.0100) plus VOICE_SMS_CARRIER_CREDITS_PER_SEGMENT (0.0079).
const marketplaceSegment = 179;
const credits = (units: number) => (units / 10_000).toFixed(4);
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const destination = '+442071838750';

async function funded(amount = '10.0000') {
  const workspace = await platform.workspace();
  if (amount !== '0') await platform.fund(workspace.id, amount);
  const number = await buySmsNumber(platform.api, workspace.key);
  return { ...workspace, number };
}

const send = (key: string, body: unknown, headers: Record<string, string> = {}) => platform.api.post('/sms/send', key, body, { headers });

describe('sending', () => {
  test('202 with the message; delivered by the carrier; one ledger debit at the price', async () => {
    const { key, number } = await funded('1.0000');
    const response = await send(key, { from_number_id: number.id, to: '+44 20 7183 8750', body: 'Your table is ready.' });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: 'queued',
        from_number_id: number.id,
        from: number.number,
        to: destination,
        body: 'Your table is ready.',
        segments: 1,
        encoding: 'GSM-7',
        credits: credits(marketplaceSegment),
        failure_reason: null,
        created_at: expect.stringMatching(iso),
        updated_at: expect.stringMatching(iso),
      },
    });
    const id = response.body.data.id;
    const delivered = await eventually(async () => {
      const read = await platform.api.get(`/sms/messages/${id}`, key);
      return read.body.data.status === 'delivered' ? read.body.data : undefined;
    });
    expect(delivered.credits).toBe('0.0179');
    const [debit] = await ledgerWith(platform.api, key, 'sms.outbound', 1);
    expect(debit).toMatchObject({ credits: '-0.0179', minutes: '0.000', reference: id, balance_after: { credits: '0.9821', minutes: '0.000' } });
    expect(await balance(platform.api, key)).toEqual(settledBalance('0.9821'));
    expect(response.text).not.toMatch(/SM[0-9a-f]{32}/);
  });

  test.each([
    ['160 GSM-7 characters', 'a'.repeat(160), 1, 'GSM-7'],
    ['161 GSM-7 characters', 'a'.repeat(161), 2, 'GSM-7'],
    ['306 GSM-7 characters', 'a'.repeat(306), 2, 'GSM-7'],
    ['307 GSM-7 characters', 'a'.repeat(307), 3, 'GSM-7'],
    ['80 euro signs (extension, 2 septets each)', '€'.repeat(80), 1, 'GSM-7'],
    ['81 euro signs', '€'.repeat(81), 2, 'GSM-7'],
    ['70 UCS-2 characters', 'ж'.repeat(70), 1, 'UCS-2'],
    ['71 UCS-2 characters', 'ж'.repeat(71), 2, 'UCS-2'],
    ['one emoji makes it UCS-2', `${'a'.repeat(60)}🙂`, 1, 'UCS-2'],
  ])('%s: segments, encoding and price', async (_name, body, segments, encoding) => {
    const { key, number } = await funded();
    const response = await send(key, { from_number_id: number.id, to: destination, body });
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ segments, encoding, credits: credits(segments * marketplaceSegment) });
  });

  test('at most 10 segments: 1530 GSM-7 characters pass, 1531 are a 400', async () => {
    const { key, number } = await funded();
    expect((await send(key, { from_number_id: number.id, to: destination, body: 'a'.repeat(1530) })).body.data.segments).toBe(10);
    const tooLong = await send(key, { from_number_id: number.id, to: destination, body: 'a'.repeat(1531) });
    expectError(tooLong, 400, 'invalid_request');
    expect(fieldsOf(tooLong)).toEqual(['body']);
  });

  test('lists messages newest first with pagination and a status filter; other workspaces see nothing', async () => {
    const { key, number } = await funded();
    const sent: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      sent.push((await send(key, { from_number_id: number.id, to: destination, body: `message ${index}` })).body.data.id);
    }
    const page = await platform.api.get('/sms/messages?limit=2&offset=0', key);
    expect(page.body.meta).toEqual({ pagination: { limit: 2, offset: 0, total: 3 } });
    expect(page.body.data.map((m: { id: string }) => m.id)).toEqual([sent[2], sent[1]]);
    await eventually(async () => ((await platform.api.get('/sms/messages?status=delivered', key)).body.meta.pagination.total === 3 ? true : undefined));
    expectError(await platform.api.get('/sms/messages?status=lost', key), 400, 'invalid_request');
    const stranger = await platform.workspace();
    expectError(await platform.api.get(`/sms/messages/${sent[0]}`, stranger.key), 404, 'not_found');
    expect((await platform.api.get('/sms/messages', stranger.key)).body.meta.pagination.total).toBe(0);
    expectError(await platform.api.get('/sms/messages/not-a-uuid', key), 404, 'not_found');
  });
});

describe('preconditions, in order', () => {
  test('malformed bodies are 400 naming the field, and nothing is sent or charged', async () => {
    const { key, number } = await funded('1.0000');
    const cases: [unknown, string[]][] = [
      [{}, ['from_number_id', 'to', 'body']],
      [{ from_number_id: number.id, to: '4420 7183 8750', body: 'x' }, ['to']],
      [{ from_number_id: number.id, to: '+1', body: 'x' }, ['to']],
      [{ from_number_id: number.id, to: 447, body: 'x' }, ['to']],
      [{ from_number_id: number.id, to: destination, body: '' }, ['body']],
      [{ from_number_id: 'number-one', to: destination, body: 'x' }, ['from_number_id']],
      [{ from_number_id: number.id, to: destination, body: 'x', priority: 'high' }, ['priority']],
    ];
    for (const [body, fields] of cases) {
      const response = await send(key, body);
      expectError(response, 400, 'invalid_request');
      expect(fieldsOf(response).sort()).toEqual([...fields].sort());
    }
    expectError(await platform.api.request('POST', '/sms/send', { key, rawBody: '{"to":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    expect((await platform.api.get('/sms/messages', key)).body.meta.pagination.total).toBe(0);
    expect(await balance(platform.api, key)).toEqual(settledBalance('1.0000'));
  });

  test("a number that is not the workspace's is 404, even a malformed-looking one the body allows", async () => {
    const { key } = await funded();
    const other = await funded();
    expectError(await send(key, { from_number_id: other.number.id, to: destination, body: 'x' }), 404, 'not_found');
    expectError(await send(key, { from_number_id: '5b7e0c3e-4d5f-4a1b-9c2d-0e1f2a3b4c5d', to: destination, body: 'x' }), 404, 'not_found');
    // Unknown beats every check of the number itself: another workspace's disabled number is 404, not 409.
    const disabled = await buySmsNumber(platform.api, other.key, { enable: false });
    expectError(await send(key, { from_number_id: disabled.id, to: destination, body: 'x' }), 404, 'not_found');
  });

  test('outbound SMS disabled (the default) is 409 telephony_configuration_error', async () => {
    const workspace = await platform.workspace();
    await platform.fund(workspace.id, '1.0000');
    const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
    const response = await send(workspace.key, { from_number_id: number.id, to: destination, body: 'x' });
    expectError(response, 409, 'telephony_configuration_error');
    expect(response.body.error.message).toMatch(/outbound/);
  });

  test('a suppressed destination is 403 destination_forbidden, whatever its spelling', async () => {
    const { key, number } = await funded();
    const added = await platform.api.post('/suppression', key, { number: '+44 20 7183 8750', reason: 'asked to stop' });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ number: destination, reason: 'asked to stop' });
    expectError(await send(key, { from_number_id: number.id, to: destination, body: 'x' }), 403, 'destination_forbidden');
    // Another workspace's list does not apply here.
    const other = await funded();
    expect((await send(other.key, { from_number_id: other.number.id, to: destination, body: 'x' })).status).toBe(202);
    expect((await platform.api.delete(`/suppression/${added.body.data.id}`, key)).status).toBe(200);
    expect((await send(key, { from_number_id: number.id, to: destination, body: 'x' })).status).toBe(202);
  });

  test('not enough credits is 409 conflict and nothing is sent', async () => {
    const { key, number } = await funded('0');
    const response = await send(key, { from_number_id: number.id, to: destination, body: 'x' });
    expectError(response, 409, 'conflict');
    expect(response.body.error.message).toMatch(/credits/);
    expect((await platform.api.get('/sms/messages', key)).body.meta.pagination.total).toBe(0);
  });

  test('each refusal wins over every later one', async () => {
    const workspace = await platform.workspace();
    const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
    await platform.api.post('/suppression', workspace.key, { number: destination });
    // Malformed beats unknown number.
    expectError(await send(workspace.key, { from_number_id: '5b7e0c3e-4d5f-4a1b-9c2d-0e1f2a3b4c5d', to: 'nope', body: 'x' }), 400, 'invalid_request');
    // Disabled number beats suppressed destination and missing credits.
    expectError(await send(workspace.key, { from_number_id: number.id, to: destination, body: 'x' }), 409, 'telephony_configuration_error');
    await platform.api.patch(`/phone-numbers/${number.id}`, workspace.key, { sms_outbound_enabled: true });
    // Suppressed destination beats missing credits.
    expectError(await send(workspace.key, { from_number_id: number.id, to: destination, body: 'x' }), 403, 'destination_forbidden');
    expectError(await send(workspace.key, { from_number_id: number.id, to: '+33142685300', body: 'x' }), 409, 'conflict');
  });

  test('scopes: phone_numbers:write sends, phone_numbers:read only reads, no credential is 401', async () => {
    const { id, key, number } = await funded();
    const reader = await platform.key(id, ['phone_numbers:read']);
    expectError(await send(reader, { from_number_id: number.id, to: destination, body: 'x' }), 403, 'forbidden');
    expect((await platform.api.get('/sms/messages', reader)).status).toBe(200);
    expectError(await platform.api.post('/sms/send', undefined, { from_number_id: number.id, to: destination, body: 'x' }), 401, 'unauthorized');
    const writer = await platform.key(id, ['phone_numbers:write']);
    expect((await send(writer, { from_number_id: number.id, to: destination, body: 'x' })).status).toBe(202);
    expect((await send(key, { from_number_id: number.id, to: destination, body: 'x' })).status).toBe(202);
  });
});

describe('idempotent retries', () => {
  test('the same key and body returns the first message and charges once; another body is 409', async () => {
    const { key, number } = await funded('1.0000');
    const body = { from_number_id: number.id, to: destination, body: 'Only once, please.' };
    const first = await send(key, body, { 'Idempotency-Key': 'order-1234-confirmation' });
    const retry = await send(key, body, { 'Idempotency-Key': 'order-1234-confirmation' });
    expect(first.status).toBe(202);
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body).toEqual(first.body);
    expectError(await send(key, { ...body, body: 'Something else' }, { 'Idempotency-Key': 'order-1234-confirmation' }), 409, 'conflict');
    expect((await send(key, body, { 'Idempotency-Key': 'x'.repeat(256) })).status).toBe(400);
    await ledgerWith(platform.api, key, 'sms.outbound', 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await ledger(platform.api, key)).filter((entry) => entry.kind === 'sms.outbound')).toHaveLength(1);
    expect((await platform.api.get('/sms/messages', key)).body.meta.pagination.total).toBe(1);
  });

  test('a retry answers the first response, even after delivery and after the number stopped sending', async () => {
    const { key, number } = await funded('1.0000');
    const body = { from_number_id: number.id, to: destination, body: 'Replay me exactly.' };
    const first = await send(key, body, { 'Idempotency-Key': 'replay-exact' });
    expect(first.status).toBe(202);
    expect(first.body.data.status).toBe('queued');
    await eventually(async () => {
      const read = await platform.api.get(`/sms/messages/${first.body.data.id}`, key);
      return read.body.data.status === 'delivered' ? read : undefined;
    });
    const disabled = await platform.api.patch(`/phone-numbers/${number.id}`, key, { sms_outbound_enabled: false });
    expect(disabled.status).toBe(200);
    expectError(await send(key, body), 409, 'telephony_configuration_error');

    const retry = await send(key, body, { 'Idempotency-Key': 'replay-exact' });
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    // Another body under the key is still refused, and a new key still meets the disabled number.
    expectError(await send(key, { ...body, body: 'Different' }, { 'Idempotency-Key': 'replay-exact' }), 409, 'conflict');
    expectError(await send(key, body, { 'Idempotency-Key': 'replay-new' }), 409, 'telephony_configuration_error');
    expect((await platform.api.get('/sms/messages', key)).body.meta.pagination.total).toBe(1);
  });

  test('ten concurrent retries with one key make one message and one debit', async () => {
    const { key, number } = await funded('1.0000');
    const body = { from_number_id: number.id, to: destination, body: 'Concurrent retry' };
    const responses = await Promise.all(Array.from({ length: 10 }, () => send(key, body, { 'Idempotency-Key': 'burst-1' })));
    const accepted = responses.filter((response) => response.status === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((response) => response.body.data.id)).size).toBe(1);
    for (const response of responses.filter((r) => r.status !== 202)) expectError(response, 409, 'conflict');
    await ledgerWith(platform.api, key, 'sms.outbound', 1);
    expect((await platform.api.get('/sms/messages', key)).body.meta.pagination.total).toBe(1);
  });
});

describe('concurrent sends against a small balance', () => {
  test('20 sends with credit for 2: exactly 2 accepted, 18 refused, the balance never below zero', async () => {
    const { key, number } = await funded('0.0500');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => send(key, { from_number_id: number.id, to: destination, body: `race ${index}` })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 202)).toHaveLength(2);
    for (const response of responses.filter((r) => r.status !== 202)) expectError(response, 409, 'conflict');
    const debits = await ledgerWith(platform.api, key, 'sms.outbound', 2);
    expect(debits).toHaveLength(2);
    expect(await balance(platform.api, key)).toEqual(settledBalance('0.0142'));
    for (const entry of await ledger(platform.api, key)) expect(entry.balance_after.credits.startsWith('-')).toBe(false);
  });
});
