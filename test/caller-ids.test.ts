// Caller IDs through the gateway, with a Twilio-compatible server on loopback as the platform's
// carrier (it receives the code's SMS or the call that says it, as a phone would): a code sent and
// charged like any SMS, or said in a free call, verified once, wrong codes counted (racing ones too)
// until the caller ID fails, expiry seen by a telephony replica whose clock runs 11 minutes ahead.
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { CallerIdService } from '@voice/proto/voice/telephony/v1/caller_ids';
import { callHeaders } from '@voice/runtime/caller';
import { createLogger } from '@voice/runtime/logger';
import type { StartedService } from '@voice/runtime/server';
import { startTelephonyService } from '@voice/telephony';
import { expectError, fieldsOf } from './support/api-client.js';
import { importedSmsNumber, platformCarrierEnv, startFakeTwilio, type FakeTwilio } from './support/fake-twilio.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { balance, ledgerWith } from './support/telephony.js';

let platform: TestPlatform;
let carrier: FakeTwilio;
const codesSent: string[] = [];

beforeAll(async () => {
  carrier = await startFakeTwilio();
  platform = await startTestPlatform({
    ...platformCarrierEnv(carrier),
    VOICE_CALLER_ID_SMS_FROM: '+14155550100',
    VOICE_CALLER_ID_CALL_FROM: '+14155550101',
    LOG_LEVEL: 'info',
  });
});
afterAll(async () => {
  expect(codesSent.length).toBeGreaterThan(0);
  expect(platform.logs().length).toBeGreaterThan(0);
  for (const code of codesSent) {
    const spoken = [...code].join(', ');
    expect(platform.api.transcript.filter((text) => text.includes(`"${code}"`) || text.includes(`code is ${code}`) || text.includes(spoken))).toEqual([]);
    expect(platform.logs().filter((line) => line.includes(`code is ${code}`) || line.includes(`"${code}"`) || line.includes(spoken))).toEqual([]);
  }
  await platform.close();
  await carrier.close();
});

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let numberSequence = 0;
/** A US number no other test of this file uses (the sandbox's magic numbers left alone). */
const freshNumber = () => `+1212555${String(1000 + (numberSequence += 1)).padStart(4, '0')}`;

async function fundedWorkspace(credits = '5') {
  const workspace = await platform.workspace();
  await platform.fund(workspace.id, credits);
  return workspace;
}

/** The code the carrier was asked to text to `number` last. */
function codeTextedTo(number: string): string {
  const texts = carrier.sentMessages().filter((form) => form.To === number);
  const text = texts.at(-1);
  if (!text) throw new Error(`no SMS was sent to ${number}`);
  const code = /code is (\d{6})\./.exec(text.Body ?? '')?.[1];
  if (!code) throw new Error(`the SMS to ${number} carries no code: ${text.Body}`);
  codesSent.push(code);
  return code;
}

/** The code the carrier was asked to say to `number` last, read from the call's TwiML. */
function codeSaidTo(number: string): string {
  const call = carrier.placedCalls().filter((placed) => placed.form.To === number).at(-1);
  if (!call) throw new Error(`no call was made to ${number}`);
  const digits = /<Say loop="2">Your verification code is (\d), (\d), (\d), (\d), (\d), (\d)\./.exec(call.form.Twiml ?? '');
  if (!digits) throw new Error(`the call to ${number} says no code: ${call.form.Twiml}`);
  const code = digits.slice(1).join('');
  codesSent.push(code);
  return code;
}

const codeSentTo = (number: string, method: 'sms' | 'call') => (method === 'sms' ? codeTextedTo(number) : codeSaidTo(number));

const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function pendingCallerId(key: string, number = freshNumber(), method: 'sms' | 'call' = 'sms') {
  const created = await platform.api.post('/caller-ids', key, { phone_number: number, label: 'Office line', method });
  expect(created.status).toBe(201);
  return { callerId: created.body.data as { id: string; phone_number: string }, code: codeSentTo(number, method) };
}

