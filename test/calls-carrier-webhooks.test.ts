// The carriers' voice webhooks through the gateway, with a Twilio-compatible carrier on loopback:
// what the gateway accepts (signed forms, POST only), how it answers (TwiML or 204), and that a
// forged or foreign webhook is refused and changes nothing.
import { expectError } from './support/api-client.js';
import { importedNumber, startFakeTwilio, type FakeTwilio } from './support/fake-twilio.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { voiceWebhook } from './support/twilio-voice.js';

let platform: TestPlatform;
let carrier: FakeTwilio;
let connectionId: string;
const number = '+14155550163';
const callSid = (n: number) => `CA${n.toString(16).padStart(32, '0')}`;

beforeAll(async () => {
  carrier = await startFakeTwilio();
  platform = await startTestPlatform({ VOICE_EGRESS_ALLOW_PRIVATE: 'true', VOICE_CARRIER_TIMEOUT_MS: '1000' });
  const workspace = await platform.workspace();
  connectionId = (await importedNumber(platform.api, workspace.key, carrier, number)).connectionId;
});
afterAll(async () => {
  await platform.close();
  await carrier.close();
});

const offer = (params: Record<string, string>, signature?: string) =>
  voiceWebhook(platform, carrier, `/webhooks/carriers/${connectionId}/voice`, { CallStatus: 'ringing', Direction: 'inbound', AccountSid: carrier.accountSid, ...params }, signature);

test('a call to a number given to no assistant is rejected in TwiML', async () => {
  const answer = await offer({ CallSid: callSid(1), From: '+12025550143', To: number });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/xml/);
  expect(answer.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Reject/></Response>');
});

test('a forged webhook is 403 and a status callback for a call nobody took is acknowledged with 204', async () => {
  expectError(await offer({ CallSid: callSid(2), From: '+12025550143', To: number }, 'forged'), 403, 'forbidden');
  const status = await voiceWebhook(platform, carrier, `/webhooks/carriers/${connectionId}/voice/status`, { CallSid: callSid(3), CallStatus: 'completed', CallDuration: '4' });
  expect(status.status).toBe(204);
  expect(status.text).toBe('');
});

test("a leg's webhooks name a leg of that connection, or are 404; the platform's own carrier verifies nothing here", async () => {
  const leg = '00000000-0000-4000-8000-000000000001';
  for (const kind of ['twiml', 'status', 'recording']) {
    expectError(await voiceWebhook(platform, carrier, `/webhooks/carriers/${connectionId}/calls/${leg}/${kind}`, { CallSid: callSid(4), CallStatus: 'ringing', RecordingSid: `RE${'0'.repeat(32)}` }), 404, 'not_found');
    expectError(await voiceWebhook(platform, carrier, `/webhooks/carriers/${connectionId}/calls/not-a-leg/${kind}`, { CallSid: callSid(4) }), 404, 'not_found');
  }
  expectError(await voiceWebhook(platform, carrier, '/webhooks/carriers/00000000-0000-4000-8000-000000000002/voice', { CallSid: callSid(5) }), 404, 'not_found');
  expectError(await voiceWebhook(platform, carrier, '/webhooks/carriers/platform/voice', { CallSid: callSid(5), From: '+12025550143', To: number }), 403, 'forbidden');
});

test('only signed form POSTs are read: other methods are 405, other bodies 400, a malformed call id 400', async () => {
  const path = `/webhooks/carriers/${connectionId}/voice`;
  const get = await platform.api.request('GET', path);
  expectError(get, 405, 'invalid_request');
  expect(get.headers.get('allow')).toBe('POST');
  expectError(await platform.api.request('POST', path, { rawBody: '{"CallSid":"CA1"}', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
  expectError(await offer({ CallSid: 'CA1', From: '+12025550143', To: number }), 400, 'invalid_request');
});
