// The behaviour every CallStore must have, written once and run against each adapter.
import { newId } from '@voice/runtime/ids';
import type { NewOutboxEvent } from '@voice/runtime/events';
import type { IdempotencyClaim } from '@voice/runtime/idempotency';
import { RecordingTooLarge, type CallRecord, type CallStore } from '../src/store/store.js';
import type { OpenStore } from '../../runtime/test/store-contract.js';
import { newCall } from '../src/calls/new-call.js';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const tick = (): string => new Date((clock += 1000)).toISOString();

export function callRecord(workspaceId: string, overrides: Partial<CallRecord> = {}): CallRecord {
  const call = newCall({
    workspaceId,
    direction: 'outbound',
    from: '+442071838750',
    to: '+14155550123',
    numberId: newId(),
    assistant: { id: newId(), version: 3, config: { name: 'Front desk', first_message: 'Hello {{name}}', 'odd.key': { $x: 1 } } },
    variables: { name: 'Ada' },
    metadata: { crm: { id: 42 } },
    at: tick(),
  });
  const id = overrides.id ?? call.id;
  return { ...call, id, holdId: id, maxDurationSeconds: 600, ...overrides };
}

const claim = (key: string, fingerprint: string, overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  key,
  fingerprint,
  now: tick(),
  expiredBefore: '2000-01-01T00:00:00.000Z',
  ...overrides,
});

const outboxEvent = (): NewOutboxEvent => ({ id: newId(), subject: 'usage.calls.minutes', payload: new Uint8Array([1, 2, 3]) });

