// A simulated caller calls a workspace number on the sandbox (POST /sandbox/inbound-calls), through
// the gateway: the call is handed to the number's assistant as a carrier's inbound call is, the
// sandbox carrier answers it and streams it to the sandbox voice runtime (which plays the caller's
// script from the call's metadata), and it ends and is charged once like any call. What a real caller could not reach is refused with the API's errors, and a
// number carried by a real carrier (a Twilio-compatible server on loopback) takes no simulated call.
import { expectError, fieldsOf } from './support/api-client.js';
import { importedNumber, startFakeTwilio, type FakeTwilio } from './support/fake-twilio.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { buySmsNumber, eventually, ledger } from './support/telephony.js';

let platform: TestPlatform;
let carrier: FakeTwilio;

beforeAll(async () => {
  carrier = await startFakeTwilio();
  // Numbers are free, so balances move only by calls; the fake carrier is on loopback.
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0', VOICE_EGRESS_ALLOW_PRIVATE: 'true' });
});
afterAll(async () => {
  await platform.close();
  await carrier.close();
});

const caller = '+12025550188';

/** A workspace with credits, a sandbox number, and an assistant the number is given to unless `assign` is false. */
async function ready(options: { credits?: string; assign?: boolean } = {}) {
  const workspace = await platform.workspace({ plan: 'pro' });
  if (options.credits !== '0') await platform.fund(workspace.id, options.credits ?? '5.0000');
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Front desk', first_message: 'Acme, how can I help?', end_call: { max_duration_seconds: 300 } });
  expect(assistant.status).toBe(201);
  if (options.assign !== false) {
    const assigned = await platform.api.patch(`/phone-numbers/${number.id}`, workspace.key, { assistant_id: assistant.body.data.id });
    expect(assigned.status).toBe(200);
  }
  return { ...workspace, number, assistantId: assistant.body.data.id as string };
}

const settled = (key: string, id: string) =>
  eventually(
    async () => {
      const call = (await platform.api.get(`/calls/${id}`, key)).body.data;
      return call.ended_at !== null && call.credits_charged !== '0.0000' ? call : undefined;
    },
    30_000,
    'the call to end and be charged',
  );

const callCount = async (key: string) => (await platform.api.get('/calls', key)).body.meta.pagination.total as number;

test('the number’s assistant takes the call: it is answered, plays the runtime’s default script, ends and is charged once', async () => {
  const { key, number, assistantId } = await ready();
  const rung = await platform.api.post('/sandbox/inbound-calls', key, { to: number.number, from: caller });
  expect(rung.status).toBe(201);
  expect(rung.body.data).toMatchObject({ direction: 'inbound', from: caller, to: number.number, assistant_id: assistantId });
  expect(['ringing', 'in_progress', 'completed']).toContain(rung.body.data.status);

  const call = await settled(key, rung.body.data.id);
  expect(call).toMatchObject({ id: rung.body.data.id, direction: 'inbound', status: 'completed', end_reason: 'assistant_ended', has_recording: true });
  expect(call.transcript[0]).toMatchObject({ role: 'assistant', text: 'Acme, how can I help?' });
  expect(call.transcript.map((turn: { role: string }) => turn.role)).toContain('user');
  expect(call.events.map((event: { type: string }) => event.type)).toEqual(expect.arrayContaining(['call.answered', 'call.ended']));
  const debits = (await ledger(platform.api, key)).filter((entry) => entry.kind === 'call.minutes');
  expect(debits).toEqual([expect.objectContaining({ credits: `-${call.credits_charged}`, reference: call.id })]);
  const inbound = await platform.api.get('/calls?direction=inbound', key);
  expect(inbound.body.data.map((item: { id: string }) => item.id)).toEqual([call.id]);
});

