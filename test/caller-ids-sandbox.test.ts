// Caller IDs verified by call on the sandbox carrier (the platform's default), through the gateway:
// the sandbox reaches no phone, so its test surface (GET /sandbox/caller-ids/{id}/verification-call)
// shows what the called number heard, and that code verifies; wrong codes use the same attempts as
// SMS codes. A number that does not answer heard nothing; SMS caller IDs and other workspaces' have
// no call to show.
import { expectError } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

let numberSequence = 0;
const freshNumber = () => `+1312555${String(3000 + (numberSequence += 1)).padStart(4, '0')}`;
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const verificationCall = (id: string, key: string) => platform.api.get(`/sandbox/caller-ids/${id}/verification-call`, key);

async function calledCallerId(key: string, number = freshNumber()) {
  const created = await platform.api.post('/caller-ids', key, { phone_number: number, method: 'call' });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; phone_number: string };
}

/** The code the sandbox said to the caller ID's number. */
async function codeHeardBy(id: string, key: string): Promise<string> {
  const heard = await verificationCall(id, key);
  expect(heard.status).toBe(200);
  const digits = /^Your verification code is (\d), (\d), (\d), (\d), (\d), (\d)\. It expires in 10 minutes\.$/.exec(heard.body.data.speech);
  if (!digits) throw new Error(`the call said no code: ${heard.body.data.speech}`);
  return digits.slice(1).join('');
}

test('the sandbox shows what the called number heard, and the code heard verifies the caller ID, free of charge', async () => {
  const { key } = await platform.workspace();
  const number = freshNumber();
  const callerId = await calledCallerId(key, number);
  const heard = await verificationCall(callerId.id, key);
  expect(heard.body.data).toEqual({ from: '+15005550006', to: number, speech: expect.stringContaining('Your verification code is'), answered_at: expect.stringMatching(iso) });
  const code = await codeHeardBy(callerId.id, key);
  const verified = await platform.api.post(`/caller-ids/${callerId.id}/verify`, key, { code });
  expect(verified.status).toBe(200);
  expect(verified.body.data).toMatchObject({ id: callerId.id, method: 'call', status: 'verified' });
  expect((await platform.api.get('/balance', key)).body.data.credits).toBe('0.0000');
});

test('wrong codes use the attempts an SMS code has; the last fails the caller ID; a new POST calls again with a new code', async () => {
  const { key } = await platform.workspace();
  const number = freshNumber();
  const first = await calledCallerId(key, number);
  const code = await codeHeardBy(first.id, key);
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  for (const left of [4, 3, 2, 1, 0]) {
    const refused = await platform.api.post(`/caller-ids/${first.id}/verify`, key, { code: wrong });
    expectError(refused, 400, 'invalid_request');
    expect(refused.body.error.details).toEqual([{ field: 'code', issue: expect.stringContaining(left > 0 ? `${left} attempt` : 'no attempts left') }]);
  }
  expect((await platform.api.get(`/caller-ids/${first.id}`, key)).body.data).toMatchObject({ status: 'failed', attempts_remaining: 0 });
  expectError(await platform.api.post(`/caller-ids/${first.id}/verify`, key, { code }), 409, 'conflict');

  const again = await calledCallerId(key, number);
  const newCode = await codeHeardBy(again.id, key);
  expectError(await verificationCall(first.id, key), 404, 'not_found');
  expect((await platform.api.post(`/caller-ids/${again.id}/verify`, key, { code: newCode })).body.data.status).toBe('verified');
});

test('nothing to show: a number that is busy heard nothing, an SMS caller ID had no call, another workspace’s is not found; the code needs phone_numbers:write', async () => {
  const { id: workspaceId, key } = await platform.workspace();
  const busy = await calledCallerId(key, '+15005550006');
  expectError(await verificationCall(busy.id, key), 404, 'not_found');

  await platform.fund(workspaceId, '1');
  const texted = await platform.api.post('/caller-ids', key, { phone_number: freshNumber(), method: 'sms' });
  expect(texted.status).toBe(201);
  expectError(await verificationCall(texted.body.data.id, key), 404, 'not_found');

  const called = await calledCallerId(key);
  const other = await platform.workspace();
  expectError(await verificationCall(called.id, other.key), 404, 'not_found');
  expectError(await verificationCall('not-a-uuid', key), 404, 'not_found');
  const reader = await platform.key(workspaceId, ['phone_numbers:read']);
  expectError(await verificationCall(called.id, reader), 403, 'forbidden');
  expect((await verificationCall(called.id, key)).status).toBe(200);
});

test('a number the sandbox refuses to dial is 403 destination_forbidden and leaves no caller ID', async () => {
  const { key } = await platform.workspace();
  expectError(await platform.api.post('/caller-ids', key, { phone_number: '+15005550004', method: 'call' }), 403, 'destination_forbidden');
  expect((await platform.api.get('/caller-ids', key)).body.meta.pagination.total).toBe(0);
});
