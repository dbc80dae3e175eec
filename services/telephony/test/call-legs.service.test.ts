// Tier 2: CallLegService as the calls service uses it, over the router transport with the real
// signed-caller check, a SQLite store and the sandbox carrier streaming answered calls' media to a
// voice runtime double on loopback (Twilio Media Streams). Each leg's progress is read back from
// the CallLegChanged events telephony's outbox holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { Code } from '@connectrpc/connect';
import { SecretBox } from '@voice/runtime/crypto';
import { callLegChangedSubject } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { CallLegChangedSchema, CallLegService, CallLegStatus, type CallLegChanged, type PlaceCallLegRequest } from '@voice/proto/voice/telephony/v1/call_legs';
import { recordLegProgress } from '../src/call-legs/leg-events.js';
import { sandboxCallDestinations } from '../src/carriers/sandbox-calls.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { eventually } from '../../../test/support/telephony.js';
import { numberRecord } from './store.contract.js';
import { failure, sandboxCarriers, setupService } from './harness.js';
import type { TierClient } from '../../runtime/test/service-tiers.js';
import { startMediaReceiver, type MediaReceiver } from './support-carrier/media-receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'telephony-call-legs-'));
const store = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
const box = new SecretBox(randomBytes(32));
let runtime: MediaReceiver;
let carriers: ReturnType<typeof sandboxCarriers>;
let tier: TierClient<typeof CallLegService>;

