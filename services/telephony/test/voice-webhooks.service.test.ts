// Tier 2: a Twilio-compatible carrier's voice webhooks (CarrierVoiceService, as the gateway hands
// them in) with the carrier's REST API as a real server on loopback: an outbound leg dialled
// through a workspace's connection, its TwiML, its signed progress (forged callbacks change
// nothing), hang-up, its recording fetched and handed to the calls service, and inbound calls on a
// number given to an assistant, taken or rejected. The calls service is a recording double.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { Code } from '@connectrpc/connect';
import { SecretBox } from '@voice/runtime/crypto';
import { callLegChangedSubject } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { CallLegChangedSchema, CallLegService, CallLegStatus } from '@voice/proto/voice/telephony/v1/call_legs';
import { CarrierVoiceService, VoiceWebhookKind } from '@voice/proto/voice/telephony/v1/carrier_voice';
import { twilioSignature } from '../src/carriers/twilio.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { connectionRecord, numberRecord } from './store.contract.js';
import { CallsDouble } from './calls-double.js';
import { failure, sandboxCarriers, setupService } from './harness.js';
import { startFakeTwilio, type FakeTwilio } from './support-carrier/twilio-server.js';
import type { TierClient } from '../../runtime/test/service-tiers.js';

const dir = mkdtempSync(join(tmpdir(), 'telephony-voice-'));
const store = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
const box = new SecretBox(randomBytes(32));
const publicUrl = 'https://voice.example';
const mediaUrl = 'wss://runtime.example/media';
const accountSid = `AC${randomBytes(16).toString('hex')}`;
const authToken = randomBytes(16).toString('hex');
const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

