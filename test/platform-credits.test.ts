// Credit transfers between a white-label platform and its users through the gateway: both
// ledgers, reclaiming, never below zero, Idempotency-Key, and concurrent transfers against one
// balance.
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';
import { balance, ledger } from './support/telephony.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

/** A funded white-label platform and one of its users, with a token acting as that user. */
async function platformWithUser(credits: string) {
  const { id, key } = await platform.workspace({ plan: 'enterprise', scopes: ['platform:write', 'billing:read'] });
  if (credits !== '0') await platform.fund(id, credits);
  const created = await platform.api.post('/platform/users', key, {
    email: uniqueEmail('credits'),
    name: 'Credit Customer',
    password: 'correct horse battery',
  });
  const userId: string = created.body.data.id;
  const userToken: string = (await platform.api.post(`/platform/users/${userId}/token`, key, {})).body.data.access_token;
  return { key, platformId: id, userId, userWorkspaceId: created.body.data.workspaces[0].id as string, userToken };
}

const transfer = (key: string, userId: string, body: unknown, headers: Record<string, string> = {}) =>
  platform.api.post(`/platform/users/${userId}/balance`, key, body, { headers });

test('a positive amount moves credits from the platform to the user, with an entry in both ledgers', async () => {
  const { key, platformId, userId, userWorkspaceId, userToken } = await platformWithUser('100');
  const moved = await transfer(key, userId, { amount: '25.5', description: 'November top-up' });
  expect(moved.status).toBe(201);
  expect(moved.body.data).toMatchObject({
    user_id: userId,
    workspace_id: userWorkspaceId,
    amount: '25.5000',
    description: 'November top-up',
    platform_transaction: { workspace_id: platformId, kind: 'transfer_out', credits: '-25.5000', balance_after: { credits: '74.5000' } },
    user_transaction: { workspace_id: userWorkspaceId, kind: 'transfer_in', credits: '25.5000', balance_after: { credits: '25.5000' } },
  });
  expect(await balance(platform.api, key)).toMatchObject({ credits: '74.5000' });
  expect(await balance(platform.api, userToken)).toMatchObject({ credits: '25.5000' });
  const platformLedger = (await ledger(platform.api, key)).filter((entry) => entry.kind === 'transfer_out');
  const userLedger = (await ledger(platform.api, userToken)).filter((entry) => entry.kind === 'transfer_in');
  expect(platformLedger.map((entry) => entry.id)).toEqual([moved.body.data.platform_transaction.id]);
  expect(userLedger.map((entry) => entry.id)).toEqual([moved.body.data.user_transaction.id]);
});

