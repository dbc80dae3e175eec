// Calls followed to their end through the gateway, with the sandbox carrier and the sandbox voice
// runtime: each end state by the sandbox's magic destinations, a scripted conversation (transcript,
// events with internal ones filtered out, a tool the assistant calls through the tools service,
// analysis, recording), and the charge: included minutes first, then credits, exactly once, also
// when billing is down as the call ends.
import { expectError } from './support/api-client.js';
import { startHttpApi, type Loopback } from './support/loopback.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { availableCreditsReach, balance, buySmsNumber, eventually, ledger } from './support/telephony.js';

let platform: TestPlatform;
let orders: Loopback;

beforeAll(async () => {
  // The assistant's tool calls a server on loopback; numbers are free so balances move only by calls.
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0', VOICE_EGRESS_ALLOW_PRIVATE: 'true' });
  orders = await startHttpApi();
});
afterAll(async () => {
  await Promise.all([platform.close(), orders.close()]);
});

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// The sandbox carrier's magic destinations; any other number answers.
const busy = '+15005550006';
const noAnswer = '+15005550007';
const unreachable = '+15005550008';
const answers = '+14155550123';

async function ready(options: { credits?: string; minutes?: string; toolIds?: string[] } = {}) {
  const workspace = await platform.workspace({ plan: 'pro' });
  await platform.fund(workspace.id, options.credits ?? '5.0000', options.minutes ?? '0');
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, {
    name: 'Caller',
    first_message: 'Hello {{name}}, this is Acme.',
    tool_ids: options.toolIds ?? [],
    end_call: { max_duration_seconds: 300 },
  });
  expect(assistant.status).toBe(201);
  return { ...workspace, number, assistantId: assistant.body.data.id as string };
}

/** The call once it has ended and its charge is known (calls.calls.ended is published then). */
const settled = (key: string, id: string) =>
  eventually(
    async () => {
      const read = await platform.api.get(`/calls/${id}`, key);
      const call = read.body.data;
      return call.ended_at !== null && (call.duration_seconds === 0 || call.minutes_charged !== '0.000' || call.credits_charged !== '0.0000') ? call : undefined;
    },
    30_000,
    'the call to end and be charged',
  );

describe('end states', () => {
  test.each([
    ['busy', busy, 'busy'],
    ['no_answer', noAnswer, 'no_answer'],
    ['failed', unreachable, 'failed'],
  ])('a %s destination ends the call unanswered, charges nothing and gives the hold back', async (status, to, endReason) => {
    const { key, number, assistantId } = await ready({ credits: '1.0000' });
    const placed = await platform.api.post('/calls', key, { assistant_id: assistantId, from: number.number, to });
    expect(placed.status).toBe(201);
    const call = await settled(key, placed.body.data.id);
    expect(call).toMatchObject({ status, end_reason: endReason, duration_seconds: 0, answered_at: null, minutes_charged: '0.000', credits_charged: '0.0000', transcript: [] });
    expect(call.events.map((event: { type: string }) => event.type)).toEqual(expect.arrayContaining(['call.ended']));
    expect(call.events.map((event: { type: string }) => event.type)).not.toContain('call.answered');
    await availableCreditsReach(platform.api, key, '1.0000');
    expect((await ledger(platform.api, key)).filter((entry) => entry.kind === 'call.minutes')).toEqual([]);
  });
});