beforeAll(async () => {
  runtime = await startMediaReceiver();
  carriers = sandboxCarriers(box, { mediaUrl: runtime.url, onCallProgress: async (legId, change) => void (await recordLegProgress({ store, wakeRelay: () => undefined }, legId, change)) });
  tier = setupService(CallLegService, { store, box, carriers });
});
afterAll(async () => {
  await tier.close();
  carriers.close();
  await runtime.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const calls = { headers: {} as Record<string, string> };
beforeAll(() => {
  calls.headers = tier.as({ workspaceId: '', principal: { type: 'internal', id: 'calls', name: 'calls' }, scopes: null }).headers;
});

/** A valid US number nobody else holds (numbers are unique across the platform). */
const freshUsNumber = () => `+1202${2_000_000 + Math.floor(Math.random() * 7_999_999)}`;

async function voiceNumber(workspaceId: string, overrides: Parameters<typeof numberRecord>[1] = {}) {
  const number = numberRecord(workspaceId, { number: freshUsNumber(), ...overrides });
  await store.insertNumber(number);
  return number;
}

function legRequest(workspaceId: string, number: { id: string; number: string }, overrides: Partial<PlaceCallLegRequest> = {}) {
  return {
    callId: newId(),
    workspaceId,
    from: number.number,
    to: '+12025550143',
    numberId: number.id,
    maxDurationSeconds: 300,
    mediaParameters: { call_id: 'will-be-replaced', session_token: 'st_secret' },
    ...overrides,
  };
}

/** The CallLegChanged events of a call in telephony's outbox, in sequence order. */
async function eventsOf(callId: string): Promise<CallLegChanged[]> {
  const pending = await store.outbox.pending(10_000);
  return pending
    .filter((event) => event.subject === callLegChangedSubject)
    .map((event) => fromBinary(CallLegChangedSchema, event.payload))
    .filter((event) => event.callId === callId)
    .sort((a, b) => a.sequence - b.sequence);
}

const endedWith = (callId: string, status: CallLegStatus) =>
  eventually(async () => {
    const events = await eventsOf(callId);
    return events.some((event) => event.status === status) ? events : undefined;
  }, 5_000, `the leg to end ${CallLegStatus[status]}`);

test('only platform services place or end legs, and a service signed for one workspace only in it', async () => {
  const workspace = newId();
  const number = await voiceNumber(workspace);
  expect((await failure(tier.client.placeCallLeg(legRequest(workspace, number)))).code).toBe(Code.Unauthenticated);
  expect(await failure(tier.client.placeCallLeg(legRequest(workspace, number), tier.inWorkspace(workspace)))).toMatchObject({ code: Code.PermissionDenied, reason: 'forbidden' });
  const otherService = tier.as({ workspaceId: newId(), principal: { type: 'internal', id: 'calls', name: 'calls' }, scopes: null });
  expect(await failure(tier.client.placeCallLeg(legRequest(workspace, number), otherService))).toMatchObject({ code: Code.PermissionDenied });
  expect(await failure(tier.client.endCallLeg({ callId: newId(), workspaceId: workspace }, tier.inWorkspace(workspace)))).toMatchObject({ code: Code.PermissionDenied });
});

test('an answered leg rings, streams its media to the runtime with the parameters, and completes when the runtime hangs up', async () => {
  const workspace = newId();
  const number = await voiceNumber(workspace);
  const request = legRequest(workspace, number);
  request.mediaParameters = { call_id: request.callId, session_token: 'st_secret' };
  const { legId } = await tier.client.placeCallLeg(request, calls);
  const stream = await eventually(async () => runtime.streams.find((each) => each.customParameters?.call_id === request.callId), 5_000, 'the media stream');
  expect(stream.messages[0]).toEqual({ event: 'connected', protocol: 'Call', version: '1.0.0' });
  expect(stream.messages[1]).toMatchObject({
    event: 'start',
    sequenceNumber: '1',
    start: { customParameters: { call_id: request.callId, session_token: 'st_secret' }, mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 }, tracks: ['inbound'] },
  });
  await eventually(async () => (stream.messages.some((message) => message.event === 'media') ? true : undefined), 5_000, 'media frames');
  const media = stream.messages.find((message) => message.event === 'media') as { media: { payload: string; track: string } };
  expect(media.media.track).toBe('inbound');
  expect(Buffer.from(media.media.payload, 'base64')).toHaveLength(160);
  stream.hangUp();
  const events = await endedWith(request.callId, CallLegStatus.COMPLETED);
  expect(events.map((event) => CallLegStatus[event.status])).toEqual(['RINGING', 'IN_PROGRESS', 'COMPLETED']);
  expect(events.map((event) => event.sequence)).toEqual([2, 3, 4]);
  for (const event of events) expect(event).toMatchObject({ legId, workspaceId: workspace, callId: request.callId });
  expect(events[2]!.durationSeconds).toBeGreaterThanOrEqual(1);
  const leg = await store.getLeg(legId);
  expect(leg).toMatchObject({ status: 'completed', numberId: number.id, carrierCallId: expect.stringMatching(/^CA/) });
  // The session token is sealed at rest.
  expect(leg!.sealedMediaParameters).not.toContain('st_secret');
});

test('EndCallLeg hangs up: the runtime gets stop and the leg completes; ending it again changes nothing', async () => {
  const workspace = newId();
  const number = await voiceNumber(workspace);
  const request = legRequest(workspace, number);
  request.mediaParameters = { call_id: request.callId };
  await tier.client.placeCallLeg(request, calls);
  const stream = await eventually(async () => runtime.streams.find((each) => each.customParameters?.call_id === request.callId), 5_000, 'the media stream');
  await tier.client.endCallLeg({ callId: request.callId, workspaceId: workspace }, calls);
  await eventually(async () => (stream.closed ? true : undefined), 5_000, 'the stream to close');
  expect(stream.messages.at(-1)).toMatchObject({ event: 'stop', stop: { callSid: expect.stringMatching(/^CA/) } });
  const events = await endedWith(request.callId, CallLegStatus.COMPLETED);
  await tier.client.endCallLeg({ callId: request.callId, workspaceId: workspace }, calls);
  expect(await eventsOf(request.callId)).toEqual(events);
});

test.each([
  [sandboxCallDestinations.busy, CallLegStatus.BUSY, ''],
  [sandboxCallDestinations.noAnswer, CallLegStatus.NO_ANSWER, ''],
  [sandboxCallDestinations.failed, CallLegStatus.FAILED, 'the destination could not be reached'],
])('a call to %s rings and ends %s without media', async (to, status, reason) => {
  const workspace = newId();
  const number = await voiceNumber(workspace);
  const request = legRequest(workspace, number, { to });
  await tier.client.placeCallLeg(request, calls);
  const events = await endedWith(request.callId, status);
  expect(events.map((event) => event.status)).toEqual([CallLegStatus.RINGING, status]);
  expect(events[1]).toMatchObject({ durationSeconds: 0, failureReason: reason });
  expect(runtime.streams.some((stream) => stream.customParameters?.call_id === request.callId)).toBe(false);
});

test('a retried placement answers the first leg and dials once', async () => {
  const workspace = newId();
  const number = await voiceNumber(workspace);
  const request = legRequest(workspace, number, { to: sandboxCallDestinations.busy });
  const [first, second] = await Promise.all([tier.client.placeCallLeg(request, calls), tier.client.placeCallLeg(request, calls)]);
  expect(second.legId).toBe(first.legId);
  const events = await endedWith(request.callId, CallLegStatus.BUSY);
  expect(events.filter((event) => event.status === CallLegStatus.RINGING)).toHaveLength(1);
});

test('a leg ended before it is answered is canceled, and the runtime never hears of it', async () => {
  const workspace = newId();
  const number = await voiceNumber(workspace);
  const request = legRequest(workspace, number);
  await tier.client.placeCallLeg(request, calls);
  await tier.client.endCallLeg({ callId: request.callId, workspaceId: workspace }, calls);
  const events = await endedWith(request.callId, CallLegStatus.CANCELED);
  expect(events.at(-1)).toMatchObject({ durationSeconds: 0 });
  expect(runtime.streams.some((stream) => stream.customParameters?.call_id === request.callId)).toBe(false);
});

test("without a number the platform's carrier places the leg (a verified caller ID)", async () => {
  const workspace = newId();
  const request = legRequest(workspace, { id: '', number: '+14155550123' }, { to: sandboxCallDestinations.noAnswer });
  const { legId } = await tier.client.placeCallLeg(request, calls);
  await endedWith(request.callId, CallLegStatus.NO_ANSWER);
  expect(await store.getLeg(legId)).toMatchObject({ numberId: null, carrierConnectionId: null, from: '+14155550123' });
});

test("the number must be the workspace's own, voice-capable and the caller; bad input names the field and stores nothing", async () => {
  const workspace = newId();
  const number = await voiceNumber(workspace);
  const smsOnly = await voiceNumber(workspace, { voiceCapable: false });
  const theirs = await voiceNumber(newId());
  expect(await failure(tier.client.placeCallLeg(legRequest(workspace, theirs), calls))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  expect(await failure(tier.client.placeCallLeg(legRequest(workspace, { id: 'not-a-uuid', number: number.number }), calls))).toMatchObject({ code: Code.NotFound });
  expect(await failure(tier.client.placeCallLeg(legRequest(workspace, smsOnly), calls))).toMatchObject({ reason: 'telephony_configuration_error' });
  expect(await failure(tier.client.placeCallLeg(legRequest(workspace, number, { from: '+14155550199' }), calls))).toMatchObject({
    code: Code.InvalidArgument,
    fields: [expect.objectContaining({ field: 'from' })],
  });
  const bad = await failure(
    tier.client.placeCallLeg(
      legRequest(workspace, number, { callId: 'nope', to: 'somebody', maxDurationSeconds: 0, mediaParameters: { 'bad name': 'x', long: 'y'.repeat(1025) } }),
      calls,
    ),
  );
  expect(bad.code).toBe(Code.InvalidArgument);
  expect(bad.fields.map((issue) => issue.field).sort()).toEqual(['call_id', 'max_duration_seconds', 'media_parameters.bad name', 'media_parameters.long', 'to']);
  expect(await failure(tier.client.endCallLeg({ callId: newId(), workspaceId: workspace }, calls))).toMatchObject({ code: Code.NotFound });
  expect(await failure(tier.client.endCallLeg({ callId: 'nope', workspaceId: workspace }, calls))).toMatchObject({ code: Code.NotFound });
});

test('a destination the carrier refuses is a public error, and the leg is left failed without an event', async () => {
  const workspace = newId();
  const number = await voiceNumber(workspace);
  const request = legRequest(workspace, number, { to: '+15005550004' });
  expect(await failure(tier.client.placeCallLeg(request, calls))).toMatchObject({ reason: 'destination_forbidden' });
  expect(await store.getLegOfCall(workspace, request.callId)).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('destination') });
  expect(await eventsOf(request.callId)).toEqual([]);
  // Ending it changes nothing.
  await tier.client.endCallLeg({ callId: request.callId, workspaceId: workspace }, calls);
  expect(await eventsOf(request.callId)).toEqual([]);
});
