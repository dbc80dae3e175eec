// Tier 2: the voice runtime's CallSessionService over an in-memory transport (session tokens, reports
// once by sequence, tools, recordings, analysis, the end), and the use cases behind the streams the
// service follows: a leg's reports move the call once and in order, and billing's wallet change
// records what the call was charged, once.
import { randomBytes } from 'node:crypto';
import { create, fromBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code } from '@connectrpc/connect';
import { newId } from '@voice/runtime/ids';
import { CallSessionService, type UploadRecordingRequestSchema } from '@voice/proto/voice/calls/v1/call_sessions';
import { CallChangedSchema } from '@voice/proto/voice/calls/v1/events';
import { UsageEventSchema, WalletChangedSchema } from '@voice/proto/voice/billing/v1/events';
import { CallStatus } from '@voice/proto/voice/calls/v1/calls';
import { recordCharge } from '../src/billing/charges.js';
import { presentCall } from '../src/presenter.js';
import { applyLegReport } from '../src/legs/leg-reports.js';
import type { LegReport } from '../src/domain/leg-transition.js';
import { failure, setup, type Harness } from './harness.js';
import { callRecord } from './store.contract.js';

let h: Harness<typeof CallSessionService>;
beforeAll(async () => {
  h = await setup(CallSessionService);
});
afterAll(async () => {
  await h.close();
});

const runtime = () => h.tier.internal;
const at = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();

async function placedCall(config: Record<string, unknown> = {}, variables: Record<string, string> = {}) {
  const workspaceId = newId();
  const call = callRecord(workspaceId, {
    assistantConfig: { name: 'Desk', first_message: 'Hello {{name}}, this is {{company}}', variables: [{ name: 'company', default_value: 'Acme' }], tool_ids: [], ...config },
    variables,
    metadata: { sandbox_script: [] },
    maxDurationSeconds: 120,
  });
  await h.store.createCall(call);
  return { call, session: { callId: call.id, sessionToken: h.tokens.issue(call.id) } };
}

const pendingEvents = async (subject: string) => (await h.store.outbox.pending(10_000)).filter((event) => event.subject === subject);

test('a session opens only with its own token, only for the runtime, and answers the version’s configuration', async () => {
  const { call, session } = await placedCall({}, { name: 'Ada' });
  const started = await h.tier.client.startSession({ session }, runtime());
  expect(started).toMatchObject({
    assistantId: call.assistantId,
    assistantVersion: call.assistantVersion,
    firstMessage: 'Hello Ada, this is Acme',
    variables: { name: 'Ada' },
    metadata: { sandbox_script: [] },
    maxDurationSeconds: 120,
    direction: 'outbound',
    from: call.from,
    to: call.to,
  });
  expect(started.assistantConfig).toMatchObject({ name: 'Desk' });
  const other = await placedCall();
  expect(await failure(h.tier.client.startSession({ session: { callId: call.id, sessionToken: other.session.sessionToken } }, runtime()))).toMatchObject({ code: Code.PermissionDenied });
  expect(await failure(h.tier.client.startSession({ session: { callId: call.id, sessionToken: '' } }, runtime()))).toMatchObject({ code: Code.PermissionDenied });
  expect(await failure(h.tier.client.startSession({ session }, h.tier.inWorkspace(call.workspaceId)))).toMatchObject({ code: Code.PermissionDenied });
  expect((await failure(h.tier.client.startSession({ session }))).code).toBe(Code.Unauthenticated);
});

test('events and turns are stored once by sequence; internal events are kept but never shown', async () => {
  const { call, session } = await placedCall();
  const event = (sequence: number, type: string) => ({ sequence: BigInt(sequence), type, at: timestampFromDate(new Date()), data: { n: sequence } });
  await h.tier.client.appendTranscript({ session, sequence: 1n, role: 'assistant', text: 'Hello', at: timestampFromDate(new Date()) }, runtime());
  await h.tier.client.reportEvents({ session, events: [event(2, 'speech.started'), event(3, 'component.fallback'), event(4, 'session.error')] }, runtime());
  // Retried reports change nothing.
  await h.tier.client.appendTranscript({ session, sequence: 1n, role: 'assistant', text: 'Hello again', at: timestampFromDate(new Date()) }, runtime());
  await h.tier.client.reportEvents({ session, events: [event(2, 'speech.started')] }, runtime());
  const stored = (await h.store.getCall(call.workspaceId, call.id))!;
  expect(stored.reports.map((report) => (report.kind === 'event' ? report.type : report.text))).toEqual(['Hello', 'speech.started', 'component.fallback', 'session.error']);
  const shown = presentCall(stored);
  expect(shown.events.map((shownEvent) => shownEvent.type)).toEqual(['speech.started']);
  expect(shown.transcript.map((turn) => turn.text)).toEqual(['Hello']);
  expect(await failure(h.tier.client.appendTranscript({ session, sequence: 0n, role: 'narrator', text: 'x' }, runtime()))).toMatchObject({
    code: Code.InvalidArgument,
    fields: [{ field: 'sequence' }, { field: 'role' }].map((field) => expect.objectContaining(field)),
  });
});

