// A call's recording downloaded through the gateway: GET /calls/{id}/recording hands out a signed,
// time-limited address; the gateway checks it without a bearer and streams the WAV from the calls
// service's media endpoint, byte ranges included. Altered or expired addresses are 403; another
// workspace's call and a removed recording are 404.
import { randomBytes } from 'node:crypto';
import { Signer } from '@voice/runtime/signed-tokens';
import { expectError } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { buySmsNumber, eventually } from './support/telephony.js';

const internalSecret = randomBytes(32).toString('hex');
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0', VOICE_INTERNAL_SECRET: internalSecret });
});
afterAll(async () => {
  await platform.close();
});

type ErrorBody = { error: { code: string } };

/** A completed sandbox call with its recording, in a fresh workspace. */
async function recordedCall() {
  const workspace = await platform.workspace({ plan: 'pro' });
  await platform.fund(workspace.id, '5.0000');
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Recorder', first_message: 'Hello.', end_call: { max_duration_seconds: 300 } });
  expect(assistant.status).toBe(201);
  const placed = await platform.api.post('/calls', workspace.key, {
    assistant_id: assistant.body.data.id,
    from: number.number,
    to: '+14155550123',
    metadata: { sandbox_script: [{ say: 'Hi, just a quick question.' }, { hangup: 'caller' }] },
  });
  expect(placed.status).toBe(201);
  const callId = placed.body.data.id as string;
  await eventually(async () => ((await platform.api.get(`/calls/${callId}`, workspace.key)).body.data.has_recording ? true : undefined), 20_000, 'the recording to be stored');
  return { ...workspace, callId, number: number.number, assistantId: assistant.body.data.id as string };
}

/** The address's query with one parameter replaced. */
function withParameter(url: string, name: string, value: string): string {
  const changed = new URL(url);
  changed.searchParams.set(name, value);
  return changed.toString();
}