export function callStoreContract(open: OpenStore<CallStore>): void {
  let store: CallStore;
  let workspace: string;
  let otherWorkspace: string;

  beforeEach(async () => {
    store = await open();
    workspace = newId();
    otherWorkspace = newId();
  });
  afterEach(async () => {
    await store.close();
  });

  test('a call reads back whole, and only in its own workspace', async () => {
    const call = callRecord(workspace);
    expect(await store.createCall(call)).toEqual({ kind: 'created', call: { ...call, reports: [] } });
    expect(await store.getCall(workspace, call.id)).toEqual({ ...call, reports: [] });
    expect(await store.getCall(otherWorkspace, call.id)).toBeUndefined();
    expect(await store.getCall(workspace, newId())).toBeUndefined();
  });

  test('lists newest first, filtered, with the total of matches', async () => {
    const assistant = newId();
    const first = callRecord(workspace, { assistantId: assistant });
    const second = callRecord(workspace, { to: '+14155550199', status: 'completed' });
    const third = callRecord(workspace, { direction: 'inbound', from: '+14155550199', to: '+442071838750' });
    for (const call of [first, second, third]) await store.createCall(call);
    await store.createCall(callRecord(otherWorkspace));
    const ids = async (filter: Parameters<CallStore['listCalls']>[1], page = { limit: 50, offset: 0 }) => {
      const { calls, total } = await store.listCalls(workspace, filter, page);
      return { ids: calls.map((call) => call.id), total };
    };
    expect(await ids({})).toEqual({ ids: [third.id, second.id, first.id], total: 3 });
    expect(await ids({}, { limit: 1, offset: 1 })).toEqual({ ids: [second.id], total: 3 });
    expect(await ids({ status: 'completed' })).toEqual({ ids: [second.id], total: 1 });
    expect(await ids({ direction: 'inbound' })).toEqual({ ids: [third.id], total: 1 });
    expect(await ids({ assistantId: assistant })).toEqual({ ids: [first.id], total: 1 });
    expect(await ids({ number: '+14155550199' })).toEqual({ ids: [third.id, second.id], total: 2 });
    expect(await ids({ createdFrom: second.createdAt })).toEqual({ ids: [third.id, second.id], total: 2 });
    expect(await ids({ createdTo: second.createdAt })).toEqual({ ids: [first.id], total: 1 });
    expect(await ids({ createdFrom: first.createdAt, createdTo: third.createdAt })).toEqual({ ids: [second.id, first.id], total: 2 });
  });

  test('the calls of a campaign are counted by state and their amounts summed, in its own workspace only', async () => {
    const campaign = newId();
    const answeredAt = tick();
    const answered = { answeredAt, durationSeconds: 61, billedMinuteUnits: 2000, minuteUnitsCharged: 1000, creditUnitsCharged: 1000 };
    const calls = [
      callRecord(workspace, { campaignId: campaign, status: 'completed', ...answered }),
      callRecord(workspace, { campaignId: campaign, status: 'completed', ...answered, minuteUnitsCharged: 0, creditUnitsCharged: 2000 }),
      callRecord(workspace, { campaignId: campaign, status: 'completed', ...answered, endReason: 'voicemail', minuteUnitsCharged: 0, creditUnitsCharged: 2000 }),
      callRecord(workspace, { campaignId: campaign, status: 'in_progress', answeredAt }),
      callRecord(workspace, { campaignId: campaign, status: 'ringing' }),
      callRecord(workspace, { campaignId: campaign, status: 'busy' }),
      callRecord(workspace, { campaignId: campaign, status: 'no_answer' }),
      callRecord(workspace, { campaignId: campaign, status: 'failed' }),
      callRecord(workspace, { campaignId: campaign, status: 'failed' }),
      callRecord(workspace, { campaignId: campaign, status: 'canceled' }),
      // Not the campaign's: another campaign, no campaign, the same campaign id in another workspace.
      callRecord(workspace, { campaignId: newId(), status: 'completed', ...answered }),
      callRecord(workspace, { status: 'completed', ...answered, metadata: { campaign_id: campaign } }),
      callRecord(otherWorkspace, { campaignId: campaign, status: 'completed', ...answered }),
    ];
    for (const call of calls) await store.createCall(call);
    expect(await store.getCall(workspace, calls[0]!.id)).toMatchObject({ campaignId: campaign, billedMinuteUnits: 2000 });
    expect(await store.summarizeCampaignCalls(workspace, campaign)).toEqual({
      byStatus: { active: 2, completed: 2, voicemail: 1, no_answer: 1, busy: 1, failed: 2, canceled: 1 },
      connected: 4,
      billedMinuteUnits: 6000,
      minuteUnitsCharged: 1000,
      creditUnitsCharged: 5000,
    });
    const none = { byStatus: { active: 0, completed: 0, voicemail: 0, no_answer: 0, busy: 0, failed: 0, canceled: 0 }, connected: 0, billedMinuteUnits: 0, minuteUnitsCharged: 0, creditUnitsCharged: 0 };
    expect(await store.summarizeCampaignCalls(workspace, newId())).toEqual(none);

    // An end and its charge count as soon as they are written.
    const ringing = calls[4]!;
    const ended = await store.updateCall(ringing.id, ringing.version, { status: 'completed', answeredAt: tick(), durationSeconds: 5, billedMinuteUnits: 1000 }, [], [], tick());
    await store.updateCall(ringing.id, ended!.version, { charged: true, minuteUnitsCharged: 0, creditUnitsCharged: 1000 }, [], [], tick());
    expect(await store.summarizeCampaignCalls(workspace, campaign)).toMatchObject({
      byStatus: { active: 1, completed: 3 },
      connected: 5,
      billedMinuteUnits: 7000,
      creditUnitsCharged: 6000,
    });
  });

  test('an Idempotency-Key replays its call, refuses another body, and binds only until it expires', async () => {
    const call = callRecord(workspace);
    expect(await store.createCall(call, claim('k1', 'body-a'))).toMatchObject({ kind: 'created' });
    expect(await store.claimedCall(workspace, claim('k1', 'body-a'))).toEqual({ kind: 'replayed', call: { ...call, reports: [] } });
    expect(await store.claimedCall(workspace, claim('k1', 'body-b'))).toEqual({ kind: 'key_reused' });
    expect(await store.claimedCall(otherWorkspace, claim('k1', 'body-a'))).toBeUndefined();
    const again = callRecord(workspace);
    expect(await store.createCall(again, claim('k1', 'body-a'))).toEqual({ kind: 'replayed', call: { ...call, reports: [] } });
    expect(await store.getCall(workspace, again.id)).toBeUndefined();
    // Past its window the key binds nothing: a new call takes it.
    const later = callRecord(workspace);
    expect(await store.createCall(later, claim('k1', 'body-b', { expiredBefore: '2999-01-01T00:00:00.000Z' }))).toMatchObject({ kind: 'created' });
    expect(await store.claimedCall(workspace, claim('k1', 'body-b'))).toMatchObject({ kind: 'replayed', call: { id: later.id } });
  });

  test('concurrent creates under one key store one call', async () => {
    const calls = [callRecord(workspace), callRecord(workspace), callRecord(workspace)];
    const outcomes = await Promise.all(calls.map((call) => store.createCall(call, claim('same', 'body'))));
    expect(outcomes.filter((outcome) => outcome.kind === 'created')).toHaveLength(1);
    const created = outcomes.find((outcome) => outcome.kind === 'created')!;
    for (const outcome of outcomes) expect(outcome).toMatchObject({ call: { id: (created as { call: CallRecord }).call.id } });
    expect((await store.listCalls(workspace, {}, { limit: 50, offset: 0 })).total).toBe(1);
  });

  test('a placed call keeps its leg; a call that could not be placed fails once, with its release in the outbox', async () => {
    const placed = callRecord(workspace);
    await store.createCall(placed);
    await store.recordLeg(placed.id, 'leg-1', tick());
    await store.recordLeg(placed.id, 'leg-2', tick());
    expect(await store.getCall(workspace, placed.id)).toMatchObject({ legId: 'leg-1', status: 'queued' });

    const unplaced = callRecord(workspace);
    await store.createCall(unplaced);
    const before = (await store.outbox.pending(1000)).length;
    const release = outboxEvent();
    const at = tick();
    expect(await store.failPlacing(unplaced.id, release, at)).toMatchObject({ id: unplaced.id, status: 'failed', endReason: 'failed', endedAt: at });
    expect(await store.failPlacing(unplaced.id, outboxEvent(), tick())).toBeUndefined();
    const pending = await store.outbox.pending(1000);
    expect(pending).toHaveLength(before + 1);
    expect(pending.at(-1)).toMatchObject({ id: release.id, subject: release.subject, payload: release.payload });
  });

  test('events of no call write enter the outbox; published ones are pruned', async () => {
    const events = [outboxEvent(), outboxEvent()];
    await store.enqueue(events);
    const pending = await store.outbox.pending(1000);
    expect(pending.map((event) => event.id)).toEqual(expect.arrayContaining(events.map((event) => event.id)));
    await store.outbox.markPublished(pending.map((event) => event.id), '2026-01-01T00:00:00.000Z');
    expect(await store.outbox.pending(1000)).toEqual([]);
    expect(await store.outbox.prune('2026-01-02T00:00:00.000Z', 1000)).toBe(pending.length);
  });

  test('claims older than the retention are pruned, the oldest first', async () => {
    await store.createCall(callRecord(workspace), claim('old', 'a', { now: '2025-01-01T00:00:00.000Z' }));
    await store.createCall(callRecord(workspace), claim('new', 'a', { now: '2027-01-01T00:00:00.000Z' }));
    expect(await store.pruneIdempotencyClaims('2026-06-01T00:00:00.000Z', 10)).toBe(1);
    expect(await store.claimedCall(workspace, claim('old', 'a'))).toBeUndefined();
    expect(await store.claimedCall(workspace, claim('new', 'a'))).toMatchObject({ kind: 'replayed' });
  });

  test('a change applies only to the version it was planned from, with its reports (once each) and its events', async () => {
    const call = callRecord(workspace);
    await store.createCall(call);
    const usage = outboxEvent();
    const report = { source: 'leg' as const, kind: 'event' as const, sequence: 2, type: 'call.ringing', at: tick(), data: { a: 1 } };
    const changed = await store.updateCall(call.id, 0, { status: 'ringing', legSequence: 2, usageEventId: usage.id, extractedFields: { x: 'y' } }, [report], [usage], tick());
    expect(changed).toMatchObject({ status: 'ringing', legSequence: 2, version: 1, usageEventId: usage.id, extractedFields: { x: 'y' }, reports: [report] });
    expect(await store.updateCall(call.id, 0, { status: 'in_progress' }, [], [outboxEvent()], tick())).toBeUndefined();
    expect((await store.getCallById(call.id))!.status).toBe('ringing');
    expect(await store.findCallByUsageEvent(usage.id)).toMatchObject({ id: call.id });
    expect(await store.findCallByUsageEvent(newId())).toBeUndefined();
    expect((await store.outbox.pending(1000)).filter((event) => event.id === usage.id)).toHaveLength(1);
    // A report already stored stays as it was.
    await store.addReports(call.id, [{ ...report, type: 'call.other' }, { source: 'session', kind: 'turn', sequence: 2, role: 'user', text: 'Hi', at: tick() }]);
    const reports = (await store.getCall(workspace, call.id))!.reports;
    expect(reports.map((stored) => (stored.kind === 'event' ? stored.type : stored.text))).toEqual(['call.ringing', 'Hi']);
  });

  test('a recording is stored, read whole or by range, replaced, and removed for good', async () => {
    const call = callRecord(workspace);
    await store.createCall(call);
    const bytes = (size: number, fill: number) => Buffer.alloc(size, fill);
    async function* chunks(...parts: Buffer[]) {
      for (const part of parts) yield new Uint8Array(part);
    }
    const read = async (range?: { start: number; end: number }) => {
      const recording = await store.openRecording(call.id, range);
      if (!recording) return undefined;
      const parts: Buffer[] = [];
      for await (const part of recording.body) parts.push(Buffer.from(part as Uint8Array));
      return { size: recording.sizeBytes, type: recording.contentType, body: Buffer.concat(parts) };
    };
    expect(await read()).toBeUndefined();
    expect(await store.describeRecording(call.id)).toBeUndefined();
    expect(await store.saveRecording(call.id, 'audio/wav', chunks(bytes(1000, 1), bytes(500, 2)), 10_000)).toBe(1500);
    expect(await store.describeRecording(call.id)).toEqual({ sizeBytes: 1500, contentType: 'audio/wav' });
    expect(await read()).toEqual({ size: 1500, type: 'audio/wav', body: Buffer.concat([bytes(1000, 1), bytes(500, 2)]) });
    expect((await read({ start: 998, end: 1001 }))!.body).toEqual(Buffer.from([1, 1, 2, 2]));
    expect(await store.saveRecording(call.id, 'audio/wav', chunks(bytes(10, 3)), 10_000)).toBe(10);
    expect((await read())!.body).toEqual(bytes(10, 3));
    expect(await store.describeRecording(call.id)).toEqual({ sizeBytes: 10, contentType: 'audio/wav' });
    await expect(store.saveRecording(call.id, 'audio/wav', chunks(bytes(600, 4), bytes(600, 4)), 1000)).rejects.toBeInstanceOf(RecordingTooLarge);
    expect((await read())!.body).toEqual(bytes(10, 3));
    expect(await store.deleteRecording(call.id)).toBe(true);
    expect(await read()).toBeUndefined();
    expect(await store.describeRecording(call.id)).toBeUndefined();
    expect(await store.deleteRecording(call.id)).toBe(false);
  });
}