test('a negative amount reclaims credits; neither side may go below zero, and a refused transfer moves nothing', async () => {
  const { key, userId, userToken } = await platformWithUser('10');
  expect((await transfer(key, userId, { amount: 8 })).status).toBe(201);
  const reclaimed = await transfer(key, userId, { amount: '-3.25' });
  expect(reclaimed.status).toBe(201);
  expect(reclaimed.body.data).toMatchObject({
    amount: '-3.2500',
    platform_transaction: { kind: 'transfer_in', credits: '3.2500', balance_after: { credits: '5.2500' } },
    user_transaction: { kind: 'transfer_out', credits: '-3.2500', balance_after: { credits: '4.7500' } },
  });

  const overReclaim = await transfer(key, userId, { amount: '-4.7501' });
  expectError(overReclaim, 409, 'conflict');
  expect(overReclaim.body.error.message).toMatch(/user's wallet .*nothing was moved/);
  const overdraft = await transfer(key, userId, { amount: '5.2501' });
  expectError(overdraft, 409, 'conflict');
  expect(overdraft.body.error.message).toMatch(/platform's wallet .*nothing was moved/);
  expect(await balance(platform.api, key)).toMatchObject({ credits: '5.2500' });
  expect(await balance(platform.api, userToken)).toMatchObject({ credits: '4.7500' });
  expect((await transfer(key, userId, { amount: '-4.75' })).body.data.user_transaction.balance_after.credits).toBe('0.0000');
});

test('amounts are exact decimals: zero, too many places, non-numbers and unknown fields are 400', async () => {
  const { key, userId } = await platformWithUser('10');
  for (const amount of [0, '0', '0.00001', 'ten', '', null, true, [], {}, '1e3', 1e21, '-']) {
    const refused = await transfer(key, userId, { amount });
    expectError(refused, 400, 'invalid_request');
    expect(fieldsOf(refused)).toEqual(['amount']);
  }
  expectError(await transfer(key, userId, {}), 400, 'invalid_request');
  expectError(await transfer(key, userId, { amount: '1', currency: 'EUR' }), 400, 'invalid_request');
  expectError(await transfer(key, userId, { amount: '1', description: 'x'.repeat(501) }), 400, 'invalid_request');
  expectError(await transfer(key, userId, { amount: '1' }, { 'Idempotency-Key': 'x'.repeat(256) }), 400, 'invalid_request');
  expect(await balance(platform.api, key)).toMatchObject({ credits: '10.0000' });
});

test('the root platform issues credits without a lower bound', async () => {
  const created = await platform.api.post('/platform/users', platform.rootKey, {
    email: `root.customer.${process.pid}@customers.example`,
    name: 'Direct Customer',
    password: 'correct horse battery',
  });
  const moved = await transfer(platform.rootKey, created.body.data.id, { amount: '1000000' });
  expect(moved.status).toBe(201);
  expect(moved.body.data.user_transaction.balance_after.credits).toBe('1000000.0000');
});

test('Idempotency-Key: a retry returns the first answer and moves nothing again; another body with the key is 409', async () => {
  const { key, userId, userToken } = await platformWithUser('10');
  const headers = { 'Idempotency-Key': `topup-${process.pid}` };
  const first = await transfer(key, userId, { amount: '2' }, headers);
  expect(first.status).toBe(201);
  const again = await transfer(key, userId, { amount: '2' }, headers);
  expect(again.status).toBe(201);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body).toEqual(first.body);
  expectError(await transfer(key, userId, { amount: '3' }, headers), 409, 'conflict');
  expectError(await transfer(key, userId, { amount: '-2' }, headers), 409, 'conflict');
  expect(await balance(platform.api, userToken)).toMatchObject({ credits: '2.0000' });

  // The same key from another platform is that platform's own key.
  const other = await platformWithUser('5');
  expect((await transfer(other.key, other.userId, { amount: '2' }, headers)).status).toBe(201);

  const racing = { 'Idempotency-Key': `race-${process.pid}` };
  const answers = await Promise.all(Array.from({ length: 10 }, () => transfer(key, userId, { amount: '1' }, racing)));
  expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
  expect(new Set(answers.map((answer) => answer.body.data.user_transaction.id)).size).toBe(1);
  expect(await balance(platform.api, userToken)).toMatchObject({ credits: '3.0000' });
});

test('concurrent transfers against one balance never overdraw it', async () => {
  const { key, userId, userToken } = await platformWithUser('10');
  const answers = await Promise.all(Array.from({ length: 25 }, () => transfer(key, userId, { amount: '1' })));
  expect(answers.filter((answer) => answer.status === 201)).toHaveLength(10);
  for (const refused of answers.filter((answer) => answer.status !== 201)) expectError(refused, 409, 'conflict');
  expect(await balance(platform.api, key)).toMatchObject({ credits: '0.0000' });
  expect(await balance(platform.api, userToken)).toMatchObject({ credits: '10.0000' });

  // Reclaiming and topping up at once: the user's balance never goes below zero either.
  const mixed = await Promise.all(
    Array.from({ length: 30 }, (_, i) => transfer(key, userId, { amount: i % 3 === 0 ? '1' : '-1' })),
  );
  const platformBalance = Number((await balance(platform.api, key)).credits);
  const userBalance = Number((await balance(platform.api, userToken)).credits);
  expect(platformBalance + userBalance).toBe(10);
  expect(platformBalance).toBeGreaterThanOrEqual(0);
  expect(userBalance).toBeGreaterThanOrEqual(0);
  const accepted = mixed.filter((answer) => answer.status === 201);
  const net = accepted.reduce((sum, answer) => sum + Number(answer.body.data.amount), 0);
  expect(userBalance).toBe(10 + net);
  for (const entry of await ledger(platform.api, userToken)) expect(Number(entry.balance_after.credits)).toBeGreaterThanOrEqual(0);
});