test("a tool call runs the assistant's tool by name and answers its result; an unknown tool fails for the model", async () => {
  const toolId = newId();
  const { call, session } = await placedCall({ tool_ids: [toolId] });
  h.tools.add(call.workspaceId, { id: toolId, name: 'lookup_order', description: 'Finds an order', parameters: { type: 'object' } }, { ok: true, result: { status: 'shipped' } });
  const started = await h.tier.client.startSession({ session }, runtime());
  expect(started.tools.map((tool) => tool.name)).toEqual(['lookup_order']);
  const answer = await h.tier.client.invokeTool({ session, sequence: 5n, name: 'lookup_order', arguments: { order: 'A1' } }, runtime());
  expect(answer.ok).toBe(true);
  expect(answer.result?.kind).toMatchObject({ case: 'structValue' });
  expect(h.tools.runs.at(-1)).toEqual({ toolId, args: { order: 'A1' } });
  const unknown = await h.tier.client.invokeTool({ session, sequence: 6n, name: 'drop_tables', arguments: {} }, runtime());
  expect(unknown).toMatchObject({ ok: false, error: expect.stringContaining('drop_tables') });
  const types = (await h.store.getCall(call.workspaceId, call.id))!.reports.map((report) => (report.kind === 'event' ? report.type : ''));
  expect(types).toEqual(['tool.completed', 'tool.failed']);
});

test('a recording is stored whole and read back by range; one over the limit is refused and nothing is kept', async () => {
  const { call, session } = await placedCall();
  const wav = randomBytes(100_000);
  async function* upload(bytes: Buffer, contentType = 'audio/wav'): AsyncGenerator<MessageInitShape<typeof UploadRecordingRequestSchema>> {
    for (let offset = 0; offset < bytes.length; offset += 65_536) {
      yield { session: offset === 0 ? session : undefined, contentType: offset === 0 ? contentType : '', chunk: bytes.subarray(offset, offset + 65_536) };
    }
  }
  expect((await h.tier.client.uploadRecording(upload(wav), runtime())).sizeBytes).toBe(100_000n);
  expect((await h.store.getCall(call.workspaceId, call.id))!.hasRecording).toBe(true);
  const read = (await h.store.openRecording(call.id, { start: 10, end: 19 }))!;
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) chunks.push(Buffer.from(chunk as Uint8Array));
  expect([read.sizeBytes, read.contentType, Buffer.concat(chunks)]).toEqual([100_000, 'audio/wav', wav.subarray(10, 20)]);

  const big = await placedCall();
  const tooLarge = await failure(h.tier.client.uploadRecording((async function* () {
    for (let i = 0; i < 20; i += 1) yield { session: i === 0 ? big.session : undefined, contentType: i === 0 ? 'audio/wav' : '', chunk: randomBytes(65_536) };
  })(), runtime()));
  expect(tooLarge.reason).toBe('payload_too_large');
  expect(await h.store.openRecording(big.call.id)).toBeUndefined();
  expect(await failure(h.tier.client.uploadRecording(upload(wav, 'audio/ogg'), runtime()))).toMatchObject({ code: Code.InvalidArgument });
});

test('analysis is kept; ending the session records why and hangs the leg up', async () => {
  const { call, session } = await placedCall();
  await h.tier.client.reportAnalysis({ session, summary: 'Booked for Monday.', verdict: 'successful', extractedFields: { booked: true } }, runtime());
  await h.tier.client.endSession({ session, reason: 'caller_hung_up', at: timestampFromDate(new Date()) }, runtime());
  expect(await h.store.getCall(call.workspaceId, call.id)).toMatchObject({ summary: 'Booked for Monday.', verdict: 'successful', extractedFields: { booked: true }, endReason: 'caller_hung_up' });
  expect(h.peers.ended).toContain(call.id);
  expect(await failure(h.tier.client.endSession({ session, reason: 'bored' }, runtime()))).toMatchObject({ code: Code.InvalidArgument });
});