describe('a conversation', () => {
  test('the runtime plays the script: transcript, public events only, the tool’s answer, analysis, recording; then it is charged once', async () => {
    const workspace = await platform.workspace({ plan: 'pro' });
    await platform.fund(workspace.id, '5.0000');
    const created = await platform.api.post('/tools', workspace.key, {
      name: 'lookup_order',
      description: 'Finds an order by its number',
      type: 'api',
      config: {
        method: 'POST',
        url: `${orders.url}/orders/{order_id}`,
        parameters: [{ name: 'order_id', type: 'string', required: true, location: 'path', description: 'the order number' }],
        response_mapping: { status: 'data.status' },
      },
    });
    expect(created.status).toBe(201);
    const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
    const assistant = await platform.api.post('/assistants', workspace.key, {
      name: 'Orders',
      first_message: 'Hello {{name}}, this is Acme.',
      tool_ids: [created.body.data.id],
    });
    expect(assistant.status).toBe(201);
    const script = [
      { say: 'Where is my order A-17?' },
      { tool: { name: 'lookup_order', arguments: { order_id: 'A-17' } } },
      { event: { type: 'component.fallback', data: { component: 'tts' } } },
      { event: { type: 'dtmf.received', data: { digits: '1' } } },
      { analysis: { summary: 'The caller asked about order A-17.', verdict: 'successful', extracted_fields: { order_id: 'A-17' } } },
      { hangup: 'caller' },
    ];
    const placed = await platform.api.post('/calls', workspace.key, {
      assistant_id: assistant.body.data.id,
      from: number.number,
      to: answers,
      variables: { name: 'Ada' },
      metadata: { sandbox_script: script },
    });
    expect(placed.status).toBe(201);
    const call = await settled(workspace.key, placed.body.data.id);
    expect(call).toMatchObject({
      status: 'completed',
      end_reason: 'caller_hung_up',
      summary: 'The caller asked about order A-17.',
      analysis: { verdict: 'successful', extracted_fields: { order_id: 'A-17' } },
      has_recording: true,
      minutes_charged: '0.000',
    });
    expect(call.answered_at).toMatch(iso);
    expect(call.duration_seconds).toBeGreaterThanOrEqual(1);
    const turns = call.transcript.map((turn: { role: string; text: string }) => [turn.role, turn.text]);
    expect(turns[0]).toEqual(['assistant', 'Hello Ada, this is Acme.']);
    expect(turns[1]).toEqual(['user', 'Where is my order A-17?']);
    expect(turns[2]![1]).toContain('shipped');
    const types = call.events.map((event: { type: string }) => event.type);
    expect(types).toEqual(expect.arrayContaining(['call.ringing', 'call.answered', 'tool.completed', 'dtmf.received', 'call.ended']));
    // Internal events are stored, never shown.
    expect(types).not.toContain('component.fallback');
    expect(JSON.stringify({ ...call, metadata: null })).not.toMatch(/component\.fallback|session_token|leg_id|hold_id/);
    // The tool ran through the tools service against the order API.
    expect(orders.received.some((request) => request.url === '/orders/A-17')).toBe(true);

    // Billed per started minute at 0.1000 credits: one debit, once.
    const minutes = Math.ceil(call.duration_seconds / 60);
    const price = (minutes * 0.1).toFixed(4);
    expect(call.credits_charged).toBe(price);
    const debits = (await ledger(platform.api, workspace.key)).filter((entry) => entry.kind === 'call.minutes');
    expect(debits).toEqual([expect.objectContaining({ credits: `-${price}`, reference: call.id })]);
    expect(await balance(platform.api, workspace.key)).toEqual({
      credits: (5 - minutes * 0.1).toFixed(4),
      minutes: '0.000',
      available: { credits: (5 - minutes * 0.1).toFixed(4), minutes: '0.000' },
    });
    // The recording goes for good; a second removal finds none, and another workspace none at all.
    const stranger = await platform.workspace();
    expectError(await platform.api.delete(`/calls/${call.id}/recording`, stranger.key), 404, 'not_found');
    const reader = await platform.key(workspace.id, ['calls:read']);
    expectError(await platform.api.delete(`/calls/${call.id}/recording`, reader), 403, 'forbidden');
    const removed = await platform.api.delete(`/calls/${call.id}/recording`, workspace.key);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ data: { id: call.id, deleted: true } });
    expect((await platform.api.get(`/calls/${call.id}`, workspace.key)).body.data.has_recording).toBe(false);
    expectError(await platform.api.delete(`/calls/${call.id}/recording`, workspace.key), 404, 'not_found');
  });

  test('included minutes are used before credits, and the call is charged exactly once', async () => {
    // Half an included minute: a call billed one started minute takes it, and half a minute in credits.
    const { key, number, assistantId } = await ready({ credits: '1.0000', minutes: '0.500' });
    const placed = await platform.api.post('/calls', key, { assistant_id: assistantId, from: number.number, to: answers, metadata: { sandbox_script: [{ hangup: 'assistant' }] } });
    expect(placed.status).toBe(201);
    const call = await settled(key, placed.body.data.id);
    expect(call).toMatchObject({ status: 'completed', end_reason: 'assistant_ended', duration_seconds: 1, minutes_charged: '0.500', credits_charged: '0.0500' });
    expect((await ledger(platform.api, key)).filter((entry) => entry.kind === 'call.minutes')).toEqual([
      expect.objectContaining({ credits: '-0.0500', reference: call.id }),
    ]);
    expect(await balance(platform.api, key)).toEqual({ credits: '0.9500', minutes: '0.000', available: { credits: '0.9500', minutes: '0.000' } });
    // GET /usage/summary shows the call: its included minutes and its credits under its kind.
    const summary = (await platform.api.get('/usage/summary', key)).body.data;
    expect(summary).toMatchObject({ credits: '0.0500', minutes: '0.500', by_kind: [{ kind: 'call.minutes', count: 1, credits: '0.0500', minutes: '0.500' }] });
    const listed = await platform.api.get('/calls?status=completed', key);
    expect(listed.body.data.map((item: { id: string }) => item.id)).toEqual([call.id]);
    expectError(await platform.api.get(`/calls/${call.id}`, (await platform.workspace()).key), 404, 'not_found');
  });

  test('a call that ends while billing is down is charged once billing is back, exactly once', async () => {
    const { key, number, assistantId } = await ready({ credits: '1.0000' });
    const placed = await platform.api.post('/calls', key, {
      assistant_id: assistantId,
      from: number.number,
      to: answers,
      metadata: { sandbox_script: [{ pause_ms: 3_000 }, { hangup: 'assistant' }] },
    });
    expect(placed.status).toBe(201);
    const id = placed.body.data.id as string;
    await platform.running.stopService('billing');
    try {
      const ended = await eventually(
        async () => {
          const call = (await platform.api.get(`/calls/${id}`, key)).body.data;
          return call.ended_at !== null ? call : undefined;
        },
        30_000,
        'the call to end while billing is down',
      );
      // Ended, but not charged yet: billing takes the usage event when it is back.
      expect(ended).toMatchObject({ status: 'completed', credits_charged: '0.0000', minutes_charged: '0.000' });
    } finally {
      await platform.running.startService('billing');
    }
    const call = await settled(key, id);
    expect(call).toMatchObject({ status: 'completed', credits_charged: '0.1000' });
    expect((await ledger(platform.api, key)).filter((entry) => entry.kind === 'call.minutes')).toEqual([expect.objectContaining({ credits: '-0.1000', reference: id })]);
    expect(await balance(platform.api, key)).toEqual({ credits: '0.9000', minutes: '0.000', available: { credits: '0.9000', minutes: '0.000' } });
  });
});
