// No input makes the telephony, billing, custom-domain or platform-user endpoints answer 5xx: every field of
// every write endpoint is sent wrong values of every JSON type, and each answer is a 4xx envelope.
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { buySmsNumber } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  // Numbers are free here: this file counts SMS charges (test/number-fees.test.ts covers the monthly fees).
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

const oddValues: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  '',
  ' ',
  'x'.repeat(5000),
  '\u0000\u202e',
  'not a url',
  '://',
  'http://',
  '+',
  '+1 (',
  '🙂'.repeat(800),
  [],
  ['a'],
  {},
  { nested: { deeper: [1, 2, 3] } },
];

test('every field of every write endpoint, with every odd value: 4xx envelopes, never 5xx', async () => {
  const { id, key } = await platform.workspace({ plan: 'enterprise' });
  await platform.fund(id, '1.0000');
  const number = await buySmsNumber(platform.api, key);
  const connection = (
    await platform.api.post('/carrier-connections', key, { name: 'Sandbox', provider: 'sandbox', account_sid: 'AC-odd', auth_token: 'odd-token' })
  ).body.data;
  const user = (await platform.api.post('/platform/users', key, { email: 'odd.owner@customers.example', name: 'Odd Owner', password: 'correct horse battery' })).body.data;
  const endpoints: [method: 'POST' | 'PATCH', path: string, valid: Record<string, unknown>][] = [
    ['POST', '/sms/send', { from_number_id: number.id, to: '+442071838750', body: 'hi' }],
    ['POST', '/phone-numbers', { number: '+14155550100' }],
    ['POST', '/phone-numbers/import', { number: '+13125550100', carrier_connection_id: connection.id }],
    ['PATCH', `/phone-numbers/${number.id}`, { sms_outbound_enabled: true, name: 'n', assistant_id: null, a2p_campaign_id: null }],
    ['POST', '/carrier-connections', { name: 'n', provider: 'twilio', base_url: 'https://carrier.example', account_sid: 'a', auth_token: 'b' }],
    ['PATCH', `/carrier-connections/${connection.id}`, { name: 'n', account_sid: 'a', auth_token: 'b' }],
    ['POST', '/a2p-campaigns', { name: 'n', carrier_connection_id: connection.id, use_case: 'X', description: 'd', sample_messages: ['s'] }],
    ['POST', '/suppression', { number: '+442071838751', reason: 'r' }],
    ['POST', '/custom-domain', { domain: 'odd.example.com' }],
    ['POST', '/platform/users', { email: 'odd.user@customers.example', name: 'n', password: 'correct horse battery', plan: 'starter' }],
    ['POST', '/platform/users/login', { email: 'odd.user@customers.example', password: 'correct horse battery' }],
    ['POST', `/platform/users/${user.id}/balance`, { amount: '0.0001', description: 'd' }],
    ['PATCH', `/platform/users/${user.id}`, { status: 'active' }],
  ];
  const failures: string[] = [];
  for (const [method, path, valid] of endpoints) {
    for (const field of Object.keys(valid)) {
      for (const value of oddValues) {
        const response = await platform.api.request(method, path, { key, body: { ...valid, [field]: value } });
        if (response.status >= 500 || !response.body?.data && !response.body?.error) failures.push(`${method} ${path} ${field}=${JSON.stringify(value).slice(0, 40)}: ${response.status}`);
      }
    }
  }
  for (const path of ['/sms/messages', '/phone-numbers', '/phone-numbers/available', '/transactions', '/usage/summary', '/suppression', '/a2p-campaigns', '/platform/users']) {
    for (const query of ['limit=-1', 'offset=x', 'country=%00', 'status=%F0', 'from=2026-13-45T99:99:99Z', 'to=x', 'area_code=1234567', 'q=%00%25_', 'q[]=a']) {
      const response = await platform.api.get(`${path}?${query}`, key);
      if (response.status >= 500) failures.push(`GET ${path}?${query}: ${response.status}`);
    }
  }
  expect(failures).toEqual([]);
  // About 800 requests one after another (password hashing among them): more than the default 30 s on a busy machine.
}, 120_000);
