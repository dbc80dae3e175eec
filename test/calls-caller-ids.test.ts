// POST /calls from a verified caller ID, through the gateway: the caller ID is verified as a phone
// would (the platform's carrier, a Twilio-compatible server on loopback, receives the code's SMS), the
// call is dialled by the platform's carrier with the caller ID as From, and the test plays that carrier
// (signed callbacks, the TwiML fetch, the media stream to the sandbox voice runtime) until the call
// completes. A pending caller ID, or another workspace's verified one, is refused exactly as an
// unknown number is.
import type { ApiResponse } from './support/api-client.js';
import { platformCarrierEnv, startFakeTwilio, type FakeTwilio } from './support/fake-twilio.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { eventually } from './support/telephony.js';
import { streamOf, voiceWebhook } from './support/twilio-voice.js';
import { openCarrierStream } from '../services/voice-sandbox/test/support/carrier-stream.js';

let platform: TestPlatform;
let carrier: FakeTwilio;

beforeAll(async () => {
  carrier = await startFakeTwilio();
  platform = await startTestPlatform({
    ...platformCarrierEnv(carrier),
    VOICE_CALLER_ID_SMS_FROM: '+14155550100',
    VOICE_CARRIER_TIMEOUT_MS: '2000',
  });
});
afterAll(async () => {
  await platform.close();
  await carrier.close();
});

let numberSequence = 0;
/** A US number no other caller ID of this file uses. */
const freshNumber = () => `+1646555${String(2000 + (numberSequence += 1)).padStart(4, '0')}`;
const destination = '+12025550150';

/** A funded workspace with an assistant. */
async function ready() {
  const workspace = await platform.workspace({ plan: 'pro' });
  await platform.fund(workspace.id, '5.0000');
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Caller ID caller', first_message: 'Hello from the office line.' });
  expect(assistant.status).toBe(201);
  return { ...workspace, assistantId: assistant.body.data.id as string };
}

/** A pending caller ID of `number` and the code the carrier was asked to text it. */
async function pendingCallerId(key: string, number = freshNumber()) {
  const created = await platform.api.post('/caller-ids', key, { phone_number: number, label: 'Office line' });
  expect(created.status).toBe(201);
  const text = carrier.sentMessages().filter((form) => form.To === number).at(-1);
  const code = /code is (\d{6})\./.exec(text?.Body ?? '')?.[1];
  if (!code) throw new Error(`no code was texted to ${number}`);
  return { id: created.body.data.id as string, number, code };
}

async function verifiedCallerId(key: string): Promise<string> {
  const { id, number, code } = await pendingCallerId(key);
  const verified = await platform.api.post(`/caller-ids/${id}/verify`, key, { code });
  expect(verified.status).toBe(200);
  expect(verified.body.data.status).toBe('verified');
  return number;
}

const pathOf = (url: string) => new URL(url).pathname;
/** What a client sees of a refusal: its status and error (the request id aside). */
const refusal = (response: ApiResponse) => ({ status: response.status, code: response.body?.error?.code, message: response.body?.error?.message });

test('a call from a verified caller ID is dialled by the platform’s carrier with the caller ID as From and completes', async () => {
  const { key, assistantId } = await ready();
  const callerId = await verifiedCallerId(key);
  const placed = await platform.api.post('/calls', key, {
    assistant_id: assistantId,
    from: callerId,
    to: destination,
    metadata: { sandbox_script: [{ say: 'Is this the office line?' }, { reply: 'It is.' }, { hangup: 'caller' }] },
  });
  expect(placed.status).toBe(201);
  expect(placed.body.data).toMatchObject({ status: 'queued', direction: 'outbound', from: callerId, to: destination });
  const callId: string = placed.body.data.id;

  const dial = await eventually(async () => carrier.placedCalls().find((call) => call.form.From === callerId), 15_000, 'the platform’s carrier to be asked to dial');
  expect(dial.form).toMatchObject({ To: destination, From: callerId });
  const status = (params: Record<string, string>) => voiceWebhook(platform, carrier, pathOf(dial.form.StatusCallback!), { CallSid: dial.sid, AccountSid: carrier.accountSid, ...params });
  expect((await status({ CallStatus: 'ringing' })).status).toBe(204);
  const instructions = await voiceWebhook(platform, carrier, pathOf(dial.form.Url!), { CallSid: dial.sid, CallStatus: 'in-progress', AccountSid: carrier.accountSid });
  expect(instructions.status).toBe(200);
  const stream = streamOf(instructions.text);
  expect(stream).toMatchObject({ parameters: { call_id: callId } });
  expect((await status({ CallStatus: 'in-progress' })).status).toBe(204);
  const media = await openCarrierStream(stream!.url, stream!.parameters);
  expect(await media.closed).toBe(1000);
  expect((await status({ CallStatus: 'completed', CallDuration: '2' })).status).toBe(204);

  const call = await eventually(
    async () => {
      const read = (await platform.api.get(`/calls/${callId}`, key)).body.data;
      return read.status === 'completed' && read.ended_at !== null ? read : undefined;
    },
    20_000,
    'the call to complete',
  );
  expect(call).toMatchObject({ from: callerId, to: destination, end_reason: 'caller_hung_up', duration_seconds: 2 });
  expect(call.transcript.map((turn: { role: string; text: string }) => [turn.role, turn.text])).toEqual([
    ['assistant', 'Hello from the office line.'],
    ['user', 'Is this the office line?'],
    ['assistant', 'It is.'],
  ]);
  expect(JSON.stringify(call)).not.toContain(dial.sid);
});

test('a pending caller ID, or another workspace’s verified one, is refused as an unknown number is, and nothing is dialled or held', async () => {
  const { key, assistantId } = await ready();
  const other = await ready();
  const pending = await pendingCallerId(key);
  const othersCallerId = await verifiedCallerId(other.key);
  const body = { assistant_id: assistantId, to: destination };
  const dialsBefore = carrier.placedCalls().length;
  const balanceBefore = (await platform.api.get('/balance', key)).body.data;

  const unknown = await platform.api.post('/calls', key, { ...body, from: '+16465559999' });
  expect(refusal(unknown)).toEqual({ status: 404, code: 'not_found', message: expect.any(String) });
  expect(refusal(await platform.api.post('/calls', key, { ...body, from: pending.number }))).toEqual(refusal(unknown));
  expect(refusal(await platform.api.post('/calls', key, { ...body, from: othersCallerId }))).toEqual(refusal(unknown));

  expect(carrier.placedCalls()).toHaveLength(dialsBefore);
  expect((await platform.api.get('/calls', key)).body.meta.pagination.total).toBe(0);
  expect((await platform.api.get('/balance', key)).body.data).toEqual(balanceBefore);
  // Verified, the same caller ID calls.
  expect((await platform.api.post(`/caller-ids/${pending.id}/verify`, key, { code: pending.code })).status).toBe(200);
  expect((await platform.api.post('/calls', key, { ...body, from: pending.number })).status).toBe(201);
});