test('a recording is downloaded whole and by range from its signed address, without a credential', async () => {
  const { key, callId, id: workspaceId } = await recordedCall();
  const before = Date.now();
  const answer = await platform.api.get(`/calls/${callId}/recording`, key);
  expect(answer.status).toBe(200);
  const { url, expires_at } = answer.body.data as { url: string; expires_at: string };
  expect(url.startsWith(`${platform.running.url}/recordings/${callId}?`)).toBe(true);
  const expiresIn = Date.parse(expires_at) - before;
  expect(expiresIn).toBeGreaterThan(14 * 60 * 1000);
  expect(expiresIn).toBeLessThanOrEqual(15 * 60 * 1000);
  expect(new URL(url).searchParams.get('workspace_id')).toBe(workspaceId);

  const whole = await fetch(url);
  expect([whole.status, whole.headers.get('content-type'), whole.headers.get('accept-ranges')]).toEqual([200, 'audio/wav', 'bytes']);
  const wav = Buffer.from(await whole.arrayBuffer());
  expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(wav.subarray(8, 12).toString('latin1')).toBe('WAVE');
  expect(Number(whole.headers.get('content-length'))).toBe(wav.length);
  // The sandbox records 16-bit PCM at 8 kHz, at least one second.
  expect(wav.length).toBeGreaterThanOrEqual(44 + 16_000);

  const range = await fetch(url, { headers: { range: 'bytes=8-15' } });
  expect([range.status, range.headers.get('content-range'), range.headers.get('content-length')]).toEqual([206, `bytes 8-15/${wav.length}`, '8']);
  expect(Buffer.from(await range.arrayBuffer())).toEqual(wav.subarray(8, 16));
  const tail = await fetch(url, { headers: { range: 'bytes=-100' } });
  expect(tail.status).toBe(206);
  expect(Buffer.from(await tail.arrayBuffer())).toEqual(wav.subarray(wav.length - 100));
  const beyond = await fetch(url, { headers: { range: `bytes=${wav.length}-` } });
  expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, `bytes */${wav.length}`]);
  expect(((await beyond.json()) as ErrorBody).error.code).toBe('invalid_request');
  // A bearer is neither needed nor forwarded; the address alone decides.
  expect((await fetch(url, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
});

test('an altered or expired address is 403 and serves nothing', async () => {
  const { key, callId, id: workspaceId } = await recordedCall();
  const { url } = (await platform.api.get(`/calls/${callId}/recording`, key)).body.data as { url: string };
  const signature = new URL(url).searchParams.get('signature')!;
  const other = await recordedCall();
  const forbidden = async (address: string) => {
    const response = await fetch(address);
    expect(response.status).toBe(403);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.code).toBe('forbidden');
    expect(JSON.stringify(body)).not.toContain('RIFF');
  };
  await forbidden(withParameter(url, 'signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`));
  await forbidden(withParameter(url, 'expires', String(Number(new URL(url).searchParams.get('expires')) + 3600)));
  await forbidden(withParameter(url, 'workspace_id', other.id));
  await forbidden(url.replace(callId, other.callId));
  const unsigned = new URL(url);
  unsigned.search = '';
  await forbidden(unsigned.toString());

  // Signed correctly (the gateway's key is derived from the internal secret) but expired a minute ago.
  const signer = new Signer(Buffer.from(internalSecret, 'hex'), 'voice-recordings:download-url');
  const expired = Math.floor(Date.now() / 1000) - 60;
  const expiredSignature = signer.sign(`${workspaceId}\n${callId}\n${expired}`);
  const expiredUrl = withParameter(withParameter(url, 'expires', String(expired)), 'signature', expiredSignature);
  await forbidden(expiredUrl);
  // The same scheme with a future expiry is accepted: the 403 above is the expiry's.
  const later = expired + 3600;
  const laterSignature = signer.sign(`${workspaceId}\n${callId}\n${later}`);
  expect((await fetch(withParameter(withParameter(url, 'expires', String(later)), 'signature', laterSignature))).status).toBe(200);
});

test('another workspace’s call is 404, the scope calls:read is needed, and a removed recording is 404 also at its address', async () => {
  const { key, callId, id: workspaceId } = await recordedCall();
  const stranger = await platform.workspace({ plan: 'pro' });
  expectError(await platform.api.get(`/calls/${callId}/recording`, stranger.key), 404, 'not_found');
  expectError(await platform.api.get('/calls/not-a-uuid/recording', key), 404, 'not_found');
  const writerOnly = await platform.key(workspaceId, ['assistants:read']);
  expectError(await platform.api.get(`/calls/${callId}/recording`, writerOnly), 403, 'forbidden');
  const reader = await platform.key(workspaceId, ['calls:read']);
  const { url } = (await platform.api.get(`/calls/${callId}/recording`, reader)).body.data as { url: string };
  expect((await fetch(url)).status).toBe(200);

  expect((await platform.api.delete(`/calls/${callId}/recording`, key)).status).toBe(200);
  expectError(await platform.api.get(`/calls/${callId}/recording`, key), 404, 'not_found');
  const gone = await fetch(url);
  expect(gone.status).toBe(404);
  expect(((await gone.json()) as ErrorBody).error.code).toBe('not_found');
  expect((await fetch(url, { method: 'POST' })).status).toBe(405);
});

test('removing needs calls:write, another workspace’s removal is 404 and removes nothing, and a call without a recording is 404 to read and to remove', async () => {
  const { key, callId, id: workspaceId, number, assistantId } = await recordedCall();
  const stranger = await platform.workspace({ plan: 'pro' });
  expectError(await platform.api.delete(`/calls/${callId}/recording`, stranger.key), 404, 'not_found');
  expectError(await platform.api.delete(`/calls/${callId}/recording`, await platform.key(workspaceId, ['calls:read'])), 403, 'forbidden');
  expectError(await platform.api.delete('/calls/not-a-uuid/recording', key), 404, 'not_found');
  expect((await platform.api.get(`/calls/${callId}`, key)).body.data.has_recording).toBe(true);
  const { url } = (await platform.api.get(`/calls/${callId}/recording`, key)).body.data as { url: string };
  expect((await fetch(url)).status).toBe(200);

  const remover = await platform.key(workspaceId, ['calls:write']);
  expect((await platform.api.delete(`/calls/${callId}/recording`, remover)).body).toEqual({ data: { id: callId, deleted: true } });
  expect((await platform.api.get(`/calls/${callId}`, key)).body.data.has_recording).toBe(false);
  expectError(await platform.api.delete(`/calls/${callId}/recording`, key), 404, 'not_found');

  // A busy destination: the call ends without a conversation, so nothing was ever recorded.
  const busy = await platform.api.post('/calls', key, { assistant_id: assistantId, from: number, to: '+15005550006' });
  expect(busy.status).toBe(201);
  const unrecorded = busy.body.data.id as string;
  await eventually(async () => ((await platform.api.get(`/calls/${unrecorded}`, key)).body.data.status === 'busy' ? true : undefined), 15_000, 'the call to end busy');
  expect((await platform.api.get(`/calls/${unrecorded}`, key)).body.data.has_recording).toBe(false);
  expectError(await platform.api.get(`/calls/${unrecorded}/recording`, key), 404, 'not_found');
  expectError(await platform.api.delete(`/calls/${unrecorded}/recording`, key), 404, 'not_found');
});
