// A white-label platform suspended by the root takes its end-users down with it, on the very next
// request, and brings them back when it is reactivated: their credentials work again, except
// those revoked before (a revocation is final) and the platform's own, which its suspension revoked.
import { expectError } from './support/api-client.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const password = 'correct horse battery';

/** A customer registered by `platformKey`, with a user token and an API key of its own workspace. */
async function customer(platformKey: string, plan = 'starter') {
  const registered = await platform.api.post('/platform/users', platformKey, { email: uniqueEmail('customer'), name: 'Customer', password, plan });
  expect(registered.status).toBe(201);
  const id = registered.body.data.id as string;
  const token = (await platform.api.post(`/platform/users/${id}/token`, platformKey, {})).body.data.access_token as string;
  const key = (await platform.api.post('/api-keys', token, { name: 'server', scopes: ['platform:write', 'settings:write', 'billing:read'] })).body.data.key as string;
  expect(key).toMatch(/^svc_/);
  return { id, email: registered.body.data.email as string, token, key };
}

const works = async (credential: string) => (await platform.api.get('/me', credential)).status === 200;

test('suspending a white-label platform suspends its end-users at once; reactivating brings back what was valid', async () => {
  // The root's customer Wanda runs a white-label platform (enterprise) with customers of her own.
  const wanda = await customer(platform.rootKey, 'enterprise');
  const carol = await customer(wanda.key);
  const dave = await customer(wanda.key);
  // Wanda suspended Dave herself before: that stays her decision.
  expect((await platform.api.patch(`/platform/users/${dave.id}`, wanda.key, { status: 'suspended' })).status).toBe(200);
  // A third level: Carol's own customer, should Carol be a platform too, goes the same way.
  const enterpriseCarol = await customer(wanda.key, 'enterprise');
  const erin = await customer(enterpriseCarol.key);
  // Answers are cached by the gateway: each credential is used right before the suspension.
  for (const credential of [wanda.key, carol.key, carol.token, enterpriseCarol.key, erin.key]) expect(await works(credential)).toBe(true);

  expect((await platform.api.patch(`/platform/users/${wanda.id}`, platform.rootKey, { status: 'suspended' })).body.data.status).toBe('suspended');
  for (const credential of [wanda.key, wanda.token, carol.key, carol.token, enterpriseCarol.key, erin.key, erin.token]) {
    expectError(await platform.api.get('/me', credential), 401, 'unauthorized');
  }
  // Nobody under the suspended platform signs in, nor gets a token from a platform above.
  expectError(await platform.api.post('/platform/users/login', enterpriseCarol.key, { email: erin.email, password }), 401, 'unauthorized');
  expectError(await platform.api.post('/platform/users/login', platform.rootKey, { email: wanda.email, password }), 409, 'conflict');

  expect((await platform.api.patch(`/platform/users/${wanda.id}`, platform.rootKey, { status: 'active' })).body.data.status).toBe('active');
  // Wanda's own credentials were revoked by her suspension (SPEC.md 5 rule 6): she gets new ones from her platform.
  for (const credential of [wanda.key, wanda.token]) expectError(await platform.api.get('/me', credential), 401, 'unauthorized');
  // Her customers' credentials come back as they were; Dave stays suspended by Wanda's own decision.
  for (const credential of [carol.key, carol.token, enterpriseCarol.key, erin.key, erin.token]) expect(await works(credential)).toBe(true);
  expectError(await platform.api.get('/me', dave.key), 401, 'unauthorized');
  const fresh = (await platform.api.post('/platform/users/login', platform.rootKey, { email: wanda.email, password })).body.data.access_token as string;
  expect((await platform.api.post('/platform/users/login', fresh, { email: carol.email, password })).status).toBe(200);
  expect((await platform.api.post('/platform/users/login', enterpriseCarol.key, { email: erin.email, password })).status).toBe(200);
});