let twilio: FakeTwilio;
let carriers: ReturnType<typeof sandboxCarriers>;
let voice: TierClient<typeof CarrierVoiceService>;
let legs: TierClient<typeof CallLegService>;
const calls = new CallsDouble();
let workspace: string;
let connectionId: string;
let number: ReturnType<typeof numberRecord>;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  carriers = sandboxCarriers(box, { publicUrl, allowPrivate: true });
  voice = setupService(CarrierVoiceService, { store, box, carriers, mediaUrl, calls });
  legs = setupService(CallLegService, { store, box, carriers, mediaUrl, calls });
  workspace = newId();
  const connection = connectionRecord(workspace, { baseUrl: twilio.baseUrl, sealedAccountSid: box.seal(accountSid), sealedAuthToken: box.seal(authToken) });
  await store.insertConnection(connection);
  connectionId = connection.id;
  number = numberRecord(workspace, { number: '+14155550142', source: 'imported', carrierConnectionId: connectionId, assistantId: newId() });
  await store.insertNumber(number);
});
afterAll(async () => {
  await voice.close();
  await legs.close();
  carriers.close();
  await twilio.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const calling = { headers: {} as Record<string, string> };
beforeAll(() => {
  calling.headers = legs.as({ workspaceId: '', principal: { type: 'internal', id: 'calls', name: 'calls' }, scopes: null }).headers;
});

/** A webhook as the carrier sends it: to `path` below the public URL, signed with the connection's token unless forged. */
function webhook(kind: VoiceWebhookKind, path: string, params: Record<string, string>, options: { legId?: string; forged?: boolean; connection?: string } = {}) {
  const url = `${publicUrl}/webhooks/carriers/${options.connection ?? connectionId}${path}`;
  const signature = twilioSignature(options.forged ? 'not-the-token' : authToken, url, params);
  return voice.client.handleVoiceWebhook({ connection: options.connection ?? connectionId, kind, legId: options.legId ?? '', url, params, signature }, voice.internal);
}

async function legEvents(callId: string) {
  return (await store.outbox.pending(10_000))
    .filter((event) => event.subject === callLegChangedSubject)
    .map((event) => fromBinary(CallLegChangedSchema, event.payload))
    .filter((event) => event.callId === callId)
    .sort((a, b) => a.sequence - b.sequence);
}

/** An outbound leg dialled through the connection; answers the carrier's sid for it. */
async function dialled() {
  const callSid = sid('CA');
  twilio.handle = (request) => (request.path.endsWith('/Calls.json') ? { status: 201, json: { sid: callSid, status: 'queued' } } : { status: 404, json: { code: 20404 } });
  const callId = newId();
  const { legId } = await legs.client.placeCallLeg(
    { callId, workspaceId: workspace, from: number.number, to: '+12025550143', numberId: number.id, maxDurationSeconds: 120, mediaParameters: { call_id: callId, session_token: 'st_outbound' } },
    calling,
  );
  return { callId, legId, callSid, dial: twilio.received.at(-1)! };
}

test("an outbound leg is dialled with the leg's own TwiML, status and recording URLs", async () => {
  const { legId, dial } = await dialled();
  const leg = `${publicUrl}/webhooks/carriers/${connectionId}/calls/${legId}`;
  expect(dial.form).toMatchObject({ Url: `${leg}/twiml`, StatusCallback: `${leg}/status`, RecordingStatusCallback: `${leg}/recording`, TimeLimit: '120' });
});

test('the answered leg gets TwiML streaming its media to the runtime with its parameters; a forged request changes nothing', async () => {
  const { callId, legId, callSid } = await dialled();
  expect(await failure(webhook(VoiceWebhookKind.INSTRUCTIONS, `/calls/${legId}/twiml`, { CallSid: callSid, CallStatus: 'in-progress' }, { legId, forged: true }))).toMatchObject({
    code: Code.PermissionDenied,
    reason: 'forbidden',
  });
  const { twiml } = await webhook(VoiceWebhookKind.INSTRUCTIONS, `/calls/${legId}/twiml`, { CallSid: callSid, CallStatus: 'in-progress' }, { legId });
  expect(twiml).toBe(
    `<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="${mediaUrl}"><Parameter name="call_id" value="${callId}"/><Parameter name="session_token" value="st_outbound"/></Stream></Connect></Response>`,
  );
  expect(await failure(webhook(VoiceWebhookKind.INSTRUCTIONS, `/calls/${legId}/twiml`, { CallSid: sid('CA') }, { legId }))).toMatchObject({ code: Code.InvalidArgument });
  expect(await failure(webhook(VoiceWebhookKind.INSTRUCTIONS, `/calls/${newId()}/twiml`, { CallSid: callSid }, { legId: newId() }))).toMatchObject({ code: Code.NotFound });
});

test('signed progress moves the leg forward and is published; forged, stale, unknown or foreign reports change nothing', async () => {
  const { callId, legId, callSid } = await dialled();
  const status = (params: Record<string, string>, forged = false) => webhook(VoiceWebhookKind.STATUS, `/calls/${legId}/status`, { CallSid: callSid, ...params }, { legId, forged });
  await status({ CallStatus: 'initiated' });
  await status({ CallStatus: 'ringing' });
  expect(await failure(status({ CallStatus: 'completed', CallDuration: '99' }, true))).toMatchObject({ code: Code.PermissionDenied });
  await status({ CallStatus: 'in-progress' });
  await status({ CallStatus: 'completed', CallDuration: '7' });
  await status({ CallStatus: 'ringing' });
  expect(await failure(status({ CallStatus: 'exploded' }))).toMatchObject({ code: Code.InvalidArgument, fields: [expect.objectContaining({ field: 'CallStatus' })] });
  expect(await failure(webhook(VoiceWebhookKind.STATUS, `/calls/${legId}/status`, { CallSid: sid('CA'), CallStatus: 'failed' }, { legId }))).toMatchObject({ code: Code.InvalidArgument });
  const events = await legEvents(callId);
  expect(events.map((event) => [CallLegStatus[event.status], event.sequence, event.durationSeconds])).toEqual([
    ['RINGING', 2, 0],
    ['IN_PROGRESS', 3, 0],
    ['COMPLETED', 4, 7],
  ]);
  // The instructions of an ended leg hang up.
  expect((await webhook(VoiceWebhookKind.INSTRUCTIONS, `/calls/${legId}/twiml`, { CallSid: callSid }, { legId })).twiml).toContain('<Hangup/>');
});

test("a failed leg's reason names the carrier's error code, never more", async () => {
  const { callId, legId, callSid } = await dialled();
  await webhook(VoiceWebhookKind.STATUS, `/calls/${legId}/status`, { CallSid: callSid, CallStatus: 'failed', ErrorCode: '32009', ErrorMessage: `account ${accountSid}` }, { legId });
  expect((await legEvents(callId)).at(-1)).toMatchObject({ status: CallLegStatus.FAILED, failureReason: 'the carrier could not connect the call (error 32009)' });
});

test('EndCallLeg asks the carrier to complete the call', async () => {
  const { callId, callSid } = await dialled();
  twilio.handle = () => ({ status: 200, json: { sid: callSid, status: 'completed' } });
  await legs.client.endCallLeg({ callId, workspaceId: workspace }, calling);
  expect(twilio.received.at(-1)).toMatchObject({ method: 'POST', path: `/2010-04-01/Accounts/${accountSid}/Calls/${callSid}.json`, form: { Status: 'completed' } });
});

test("a finished recording is fetched from the carrier and handed to the calls service with the call's session", async () => {
  const { callId, legId, callSid } = await dialled();
  const recordingSid = sid('RE');
  const wav = Buffer.from([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 0xff]);
  twilio.handle = (request) =>
    request.path.endsWith(`/Recordings/${recordingSid}.wav`) ? { status: 200, bytes: wav, headers: { 'content-type': 'audio/x-wav' } } : { status: 404, json: { code: 20404 } };
  const params = { CallSid: callSid, RecordingSid: recordingSid, RecordingStatus: 'completed', RecordingDuration: '7', RecordingUrl: 'https://elsewhere.example/steal' };
  expect(await failure(webhook(VoiceWebhookKind.RECORDING, `/calls/${legId}/recording`, params, { legId, forged: true }))).toMatchObject({ code: Code.PermissionDenied });
  expect(calls.recordings).toHaveLength(0);
  await webhook(VoiceWebhookKind.RECORDING, `/calls/${legId}/recording`, params, { legId });
  expect(calls.recordings).toEqual([{ session: { callId, sessionToken: 'st_outbound' }, recording: { contentType: 'audio/wav', bytes: wav } }]);
  // The carrier's own URL in the callback is never followed: the recording is asked for by its id.
  expect(twilio.received.at(-1)!.path).toBe(`/2010-04-01/Accounts/${accountSid}/Recordings/${recordingSid}.wav`);
  await webhook(VoiceWebhookKind.RECORDING, `/calls/${legId}/recording`, { ...params, RecordingStatus: 'failed' }, { legId });
  expect(calls.recordings).toHaveLength(1);
  expect(await failure(webhook(VoiceWebhookKind.RECORDING, `/calls/${legId}/recording`, { ...params, RecordingSid: '../../Calls' }, { legId }))).toMatchObject({ code: Code.InvalidArgument });
});

describe('inbound calls', () => {
  const offer = (params: Record<string, string>, options: { forged?: boolean; connection?: string } = {}) =>
    webhook(VoiceWebhookKind.INBOUND, '/voice', { CallStatus: 'ringing', Direction: 'inbound', ...params }, options);

  test('a call to a number given to an assistant becomes a call and streams to the runtime; asked again, the same answer', async () => {
    const callSid = sid('CA');
    const before = calls.offered.length;
    const { twiml } = await offer({ CallSid: callSid, From: '+12025550143', To: number.number });
    expect(calls.offered.slice(before)).toEqual([
      expect.objectContaining({ workspaceId: workspace, numberId: number.id, assistantId: number.assistantId, from: '+12025550143', to: number.number, legId: expect.any(String) }),
    ]);
    const legId = calls.offered.at(-1)!.legId;
    const leg = await store.getLeg(legId);
    expect(leg).toMatchObject({ direction: 'inbound', carrierCallId: callSid, callId: expect.any(String), status: 'ringing' });
    expect(twiml).toContain(`<Stream url="${mediaUrl}"><Parameter name="call_id" value="${leg!.callId}"/>`);
    expect((await offer({ CallSid: callSid, From: '+12025550143', To: number.number })).twiml).toBe(twiml);
    expect(calls.offered).toHaveLength(before + 1);

    // The number's own status callbacks (no leg in the URL) follow the call by the carrier's id.
    const numberStatus = (params: Record<string, string>) => webhook(VoiceWebhookKind.STATUS, '/voice/status', { CallSid: callSid, ...params });
    await numberStatus({ CallStatus: 'in-progress' });
    await numberStatus({ CallStatus: 'completed', CallDuration: '3' });
    expect((await legEvents(leg!.callId!)).map((event) => [CallLegStatus[event.status], event.durationSeconds])).toEqual([
      ['IN_PROGRESS', 0],
      ['COMPLETED', 3],
    ]);
    // A number's report on a call nobody took is acknowledged and changes nothing.
    await numberStatus({ CallSid: sid('CA'), CallStatus: 'completed' });
  });

  test('a refused call, a number without an assistant or of another carrier, and a forged offer are rejected', async () => {
    const before = calls.offered.length;
    const unassigned = numberRecord(workspace, { number: '+14155550143', source: 'imported', carrierConnectionId: connectionId });
    await store.insertNumber(unassigned);
    expect((await offer({ CallSid: sid('CA'), From: '+12025550143', To: unassigned.number })).twiml).toContain('<Reject/>');
    expect((await offer({ CallSid: sid('CA'), From: '+12025550143', To: '+14155550199' })).twiml).toContain('<Reject/>');
    expect((await offer({ CallSid: sid('CA'), From: 'anonymous', To: number.number })).twiml).toContain('<Reject/>');
    expect(calls.offered).toHaveLength(before);
    // The platform's carrier may not offer a call to a number of a workspace's connection (and its callbacks never verify here).
    expect(await failure(offer({ CallSid: sid('CA'), From: '+12025550143', To: number.number }, { connection: 'platform' }))).toMatchObject({ code: Code.PermissionDenied });
    expect(await failure(offer({ CallSid: sid('CA'), From: '+12025550143', To: number.number }, { forged: true }))).toMatchObject({ code: Code.PermissionDenied });
    expect(calls.offered).toHaveLength(before);

    calls.refuse = true;
    try {
      const callSid = sid('CA');
      expect((await offer({ CallSid: callSid, From: '+12025550143', To: number.number })).twiml).toContain('<Reject/>');
      expect(calls.offered).toHaveLength(before + 1);
      expect(await store.getLeg(calls.offered.at(-1)!.legId)).toMatchObject({ callId: null, status: 'canceled' });
    } finally {
      calls.refuse = false;
    }
  });
});