test('the caller’s script in metadata is played: what the caller says, then the caller hangs up; the metadata stays with the call', async () => {
  const { key, number } = await ready();
  const metadata = { sandbox_script: [{ say: 'I need to move my appointment.' }, { reply: 'Of course, to when?' }, { hangup: 'caller' }], ticket: 'T-7' };
  const rung = await platform.api.post('/sandbox/inbound-calls', key, { to: number.number, from: caller, metadata });
  expect(rung.status).toBe(201);
  expect(rung.body.data.metadata).toEqual(metadata);
  const call = await settled(key, rung.body.data.id);
  expect(call).toMatchObject({ status: 'completed', end_reason: 'caller_hung_up', metadata });
  expect(call.transcript.map((turn: { role: string; text: string }) => [turn.role, turn.text])).toEqual([
    ['assistant', 'Acme, how can I help?'],
    ['user', 'I need to move my appointment.'],
    ['assistant', 'Of course, to when?'],
  ]);
});

test('concurrent callers to one number are each a call of their own', async () => {
  const { key, number } = await ready();
  const rung = await Promise.all(['+12025550191', '+12025550192', '+12025550193'].map((from) => platform.api.post('/sandbox/inbound-calls', key, { to: number.number, from })));
  expect(rung.map((response) => response.status)).toEqual([201, 201, 201]);
  const ids = new Set(rung.map((response) => response.body.data.id));
  expect(ids.size).toBe(3);
  for (const id of ids) expect((await settled(key, id)).status).toBe('completed');
});

test('bad bodies are 400 naming the field; an unknown or another workspace’s number is 404; nothing rings', async () => {
  const { key, number } = await ready();
  const cases: [Record<string, unknown>, string][] = [
    [{ from: caller }, 'to'],
    [{ to: number.number }, 'from'],
    [{ to: number.number, from: '2025550188' }, 'from'],
    [{ to: number.number, from: caller, script: [] }, 'script'],
    [{ to: number.number, from: caller, metadata: 'play this' }, 'metadata'],
    [{ to: number.number, from: caller, metadata: { blob: 'x'.repeat(20_000) } }, 'metadata'],
  ];
  for (const [body, field] of cases) {
    const response = await platform.api.post('/sandbox/inbound-calls', key, body);
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toContain(field);
  }
  expectError(await platform.api.post('/sandbox/inbound-calls', key, { to: '+14155550999', from: caller }), 404, 'not_found');
  const other = await ready();
  expectError(await platform.api.post('/sandbox/inbound-calls', other.key, { to: number.number, from: caller }), 404, 'not_found');
  expect(await callCount(key)).toBe(0);
  expect(await callCount(other.key)).toBe(0);
});

test('what would turn a real caller away is refused: no assistant (409 configuration), no funds (409 conflict); calls:write is needed', async () => {
  const unassigned = await ready({ assign: false });
  const refused = await platform.api.post('/sandbox/inbound-calls', unassigned.key, { to: unassigned.number.number, from: caller });
  expectError(refused, 409, 'telephony_configuration_error');
  expect(refused.body.error.message).toContain('no assistant');

  const broke = await ready({ credits: '0' });
  const unpaid = await platform.api.post('/sandbox/inbound-calls', broke.key, { to: broke.number.number, from: caller });
  expectError(unpaid, 409, 'conflict');
  expect(unpaid.body.error.message).toContain('not enough funds');
  expect(await callCount(broke.key)).toBe(0);

  const reader = await platform.key(broke.id, ['calls:read']);
  expectError(await platform.api.post('/sandbox/inbound-calls', reader, { to: broke.number.number, from: caller }), 403, 'forbidden');
});

test('a number carried by a real carrier takes no simulated call', async () => {
  const { key, assistantId } = await ready();
  const imported = await importedNumber(platform.api, key, carrier, '+14155550186');
  expect((await platform.api.patch(`/phone-numbers/${imported.id}`, key, { assistant_id: assistantId })).status).toBe(200);
  const refused = await platform.api.post('/sandbox/inbound-calls', key, { to: '+14155550186', from: caller });
  expectError(refused, 409, 'telephony_configuration_error');
  expect(refused.body.error.message).toContain('not carried by the sandbox');
  expect(await callCount(key)).toBe(0);
});