test('a caller ID is created pending, its code texted from the platform’s sender and charged like an SMS, and the code verifies it', async () => {
  const { id: workspaceId, key } = await fundedWorkspace();
  const number = freshNumber();
  const created = await platform.api.post('/caller-ids', key, { phone_number: number, label: 'Office line' });
  expect(created.status).toBe(201);
  expect(created.body.data).toEqual({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    phone_number: number,
    label: 'Office line',
    method: 'sms',
    status: 'pending',
    attempts_remaining: 5,
    code_expires_at: expect.stringMatching(iso),
    verified_at: null,
    created_at: expect.stringMatching(iso),
    updated_at: expect.stringMatching(iso),
  });
  const id = created.body.data.id;
  expect(Date.parse(created.body.data.code_expires_at) - Date.parse(created.body.data.created_at)).toBe(10 * 60_000);
  const text = carrier.sentMessages().find((form) => form.To === number)!;
  expect(text.From).toBe('+14155550100');
  const code = codeTextedTo(number);

  const [entry] = await ledgerWith(platform.api, key, 'sms.outbound', 1);
  expect(entry).toMatchObject({ credits: '-0.0179', reference: id });
  expect((await balance(platform.api, key)).available.credits).toBe('4.9821');

  const verified = await platform.api.post(`/caller-ids/${id}/verify`, key, { code });
  expect(verified.status).toBe(200);
  expect(verified.body.data).toMatchObject({ id, status: 'verified', attempts_remaining: 0, code_expires_at: null, verified_at: expect.stringMatching(iso) });
  expect((await platform.api.get(`/caller-ids/${id}`, key)).body.data).toEqual(verified.body.data);
  const listed = await platform.api.get('/caller-ids', key);
  expect(listed.body).toEqual({ data: [verified.body.data], meta: { pagination: { limit: 50, offset: 0, total: 1 } } });
  expectError(await platform.api.post(`/caller-ids/${id}/verify`, key, { code }), 409, 'conflict');
  expect(workspaceId).toBeDefined();
});

test('method call: the platform’s carrier says the code in a call from its caller, for free, and the code verifies', async () => {
  const { key } = await fundedWorkspace();
  const number = freshNumber();
  const created = await platform.api.post('/caller-ids', key, { phone_number: number, method: 'call' });
  expect(created.status).toBe(201);
  expect(created.body.data).toMatchObject({ phone_number: number, label: '', method: 'call', status: 'pending', attempts_remaining: 5 });
  const call = carrier.placedCalls().find((placed) => placed.form.To === number)!;
  expect(call.form).toMatchObject({ From: '+14155550101', TimeLimit: '120' });
  expect(call.form.Url).toBeUndefined();
  expect(carrier.sentMessages().filter((form) => form.To === number)).toEqual([]);
  const code = codeSaidTo(number);
  expect((await balance(platform.api, key)).available.credits).toBe('5.0000');

  const verified = await platform.api.post(`/caller-ids/${created.body.data.id}/verify`, key, { code });
  expect(verified.status).toBe(200);
  expect(verified.body.data).toMatchObject({ method: 'call', status: 'verified' });
  expectError(await platform.api.get(`/sandbox/caller-ids/${created.body.data.id}/verification-call`, key), 404, 'not_found');
});

test('a call through a carrier that is failing is 503 and leaves no caller ID', async () => {
  const { key } = await fundedWorkspace();
  const refusing = freshNumber();
  carrier.mode = 'server_error';
  try {
    expectError(await platform.api.post('/caller-ids', key, { phone_number: refusing, method: 'call' }), 503, 'telephony_unavailable');
  } finally {
    carrier.mode = 'ok';
  }
  expect((await platform.api.get('/caller-ids', key)).body.meta.pagination.total).toBe(0);
});