describe('leg reports and the charge', () => {
  const leg = (status: LegReport['status'], sequence: number, extra: Partial<LegReport> = {}): LegReport => ({ status, sequence, at: at(sequence * 1000), durationSeconds: 0, failureReason: '', ...extra });

  test('a call moves forward once per report, ignores stale ones, settles its minutes and is published when charged', async () => {
    const { call } = await placedCall();
    expect(await applyLegReport(h.deps, call.workspaceId, call.id, leg('ringing', 2))).toBe('applied');
    expect(await applyLegReport(h.deps, call.workspaceId, call.id, leg('in_progress', 3))).toBe('applied');
    // A redelivery and an older report change nothing.
    expect(await applyLegReport(h.deps, call.workspaceId, call.id, leg('in_progress', 3))).toBe('stale');
    expect(await applyLegReport(h.deps, call.workspaceId, call.id, leg('ringing', 2))).toBe('stale');
    const started = (await pendingEvents('calls.calls.started')).map((event) => fromBinary(CallChangedSchema, event.payload)).filter((event) => event.call?.id === call.id);
    expect(started).toHaveLength(1);
    expect(started[0]!.call).toMatchObject({ status: CallStatus.IN_PROGRESS, events: [{ type: 'call.ringing' }, { type: 'call.answered' }] });

    expect(await applyLegReport(h.deps, call.workspaceId, call.id, leg('completed', 4, { durationSeconds: 61 }))).toBe('applied');
    const ended = (await h.store.getCall(call.workspaceId, call.id))!;
    expect(ended).toMatchObject({ status: 'completed', durationSeconds: 61, endReason: 'completed', charged: false });
    const usage = (await pendingEvents('usage.calls.minutes')).map((event) => fromBinary(UsageEventSchema, event.payload)).filter((event) => event.holdId === call.holdId);
    // Two started minutes, under the call's hold.
    expect(usage).toEqual([expect.objectContaining({ eventId: ended.usageEventId, minuteUnits: 2_000n, kind: 'call.minutes', reference: call.id })]);
    expect(await applyLegReport(h.deps, call.workspaceId, call.id, leg('failed', 5))).toBe('applied');
    expect((await h.store.getCall(call.workspaceId, call.id))!.status).toBe('completed');

    const walletChange = (usageEventId: string) =>
      create(WalletChangedSchema, {
        eventId: newId(),
        appliedUsageEventId: usageEventId,
        transaction: { kind: 'call.minutes', amount: { minuteUnits: -1_000n, creditUnits: -1_000n } },
      });
    expect(await recordCharge(h.deps, walletChange(ended.usageEventId!))).toBe('charged');
    expect(await recordCharge(h.deps, walletChange(ended.usageEventId!))).toBe('already_charged');
    expect(await recordCharge(h.deps, walletChange(newId()))).toBe('not_a_call');
    expect(await h.store.getCall(call.workspaceId, call.id)).toMatchObject({ charged: true, minuteUnitsCharged: 1_000, creditUnitsCharged: 1_000 });
    const published = (await pendingEvents('calls.calls.ended')).map((event) => fromBinary(CallChangedSchema, event.payload)).filter((event) => event.call?.id === call.id);
    expect(published).toHaveLength(1);
    expect(published[0]!.call).toMatchObject({ status: CallStatus.COMPLETED, minuteUnitsCharged: 1_000n, creditUnitsCharged: 1_000n, durationSeconds: 61 });
  });

  test('a call that ends unanswered is charged nothing: its hold is released and it is published at once', async () => {
    const { call } = await placedCall();
    await applyLegReport(h.deps, call.workspaceId, call.id, leg('ringing', 2));
    await applyLegReport(h.deps, call.workspaceId, call.id, leg('busy', 3, { durationSeconds: 12 }));
    expect(await h.store.getCall(call.workspaceId, call.id)).toMatchObject({ status: 'busy', endReason: 'busy', durationSeconds: 0, charged: true, minuteUnitsCharged: 0 });
    const usage = (await pendingEvents('usage.calls.minutes')).map((event) => fromBinary(UsageEventSchema, event.payload)).filter((event) => event.holdId === call.holdId);
    expect(usage.map((event) => event.minuteUnits)).toEqual([0n]);
    expect((await pendingEvents('calls.calls.ended')).map((event) => fromBinary(CallChangedSchema, event.payload).call?.id)).toContain(call.id);
    expect(await applyLegReport(h.deps, newId(), call.id, leg('completed', 9))).toBe('unknown_call');
  });

  test('concurrent reports of one leg apply each once, in any order of arrival', async () => {
    const { call } = await placedCall();
    await Promise.all([leg('ringing', 2), leg('in_progress', 3), leg('completed', 4, { durationSeconds: 30 })].map((report) => applyLegReport(h.deps, call.workspaceId, call.id, report)));
    const final = (await h.store.getCall(call.workspaceId, call.id))!;
    expect(final).toMatchObject({ status: 'completed', legSequence: 4 });
    const usage = (await pendingEvents('usage.calls.minutes')).map((event) => fromBinary(UsageEventSchema, event.payload)).filter((event) => event.holdId === call.holdId);
    expect(usage).toHaveLength(1);
  });
});
