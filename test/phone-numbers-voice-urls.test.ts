// Numbers bought or imported through a Twilio-compatible carrier (a server on loopback) send their
// inbound calls to the platform: the purchase carries the number's VoiceUrl and StatusCallback (the
// gateway's voice webhooks of the platform's carrier), an import updates the held number to those of
// its connection, and the carrier's signed call to that exact VoiceUrl is answered.
import { importedNumber, platformCarrierEnv, startFakeTwilio, twilioSignature, type FakeTwilio } from './support/fake-twilio.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let carrier: FakeTwilio;

beforeAll(async () => {
  carrier = await startFakeTwilio();
  platform = await startTestPlatform(platformCarrierEnv(carrier));
});
afterAll(async () => {
  await platform.close();
  await carrier.close();
});

const rejectTwiml = '<?xml version="1.0" encoding="UTF-8"?><Response><Reject/></Response>';

/** The carrier's signed POST to an address it was given (the whole URL, as Twilio signs it). */
function carrierPost(url: string, params: Record<string, string>) {
  const path = new URL(url).pathname;
  expect(`${platform.running.url}${path}`).toBe(url);
  return platform.api.request('POST', path, {
    rawBody: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(carrier.authToken, url, params) },
  });
}

/** Offers a call to `number` at its VoiceUrl, then reports it over at its StatusCallback, as the carrier would. */
async function ringAt(voice: Record<string, string>, number: string, sid: string) {
  const offered = await carrierPost(voice.VoiceUrl!, { CallSid: sid, From: '+12025550177', To: number, CallStatus: 'ringing', Direction: 'inbound', AccountSid: carrier.accountSid });
  expect(offered.status).toBe(200);
  expect(offered.text).toBe(rejectTwiml);
  const status = await carrierPost(voice.StatusCallback!, { CallSid: sid, CallStatus: 'completed', CallDuration: '0', AccountSid: carrier.accountSid });
  expect(status.status).toBe(204);
}

test('a bought number is bought with its voice URL and status callback at the platform carrier’s webhooks, which answer its calls', async () => {
  const { id: workspaceId, key } = await platform.workspace();
  await platform.fund(workspaceId, '5');
  const number = '+14155550181';
  const bought = await platform.api.post('/phone-numbers', key, { number });
  expect(bought.status).toBe(201);
  const purchase = carrier.requests.find((request) => request.method === 'POST' && request.path.endsWith('/IncomingPhoneNumbers.json') && request.form.PhoneNumber === number)!;
  expect(purchase.form).toEqual({
    PhoneNumber: number,
    VoiceUrl: `${platform.running.url}/webhooks/carriers/platform/voice`,
    VoiceMethod: 'POST',
    StatusCallback: `${platform.running.url}/webhooks/carriers/platform/voice/status`,
    StatusCallbackMethod: 'POST',
  });
  // Given to no assistant yet: the platform answers the call, and turns it away.
  await ringAt(purchase.form, number, `CA${'1'.repeat(32)}`);
});

test('an imported number is pointed at its connection’s webhooks by its sid, which answer its calls', async () => {
  const { key } = await platform.workspace();
  const number = '+14155550182';
  const { connectionId } = await importedNumber(platform.api, key, carrier, number);
  const update = carrier.requests.find((request) => request.method === 'POST' && request.path.endsWith('/IncomingPhoneNumbers/PN14155550182.json'))!;
  expect(update.form).toEqual({
    VoiceUrl: `${platform.running.url}/webhooks/carriers/${connectionId}/voice`,
    VoiceMethod: 'POST',
    StatusCallback: `${platform.running.url}/webhooks/carriers/${connectionId}/voice/status`,
    StatusCallbackMethod: 'POST',
  });
  await ringAt(update.form, number, `CA${'2'.repeat(32)}`);
});

test('a number the connection’s account does not hold is refused and nothing is changed at the carrier', async () => {
  const { key } = await platform.workspace();
  await importedNumber(platform.api, key, carrier, '+14155550183');
  const before = carrier.requests.length;
  const connections = await platform.api.get('/carrier-connections', key);
  const refused = await platform.api.post('/phone-numbers/import', key, { number: '+14155550184', carrier_connection_id: connections.body.data[0].id });
  expect(refused.status).toBe(409);
  expect(carrier.requests.slice(before).map((request) => request.method)).toEqual(['GET']);
});