test('bad bodies are 400s naming the field; nothing is sent', async () => {
  const { key } = await fundedWorkspace();
  const before = carrier.sentMessages().length;
  const cases: [Record<string, unknown>, string][] = [
    [{ phone_number: '12125550100' }, 'phone_number'],
    [{ phone_number: '+1212' }, 'phone_number'],
    [{ phone_number: freshNumber(), method: 'fax' }, 'method'],
    [{ phone_number: freshNumber(), method: 'CALL' }, 'method'],
    [{ phone_number: freshNumber(), label: 'x'.repeat(101) }, 'label'],
    [{ phone_number: freshNumber(), extra: true }, 'extra'],
    [{}, 'phone_number'],
  ];
  for (const [body, field] of cases) {
    const response = await platform.api.post('/caller-ids', key, body);
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toContain(field);
  }
  const { callerId } = await pendingCallerId(key);
  for (const code of ['12345', 'abcdef', '1234567', 123456]) {
    const response = await platform.api.post(`/caller-ids/${callerId.id}/verify`, key, { code });
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toEqual(['code']);
  }
  const extra = await platform.api.post(`/caller-ids/${callerId.id}/verify`, key, { code: '123456', method: 'sms' });
  expectError(extra, 400, 'invalid_request');
  expect(fieldsOf(extra)).toEqual(['method']);
  expect((await platform.api.get(`/caller-ids/${callerId.id}`, key)).body.data.attempts_remaining).toBe(5);
  expect(carrier.sentMessages().length).toBe(before + 1);
});

test.each(['sms', 'call'] as const)('%s: wrong codes use attempts; the fifth fails the caller ID, and a new POST sends a new code that works', async (method) => {
  const { key } = await fundedWorkspace();
  const number = freshNumber();
  const { callerId, code } = await pendingCallerId(key, number, method);
  for (let left = 4; left >= 0; left--) {
    const wrong = await platform.api.post(`/caller-ids/${callerId.id}/verify`, key, { code: wrongCodeFor(code) });
    expectError(wrong, 400, 'invalid_request');
    expect(wrong.body.error.details).toEqual([{ field: 'code', issue: expect.stringContaining(left > 0 ? `${left} attempt` : 'no attempts left') }]);
  }
  expect((await platform.api.get(`/caller-ids/${callerId.id}`, key)).body.data).toMatchObject({ status: 'failed', attempts_remaining: 0, code_expires_at: null });
  expectError(await platform.api.post(`/caller-ids/${callerId.id}/verify`, key, { code }), 409, 'conflict');

  const again = await pendingCallerId(key, number, method);
  expect(again.callerId.id).not.toBe(callerId.id);
  expect(again.code).toMatch(/^\d{6}$/);
  expectError(await platform.api.get(`/caller-ids/${callerId.id}`, key), 404, 'not_found');
  expect((await platform.api.post(`/caller-ids/${again.callerId.id}/verify`, key, { code: again.code })).body.data.status).toBe('verified');
});

test('racing checks: of two right codes one verifies; five racing wrong codes each use one attempt', async () => {
  const { key } = await fundedWorkspace();
  const first = await pendingCallerId(key);
  const right = await Promise.all([1, 2].map(() => platform.api.post(`/caller-ids/${first.callerId.id}/verify`, key, { code: first.code })));
  expect(right.map((response) => response.status).sort()).toEqual([200, 409]);

  const second = await pendingCallerId(key);
  const wrong = await Promise.all([1, 2, 3, 4, 5].map(() => platform.api.post(`/caller-ids/${second.callerId.id}/verify`, key, { code: wrongCodeFor(second.code) })));
  expect(wrong.map((response) => response.status)).toEqual([400, 400, 400, 400, 400]);
  expect((await platform.api.get(`/caller-ids/${second.callerId.id}`, key)).body.data.status).toBe('failed');
});

test('the same number twice is 409, as is a number on this platform; a wallet that cannot pay the SMS is 409 and nothing is sent', async () => {
  const { key } = await fundedWorkspace();
  const { callerId } = await pendingCallerId(key);
  expectError(await platform.api.post('/caller-ids', key, { phone_number: callerId.phone_number }), 409, 'conflict');

  const owned = '+14155550177';
  await importedSmsNumber(platform.api, key, carrier, owned);
  const refused = await platform.api.post('/caller-ids', key, { phone_number: owned });
  expectError(refused, 409, 'conflict');
  expect(refused.body.error.message).toContain('phone number on this platform');

  const broke = await platform.workspace();
  const unpaid = freshNumber();
  const poor = await platform.api.post('/caller-ids', broke.key, { phone_number: unpaid });
  expectError(poor, 409, 'conflict');
  expect(poor.body.error.message).toContain('not enough credits');
  expect(carrier.sentMessages().filter((form) => form.To === unpaid)).toEqual([]);
  expect((await platform.api.get('/caller-ids', broke.key)).body.meta.pagination.total).toBe(0);
});

