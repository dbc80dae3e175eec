// GET /balance, /transactions and /usage/summary through the gateway: exact decimal strings,
// the ledger of a top-up and of sends, the usage window, validation and scopes.
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { buySmsNumber, ledgerWith, settledBalance } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  // Numbers are free here: this file counts SMS charges (test/number-fees.test.ts covers the monthly fees).
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test('a new workspace has an empty wallet; a top-up is one transfer_in entry', async () => {
  const { id, key } = await platform.workspace();
  expect((await platform.api.get('/balance', key)).body).toEqual({ data: settledBalance('0.0000') });
  await platform.fund(id, '12.3456');
  const ledger = await platform.api.get('/transactions', key);
  expect(ledger.body).toEqual({
    data: [
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        kind: 'transfer_in',
        credits: '12.3456',
        minutes: '0.000',
        balance_after: { credits: '12.3456', minutes: '0.000' },
        reference: expect.any(String),
        description: 'e2e top-up',
        created_at: expect.stringMatching(iso),
      },
    ],
    meta: { pagination: { limit: 50, offset: 0, total: 1 } },
  });
  expect((await platform.api.get('/balance', key)).body.data).toEqual(settledBalance('12.3456'));
  // The root platform's wallet is the issuer: it went below zero by what it created.
  expect((await platform.api.get('/balance', platform.rootKey)).body.data.credits.startsWith('-')).toBe(true);
});

test('sends show up as usage: the ledger newest first, the summary by kind, transfers not counted', async () => {
  const { id, key } = await platform.workspace();
  await platform.fund(id, '1.0000');
  const number = await buySmsNumber(platform.api, key);
  for (const body of ['one', 'two', 'a'.repeat(161)]) {
    expect((await platform.api.post('/sms/send', key, { from_number_id: number.id, to: '+442071838750', body })).status).toBe(202);
  }
  const debits = await ledgerWith(platform.api, key, 'sms.outbound', 3);
  expect(debits.map((entry) => entry.credits).sort()).toEqual(['-0.0179', '-0.0179', '-0.0358']);
  const page = await platform.api.get('/transactions?limit=2&offset=2', key);
  expect(page.body.meta.pagination).toEqual({ limit: 2, offset: 2, total: 4 });
  expect(page.body.data.at(-1).kind).toBe('transfer_in');

  const summary = await platform.api.get('/usage/summary', key);
  expect(summary.status).toBe(200);
  expect(summary.body.data).toEqual({
    from: expect.stringMatching(/^\d{4}-\d{2}-01T00:00:00\.000Z$/),
    to: expect.stringMatching(iso),
    credits: '0.0716',
    minutes: '0.000',
    by_kind: [{ kind: 'sms.outbound', count: 3, credits: '0.0716', minutes: '0.000' }],
  });
  const future = await platform.api.get('/usage/summary?from=2099-01-01T00:00:00Z&to=2099-02-01T00:00:00Z', key);
  expect(future.body.data).toMatchObject({ credits: '0.0000', by_kind: [] });
  expect((await platform.api.get('/balance', key)).body.data.credits).toBe('0.9284');
});

test('bad queries are 400 naming the parameter; other scopes are 403; no credential is 401', async () => {
  const { id, key } = await platform.workspace();
  expect(fieldsOf(await platform.api.get('/usage/summary?from=yesterday', key))).toEqual(['from']);
  expectError(await platform.api.get('/usage/summary?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', key), 400, 'invalid_request');
  expect(fieldsOf(await platform.api.get('/transactions?limit=0', key))).toEqual(['limit']);
  expect(fieldsOf(await platform.api.get('/transactions?kind=sms', key))).toEqual(['kind']);
  const phoneOnly = await platform.key(id, ['phone_numbers:write']);
  for (const path of ['/balance', '/transactions', '/usage/summary']) {
    expectError(await platform.api.get(path, phoneOnly), 403, 'forbidden');
    expectError(await platform.api.get(path), 401, 'unauthorized');
  }
  const reader = await platform.key(id, ['billing:read']);
  expect((await platform.api.get('/balance', reader)).status).toBe(200);
  expectError(await platform.api.post('/balance', reader, {}), 405, 'invalid_request');
});
