// Tier 2: a call's recording as the CallsService describes it (GetCallRecording), and the internal
// media endpoint that serves its bytes by range to a signed caller of the call's workspace.
import { randomBytes } from 'node:crypto';
import { Code } from '@connectrpc/connect';
import { newId } from '@voice/runtime/ids';
import { CallsService } from '@voice/proto/voice/calls/v1/calls';
import { createLogger } from '@voice/runtime/logger';
import { startRecordingsServer, type RecordingsServer } from '../src/media/recordings-server.js';
import { failure, setup, type Harness } from './harness.js';

let h: Harness<typeof CallsService>;
let media: RecordingsServer;
beforeAll(async () => {
  h = await setup(CallsService);
  media = await startRecordingsServer({ host: '127.0.0.1', port: 0, store: h.store, signer: h.tier.signer, logger: createLogger({ service: 'calls-test', level: 'silent' }) });
});
afterAll(async () => {
  await media.close();
  await h.close();
});

const from = '+442071838750';

/** A placed call of a fresh workspace, with `bytes` stored as its recording when given. */
async function callWith(bytes?: Buffer) {
  const workspaceId = newId();
  const assistantId = newId();
  h.peers.addAssistant(workspaceId, assistantId, { end_call: { max_duration_seconds: 300 } }, ['pro'], 1);
  h.peers.addNumber(workspaceId, from, newId());
  h.holds.wallets.set(workspaceId, { minuteUnits: 0, creditUnits: 100_000 });
  const options = h.tier.inWorkspace(workspaceId);
  const call = (await h.tier.client.createCall({ assistantId, from, to: '+14155550123', workspacePlan: 'pro' }, options)).call!;
  if (bytes) {
    await h.store.saveRecording(call.id, 'audio/wav', (async function* () { yield bytes; })(), 1024 * 1024);
    const stored = (await h.store.getCallById(call.id))!;
    expect(await h.store.updateCall(call.id, stored.version, { hasRecording: true }, [], [], new Date().toISOString())).toBeTruthy();
  }
  return { call, options, workspaceId };
}

const fetchRecording = (callId: string, headers: Record<string, string> = {}) => fetch(`${media.url}/recordings/${callId}`, { headers });

test('GetCallRecording describes the recording; a call without one, another workspace’s call or a bad id is 404', async () => {
  const bytes = randomBytes(3000);
  const { call, options } = await callWith(bytes);
  expect(await h.tier.client.getCallRecording({ callId: call.id }, options)).toMatchObject({ contentType: 'audio/wav', sizeBytes: 3000n, durationSeconds: 0 });
  const other = await callWith();
  expect(await failure(h.tier.client.getCallRecording({ callId: other.call.id }, other.options))).toMatchObject({ code: Code.NotFound });
  expect(await failure(h.tier.client.getCallRecording({ callId: call.id }, other.options))).toMatchObject({ code: Code.NotFound });
  expect(await failure(h.tier.client.getCallRecording({ callId: 'not-a-uuid' }, options))).toMatchObject({ code: Code.NotFound });
  expect((await failure(h.tier.client.getCallRecording({ callId: call.id }))).code).toBe(Code.Unauthenticated);
  await h.tier.client.deleteCallRecording({ callId: call.id }, options);
  expect(await failure(h.tier.client.getCallRecording({ callId: call.id }, options))).toMatchObject({ code: Code.NotFound });
});

test('the media endpoint serves the whole recording and byte ranges to a signed caller of its workspace', async () => {
  const bytes = randomBytes(5000);
  const { call, options } = await callWith(bytes);
  const whole = await fetchRecording(call.id, options.headers);
  expect([whole.status, whole.headers.get('accept-ranges'), whole.headers.get('content-type')]).toEqual([200, 'bytes', 'audio/wav']);
  expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);

  const middle = await fetchRecording(call.id, { ...options.headers, range: 'bytes=100-199' });
  expect([middle.status, middle.headers.get('content-range'), middle.headers.get('content-length')]).toEqual([206, 'bytes 100-199/5000', '100']);
  expect(Buffer.from(await middle.arrayBuffer())).toEqual(bytes.subarray(100, 200));
  const open = await fetchRecording(call.id, { ...options.headers, range: 'bytes=4990-' });
  expect([open.status, open.headers.get('content-range')]).toEqual([206, 'bytes 4990-4999/5000']);
  expect(Buffer.from(await open.arrayBuffer())).toEqual(bytes.subarray(4990));
  const suffix = await fetchRecording(call.id, { ...options.headers, range: 'bytes=-4' });
  expect(Buffer.from(await suffix.arrayBuffer())).toEqual(bytes.subarray(4996));
  const beyond = await fetchRecording(call.id, { ...options.headers, range: 'bytes=5000-' });
  expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, 'bytes */5000']);
});

test('the media endpoint refuses a request without a valid signed caller and hides other workspaces’ recordings', async () => {
  const { call, options } = await callWith(randomBytes(100));
  expect((await fetchRecording(call.id)).status).toBe(401);
  expect((await fetchRecording(call.id, { 'x-voice-caller': `${options.headers['x-voice-caller']}x` })).status).toBe(401);
  const other = await callWith();
  expect((await fetchRecording(call.id, other.options.headers)).status).toBe(404);
  expect((await fetchRecording(other.call.id, other.options.headers)).status).toBe(404);
  expect((await fetchRecording('../calls.sqlite', options.headers)).status).toBe(404);
  expect((await fetch(`${media.url}/recordings/${call.id}`, { method: 'DELETE', headers: options.headers })).status).toBe(405);
});