test('scopes: phone_numbers:read reads, phone_numbers:write writes; another workspace’s caller IDs are not found', async () => {
  const { id: workspaceId, key } = await fundedWorkspace();
  const { callerId, code } = await pendingCallerId(key);
  const reader = await platform.key(workspaceId, ['phone_numbers:read']);
  const trunks = await platform.key(workspaceId, ['sip_trunks:write']);
  expect((await platform.api.get(`/caller-ids/${callerId.id}`, reader)).status).toBe(200);
  expectError(await platform.api.post('/caller-ids', reader, { phone_number: freshNumber() }), 403, 'forbidden');
  expectError(await platform.api.post(`/caller-ids/${callerId.id}/verify`, reader, { code }), 403, 'forbidden');
  expectError(await platform.api.delete(`/caller-ids/${callerId.id}`, reader), 403, 'forbidden');
  expectError(await platform.api.get('/caller-ids', trunks), 403, 'forbidden');

  const other = await fundedWorkspace();
  for (const id of [callerId.id, 'not-a-uuid']) {
    expectError(await platform.api.get(`/caller-ids/${id}`, other.key), 404, 'not_found');
    expectError(await platform.api.post(`/caller-ids/${id}/verify`, other.key, { code }), 404, 'not_found');
    expectError(await platform.api.delete(`/caller-ids/${id}`, other.key), 404, 'not_found');
  }
  expect((await platform.api.get(`/caller-ids/${callerId.id}`, key)).body.data).toMatchObject({ status: 'pending', attempts_remaining: 5 });
  expect((await platform.api.delete(`/caller-ids/${callerId.id}`, key)).body).toEqual({ data: { id: callerId.id, deleted: true } });
  expectError(await platform.api.get(`/caller-ids/${callerId.id}`, key), 404, 'not_found');
});

describe('with the clock 11 minutes ahead (a telephony replica over the platform’s storage)', () => {
  let replica: StartedService;
  beforeAll(async () => {
    replica = await startTelephonyService(
      { ...platform.env, LOG_LEVEL: 'silent', VOICE_TELEPHONY_PORT: '0', VOICE_BILLING_URL: platform.running.services.billing },
      { clock: () => new Date(Date.now() + 11 * 60_000), logger: createLogger({ service: 'telephony-later', level: 'silent' }) },
    );
  });
  afterAll(() => replica.close());

  const callerIdsAt = (url: string) => createClient(CallerIdService, createConnectTransport({ baseUrl: url, httpVersion: '2' }));
  const as = (workspaceId: string) => ({
    headers: callHeaders(platform.signer, { workspaceId, principal: { type: 'service_account', id: 'e2e', name: 'e2e' }, scopes: null, requestId: 'e2e-caller-ids' }),
  });

  test('an expired code is refused with 409 and changes nothing; a new POST replaces the expired caller ID', async () => {
    const { id: workspaceId, key } = await fundedWorkspace();
    const { callerId, code } = await pendingCallerId(key);
    const later = callerIdsAt(replica.server.url);
    await expect(later.verifyCallerId({ id: callerId.id, code }, as(workspaceId))).rejects.toMatchObject({ message: expect.stringContaining('the code expired') });
    expect((await platform.api.get(`/caller-ids/${callerId.id}`, key)).body.data).toMatchObject({ status: 'pending', attempts_remaining: 5 });
    const replaced = await later.createCallerId({ phoneNumber: callerId.phone_number, label: '', method: 'sms' }, as(workspaceId));
    expect(replaced.callerId!.id).not.toBe(callerId.id);
    codeTextedTo(callerId.phone_number);
    expectError(await platform.api.get(`/caller-ids/${callerId.id}`, key), 404, 'not_found');
  });
});
