// A call on the Twilio-compatible path, end to end through the gateway: POST /calls from a number
// imported through a workspace's carrier connection dials the carrier (a real HTTP server on
// loopback); the test then plays the carrier: signed status callbacks, the TwiML fetch, the media
// stream to the sandbox voice runtime, the hang-up and the recording; and an inbound call on a number
// given to an assistant, offered by the carrier's voice webhook. Forged callbacks change nothing.
import { randomBytes } from 'node:crypto';
import { expectError } from './support/api-client.js';
import { importedNumber, startFakeTwilio, type FakeTwilio } from './support/fake-twilio.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { balance, eventually, settledBalance } from './support/telephony.js';
import { streamOf, voiceWebhook } from './support/twilio-voice.js';
import { openCarrierStream } from '../services/voice-sandbox/test/support/carrier-stream.js';

let platform: TestPlatform;
let carrier: FakeTwilio;

beforeAll(async () => {
  carrier = await startFakeTwilio();
  platform = await startTestPlatform({ VOICE_EGRESS_ALLOW_PRIVATE: 'true', VOICE_CARRIER_TIMEOUT_MS: '2000', VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(async () => {
  await platform.close();
  await carrier.close();
});

let numberSequence = 0;

/** A workspace with credits (5 unless said), a number imported through the carrier (voice-capable unless said) and an assistant. */
async function ready(options: { voice?: boolean; credits?: string } = {}) {
  const workspace = await platform.workspace({ plan: 'pro' });
  if (options.credits !== '0') await platform.fund(workspace.id, options.credits ?? '5.0000');
  const number = `+1415555${String(170 + (numberSequence += 1)).padStart(4, '0')}`;
  await importedNumber(platform.api, workspace.key, carrier, number, { voice: options.voice });
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Carrier caller', first_message: 'Hello, this is Acme.' });
  expect(assistant.status).toBe(201);
  return { key: workspace.key, number, assistantId: assistant.body.data.id as string };
}

/** The carrier's dial of the call from `from`, once it arrived. */
const dialFrom = (from: string) =>
  eventually(async () => carrier.placedCalls().find((call) => call.form.From === from), 15_000, 'the carrier to be asked to dial');

const pathOf = (url: string) => new URL(url).pathname;

/** The call once it is in `status` and has ended. */
const endedAs = (key: string, callId: string, status: string) =>
  eventually(
    async () => {
      const read = (await platform.api.get(`/calls/${callId}`, key)).body.data;
      return read.status === status && read.ended_at !== null ? read : undefined;
    },
    20_000,
    `the call to end ${status}`,
  );

test('the carrier dials, the leg is followed by signed callbacks, its media streams to the runtime, and the recording is fetched for the call', async () => {
  const { key, number, assistantId } = await ready();
  const placed = await platform.api.post('/calls', key, {
    assistant_id: assistantId,
    from: number,
    to: '+12025550143',
    metadata: { sandbox_script: [{ say: 'Is this the carrier path?' }, { reply: 'It is.' }, { hangup: 'caller' }] },
  });
  expect(placed.status).toBe(201);
  const callId: string = placed.body.data.id;
  const dial = await dialFrom(number);
  expect(dial.form).toMatchObject({ To: '+12025550143', Method: 'POST', Record: 'true' });
  // Nothing of the media session travels in the dial itself.
  expect(JSON.stringify(dial.form)).not.toContain('session_token');
  const status = (params: Record<string, string>, signature?: string) => voiceWebhook(platform, carrier, pathOf(dial.form.StatusCallback!), { CallSid: dial.sid, AccountSid: carrier.accountSid, ...params }, signature);

  expect((await status({ CallStatus: 'ringing' })).status).toBe(204);
  await eventually(async () => ((await platform.api.get(`/calls/${callId}`, key)).body.data.status === 'ringing' ? true : undefined), 15_000, 'ringing');

  // A forged answer is refused and changes nothing.
  expectError(await status({ CallStatus: 'completed', CallDuration: '600' }, 'forged'), 403, 'forbidden');
  expect((await platform.api.get(`/calls/${callId}`, key)).body.data.status).toBe('ringing');

  // Answered: the carrier fetches the TwiML, which streams the media to the runtime with the call's parameters.
  const instructions = await voiceWebhook(platform, carrier, pathOf(dial.form.Url!), { CallSid: dial.sid, CallStatus: 'in-progress', AccountSid: carrier.accountSid });
  expect(instructions.status).toBe(200);
  expect(instructions.headers.get('content-type')).toMatch(/^text\/xml/);
  const stream = streamOf(instructions.text);
  expect(stream).toMatchObject({ url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/media$/), parameters: { call_id: callId, session_token: expect.any(String) } });
  expect((await status({ CallStatus: 'in-progress' })).status).toBe(204);

  // The runtime plays the script and hangs up; the carrier reports the end with its duration.
  const media = await openCarrierStream(stream!.url, stream!.parameters);
  expect(await media.closed).toBe(1000);
  expect((await status({ CallStatus: 'completed', CallDuration: '2' })).status).toBe(204);
  const call = await endedAs(key, callId, 'completed');
  expect(call).toMatchObject({ direction: 'outbound', from: number, to: '+12025550143', end_reason: 'caller_hung_up', duration_seconds: 2, has_recording: true });
  expect(call.transcript.map((turn: { role: string; text: string }) => [turn.role, turn.text])).toEqual([
    ['assistant', 'Hello, this is Acme.'],
    ['user', 'Is this the carrier path?'],
    ['assistant', 'It is.'],
  ]);
  // The carrier's ids never show.
  expect(JSON.stringify(call)).not.toContain(dial.sid);

  // The carrier's recording is fetched by its id with the account's credentials and handed to the calls service.
  const recordingSid = `RE${randomBytes(16).toString('hex')}`;
  carrier.recordings.set(recordingSid, Buffer.concat([Buffer.from('RIFF'), randomBytes(64)]));
  const recordingCallback = pathOf(dial.form.RecordingStatusCallback!);
  const recording = { CallSid: dial.sid, RecordingSid: recordingSid, RecordingStatus: 'completed', RecordingDuration: '2', AccountSid: carrier.accountSid };
  expectError(await voiceWebhook(platform, carrier, recordingCallback, recording, 'forged'), 403, 'forbidden');
  expect(carrier.requests.some((request) => request.path.endsWith(`/Recordings/${recordingSid}.wav`))).toBe(false);
  expect((await voiceWebhook(platform, carrier, recordingCallback, recording)).status).toBe(204);
  const fetched = carrier.requests.filter((request) => request.path.endsWith(`/Recordings/${recordingSid}.wav`));
  expect(fetched).toHaveLength(1);
  expect(fetched[0]!.authorization).toBe(`Basic ${Buffer.from(`${carrier.accountSid}:${carrier.authToken}`).toString('base64')}`);
});

test('a call the carrier reports busy ends busy, and its leg is never streamed', async () => {
  const { key, number, assistantId } = await ready();
  const placed = await platform.api.post('/calls', key, { assistant_id: assistantId, from: number, to: '+12025550144' });
  expect(placed.status).toBe(201);
  const dial = await dialFrom(number);
  const status = (params: Record<string, string>) => voiceWebhook(platform, carrier, pathOf(dial.form.StatusCallback!), { CallSid: dial.sid, ...params });
  expect((await status({ CallStatus: 'ringing' })).status).toBe(204);
  expect((await status({ CallStatus: 'busy' })).status).toBe(204);
  const call = await endedAs(key, placed.body.data.id, 'busy');
  expect(call).toMatchObject({ duration_seconds: 0, answered_at: null });
  // A late answer of the ended leg hangs up.
  const late = await voiceWebhook(platform, carrier, pathOf(dial.form.Url!), { CallSid: dial.sid, CallStatus: 'in-progress' });
  expect(late.text).toContain('<Hangup/>');
});

test('a carrier that fails when asked to dial is 503 telephony_unavailable', async () => {
  const { key, number, assistantId } = await ready();
  carrier.mode = 'server_error';
  try {
    const placed = await platform.api.post('/calls', key, { assistant_id: assistantId, from: number, to: '+12025550145' });
    expectError(placed, 503, 'telephony_unavailable');
    expect(placed.headers.get('retry-after')).not.toBeNull();
  } finally {
    carrier.mode = 'ok';
  }
});

test('a number the carrier holds without voice is 409 telephony_configuration_error: nothing is dialled, held or stored', async () => {
  const { key, number, assistantId } = await ready({ voice: false });
  const dials = carrier.placedCalls().length;
  expectError(await platform.api.post('/calls', key, { assistant_id: assistantId, from: number, to: '+12025550146' }), 409, 'telephony_configuration_error');
  expect(carrier.placedCalls()).toHaveLength(dials);
  expect((await platform.api.get('/calls', key)).body.meta.pagination.total).toBe(0);
  expect(await balance(platform.api, key)).toEqual(settledBalance('5.0000'));
});

describe('inbound calls', () => {
  test('a call to a number given to an assistant becomes an inbound call, streams to the runtime and ends with the carrier', async () => {
    const { key, number, assistantId } = await ready();
    const numbers = await platform.api.get('/phone-numbers', key);
    const numberId: string = numbers.body.data.find((listed: { number: string }) => listed.number === number).id;
    expect((await platform.api.patch(`/phone-numbers/${numberId}`, key, { assistant_id: assistantId })).status).toBe(200);
    const connection: string = numbers.body.data.find((listed: { number: string }) => listed.number === number).carrier_connection_id;
    const callSid = `CA${randomBytes(16).toString('hex')}`;
    const offer = { CallSid: callSid, From: '+12025550146', To: number, CallStatus: 'ringing', Direction: 'inbound', AccountSid: carrier.accountSid };

    expectError(await voiceWebhook(platform, carrier, `/webhooks/carriers/${connection}/voice`, offer, 'forged'), 403, 'forbidden');
    const answer = await voiceWebhook(platform, carrier, `/webhooks/carriers/${connection}/voice`, offer);
    expect(answer.status).toBe(200);
    const stream = streamOf(answer.text);
    expect(stream).toMatchObject({ parameters: { call_id: expect.any(String), session_token: expect.any(String) } });
    const callId = stream!.parameters.call_id!;
    // The carrier asking again gets the same call.
    expect((await voiceWebhook(platform, carrier, `/webhooks/carriers/${connection}/voice`, offer)).text).toBe(answer.text);
    expect((await platform.api.get(`/calls/${callId}`, key)).body.data).toMatchObject({ direction: 'inbound', from: '+12025550146', to: number, assistant_id: assistantId });

    const numberStatus = (params: Record<string, string>) => voiceWebhook(platform, carrier, `/webhooks/carriers/${connection}/voice/status`, { CallSid: callSid, ...params });
    expect((await numberStatus({ CallStatus: 'in-progress' })).status).toBe(204);
    const media = await openCarrierStream(stream!.url, stream!.parameters);
    expect(await media.closed).toBe(1000);
    expect((await numberStatus({ CallStatus: 'completed', CallDuration: '3' })).status).toBe(204);
    const call = await endedAs(key, callId, 'completed');
    expect(call).toMatchObject({ duration_seconds: 3, end_reason: 'assistant_ended' });
    expect(call.transcript[0]).toMatchObject({ role: 'assistant', text: 'Hello, this is Acme.' });
  });

  test('a call to an assistant whose workspace cannot pay a minute is rejected in TwiML: no call is stored or held', async () => {
    const { key, number, assistantId } = await ready({ credits: '0' });
    const listed = (await platform.api.get('/phone-numbers', key)).body.data.find((entry: { number: string }) => entry.number === number);
    expect((await platform.api.patch(`/phone-numbers/${listed.id}`, key, { assistant_id: assistantId })).status).toBe(200);
    const callSid = `CA${randomBytes(16).toString('hex')}`;
    const offer = { CallSid: callSid, From: '+12025550147', To: number, CallStatus: 'ringing', Direction: 'inbound', AccountSid: carrier.accountSid };
    const answer = await voiceWebhook(platform, carrier, `/webhooks/carriers/${listed.carrier_connection_id}/voice`, offer);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('<Reject/>');
    expect(streamOf(answer.text)).toBeUndefined();
    // The carrier asking again is rejected again, and its report of the call is acknowledged.
    expect((await voiceWebhook(platform, carrier, `/webhooks/carriers/${listed.carrier_connection_id}/voice`, offer)).text).toContain('<Reject/>');
    expect((await voiceWebhook(platform, carrier, `/webhooks/carriers/${listed.carrier_connection_id}/voice/status`, { CallSid: callSid, CallStatus: 'canceled' })).status).toBe(204);
    expect((await platform.api.get('/calls', key)).body.meta.pagination.total).toBe(0);
    expect(await balance(platform.api, key)).toEqual(settledBalance('0.0000'));
  });
});
