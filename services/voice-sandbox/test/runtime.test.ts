// The sandbox voice runtime on loopback: a carrier's media stream in (Twilio Media Streams), the
// calls service's CallSessionService out (a double on a real Connect server that checks signed
// callers), for the default script, a scripted one with a tool call, events and an analysis, a bad
// script, the carrier hanging up, the call's time limit and streams that name no call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '@bufbuild/protobuf';
import { startVoiceSandbox, type StartedVoiceSandbox } from '../src/main.js';
import { defaultScript } from '../src/conversation/script.js';
import { eventually } from '../../../test/support/telephony.js';
import { startCallsDouble, type CallsDouble, type RecordedCall } from './support/calls-double.js';
import { openCarrierStream } from './support/carrier-stream.js';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';

const dir = mkdtempSync(join(tmpdir(), 'voice-sandbox-'));
let calls: CallsDouble;
let runtime: StartedVoiceSandbox;

beforeAll(async () => {
  calls = await startCallsDouble();
  runtime = await startVoiceSandbox(
    { DATA_DIR: dir, VOICE_INTERNAL_SECRET: calls.secret.toString('hex'), VOICE_CALLS_URL: calls.url, VOICE_SANDBOX_RUNTIME_PORT: '0' },
    { logger: createLogger({ service: 'voice-sandbox-test', level: 'silent' }) },
  );
});
afterAll(async () => {
  await runtime.close();
  await calls.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A call the double knows, with what StartSession answers for it. */
function session(response: { firstMessage?: string; metadata?: JsonObject; maxDurationSeconds?: number } = {}) {
  const callId = newId();
  const token = `st_${newId()}`;
  calls.sessions.set(callId, { token, response });
  return { callId, parameters: { call_id: callId, session_token: token } };
}

const endedCall = (callId: string): Promise<RecordedCall> =>
  eventually(async () => {
    const record = calls.calls.get(callId);
    return record?.ended ? record : undefined;
  }, 10_000, 'the session to end');

/** The WAV the runtime uploaded, joined, with what its header says. */
function recordingOf(record: RecordedCall) {
  expect(record.recordings).toHaveLength(1);
  const [recording] = record.recordings;
  const wav = Buffer.concat(recording!.chunks);
  return {
    recording: recording!,
    wav,
    header: {
      riff: wav.toString('ascii', 0, 4),
      riffSize: wav.readUInt32LE(4),
      wave: wav.toString('ascii', 8, 12),
      format: wav.readUInt16LE(20),
      channels: wav.readUInt16LE(22),
      sampleRate: wav.readUInt32LE(24),
      bitsPerSample: wav.readUInt16LE(34),
      dataSize: wav.readUInt32LE(40),
    },
  };
}

test('the default script: the first message, a caller turn and a reply, a recording of the call, then the assistant ends it and hangs up', async () => {
  const { callId, parameters } = session({ firstMessage: 'Hi, this is Ada from the clinic.' });
  const stream = await openCarrierStream(runtime.server.mediaUrl, parameters);
  const record = await endedCall(callId);
  expect(await stream.closed).toBe(1000);
  expect(record.started).toBe(1);
  expect(record.transcript.map((turn) => [turn.role, turn.text])).toEqual([
    ['assistant', 'Hi, this is Ada from the clinic.'],
    ['user', 'Hello?'],
    ['assistant', (defaultScript[1] as { reply: string }).reply],
  ]);
  expect(record.transcript.map((turn) => turn.sequence)).toEqual([1n, 2n, 3n]);
  expect(record.ended).toMatchObject({ reason: 'assistant_ended' });
  expect(record.order).toEqual(['start', 'transcript:assistant', 'transcript:user', 'transcript:assistant', 'recording', 'end:assistant_ended']);
  const { recording, wav, header } = recordingOf(record);
  expect(recording.contentType).toBe('audio/wav');
  expect(recording.sessions[0]).toMatchObject({ callId, sessionToken: parameters.session_token });
  expect(header).toEqual({ riff: 'RIFF', riffSize: wav.length - 8, wave: 'WAVE', format: 1, channels: 1, sampleRate: 8000, bitsPerSample: 16, dataSize: wav.length - 44 });
  // A call shorter than a second is recorded as one second.
  expect(header.dataSize).toBe(16_000);
  expect(new Set(calls.callers)).toEqual(new Set(['voice-sandbox']));
});

test('a script from the metadata: tool calls answered as turns, events, the analysis, and the caller hanging up', async () => {
  calls.toolAnswer = (request) =>
    request.name === 'lookup_order' ? { ok: true, result: { status: 'shipped', order: (request.arguments as { order: string }).order } } : { ok: false, error: 'the tool is not active' };
  const { callId, parameters } = session({
    metadata: {
      sandbox_script: [
        { say: 'Where is my order 42?' },
        { tool: { name: 'lookup_order', arguments: { order: '42' } } },
        { event: { type: 'component.fallback', data: { component: 'tts' } } },
        { tool: { name: 'missing_tool' } },
        { analysis: { summary: 'The caller asked about order 42.', verdict: 'successful', extracted_fields: { order: '42' } } },
        { hangup: 'caller' },
        { say: 'never said' },
      ],
    },
  });
  await openCarrierStream(runtime.server.mediaUrl, parameters);
  const record = await endedCall(callId);
  expect(record.tools.map((tool) => [tool.name, tool.arguments])).toEqual([
    ['lookup_order', { order: '42' }],
    ['missing_tool', {}],
  ]);
  expect(record.transcript.map((turn) => [turn.role, turn.text])).toEqual([
    ['user', 'Where is my order 42?'],
    ['assistant', '{"status":"shipped","order":"42"}'],
    ['assistant', 'The missing_tool tool failed: the tool is not active'],
  ]);
  expect(record.events).toEqual([expect.objectContaining({ type: 'component.fallback', data: { component: 'tts' } })]);
  expect(record.analyses).toEqual([expect.objectContaining({ summary: 'The caller asked about order 42.', verdict: 'successful', extractedFields: { order: '42' } })]);
  // One sequence across every report kind.
  const sequences = [...record.transcript.map((turn) => turn.sequence), ...record.tools.map((tool) => tool.sequence), ...record.events.map((event) => event.sequence)];
  expect(sequences.sort((a, b) => Number(a - b))).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
  expect(record.ended).toMatchObject({ reason: 'caller_hung_up' });
  expect(record.order.slice(-2)).toEqual(['recording', 'end:caller_hung_up']);
});

test('a voicemail step reports voicemail.detected and ends the call with reason voicemail, the rest unplayed', async () => {
  const { callId, parameters } = session({ metadata: { sandbox_script: [{ voicemail: true }, { say: 'never said' }] } });
  await openCarrierStream(runtime.server.mediaUrl, parameters);
  const record = await endedCall(callId);
  expect(record.events).toEqual([expect.objectContaining({ type: 'voicemail.detected' })]);
  expect(record.transcript).toEqual([]);
  expect(record.ended).toMatchObject({ reason: 'voicemail' });
  expect(record.order.slice(-2)).toEqual(['recording', 'end:voicemail']);
});

test('a script that is not valid is reported as a session error and the call ends with reason error', async () => {
  const { callId, parameters } = session({ metadata: { sandbox_script: [{ say: 'hi' }, { dance: true }] } });
  await openCarrierStream(runtime.server.mediaUrl, parameters);
  const record = await endedCall(callId);
  expect(record.events).toEqual([expect.objectContaining({ type: 'session.error', data: { message: expect.stringContaining('metadata.sandbox_script[1]') } })]);
  expect(record.transcript).toEqual([]);
  expect(record.ended).toMatchObject({ reason: 'error' });
  expect(record.recordings).toHaveLength(1);
});

test('the carrier hanging up ends a conversation still under way as the caller hanging up', async () => {
  const { callId, parameters } = session({ metadata: { sandbox_script: [{ say: 'Let me think.' }, { pause_ms: 600_000 }, { say: 'never said' }] } });
  const stream = await openCarrierStream(runtime.server.mediaUrl, parameters);
  await eventually(async () => (calls.calls.get(callId)?.transcript.length === 1 ? true : undefined), 5_000, 'the first turn');
  stream.hangUp();
  const record = await endedCall(callId);
  expect(record.ended).toMatchObject({ reason: 'caller_hung_up' });
  expect(record.transcript.map((turn) => turn.text)).toEqual(['Let me think.']);
  expect(recordingOf(record).header.dataSize).toBeGreaterThanOrEqual(16_000);
});

test("the runtime ends the conversation at the call's time limit", async () => {
  const { callId, parameters } = session({ maxDurationSeconds: 1, metadata: { sandbox_script: [{ pause_ms: 600_000 }, { say: 'never said' }] } });
  const stream = await openCarrierStream(runtime.server.mediaUrl, parameters);
  const record = await endedCall(callId);
  expect(record.ended).toMatchObject({ reason: 'max_duration' });
  expect(record.transcript).toEqual([]);
  expect(recordingOf(record).header.dataSize).toBeGreaterThanOrEqual(16_000);
  expect(await stream.closed).toBe(1000);
});

test('a stream that names no call, or no session the calls service knows, is hung up and reports nothing', async () => {
  const unnamed = await openCarrierStream(runtime.server.mediaUrl, { call_id: newId() });
  expect(await unnamed.closed).toBe(1008);
  const callId = newId();
  const unknown = await openCarrierStream(runtime.server.mediaUrl, { call_id: callId, session_token: 'st_forged' });
  expect(await unknown.closed).toBe(1011);
  expect(calls.calls.has(callId)).toBe(false);
});

test('anything but the stream endpoint and the health check is not found', async () => {
  const base = runtime.server.mediaUrl.replace(/^ws:/, 'http:').replace(/\/media$/, '');
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  expect((await fetch(`${base}/other`)).status).toBe(404);
  expect((await fetch(`${base}/media`)).status).toBe(404);
});
