// The behaviour every CampaignStore's callbacks part must have (run by store.contract.ts on each adapter).
import { newId } from '@voice/runtime/ids';
import type { CallbackRecord } from '../src/store/callback-store.js';
import type { CampaignStore } from '../src/store/store.js';

let clock = Date.parse('2026-03-01T00:00:00.000Z');
const tick = (): string => new Date((clock += 1000)).toISOString();
const all = { limit: 200, offset: 0 };

export function callbackRecord(workspaceId: string, overrides: Partial<CallbackRecord> = {}): CallbackRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    campaignId: newId(),
    leadId: newId(),
    phone: '+14155550100',
    timeZone: 'America/New_York',
    at: '2026-03-02T15:00:00.000Z',
    variables: { tier: 'gold', visits: 3, vip: true },
    note: 'after lunch',
    status: 'scheduled',
    failureReason: null,
    attempts: 0,
    callId: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function callbackStoreContract(session: () => { store: CampaignStore; workspace: string; otherWorkspace: string }): void {
  describe('callbacks', () => {
    test('a callback reads back whole, only in its workspace, and lists newest first by status, campaign and lead', async () => {
      const { store, workspace, otherWorkspace } = session();
      const first = callbackRecord(workspace, { leadId: null, timeZone: null, variables: {}, note: '' });
      const second = callbackRecord(workspace, { campaignId: first.campaignId, status: 'cancelled' });
      const third = callbackRecord(workspace);
      for (const callback of [first, second, third, callbackRecord(otherWorkspace, { campaignId: first.campaignId })]) await store.callbacks.insertCallback(callback);
      expect(await store.callbacks.getCallback(workspace, first.id)).toEqual(first);
      expect(await store.callbacks.getCallback(otherWorkspace, first.id)).toBeUndefined();
      expect(await store.callbacks.listCallbacks(workspace, {}, all)).toEqual({ callbacks: [third, second, first], total: 3 });
      expect(await store.callbacks.listCallbacks(workspace, { campaignId: first.campaignId }, all)).toEqual({ callbacks: [second, first], total: 2 });
      expect(await store.callbacks.listCallbacks(workspace, { status: 'scheduled', campaignId: first.campaignId }, all)).toEqual({ callbacks: [first], total: 1 });
      expect(await store.callbacks.listCallbacks(workspace, { leadId: third.leadId! }, all)).toEqual({ callbacks: [third], total: 1 });
      expect(await store.callbacks.listCallbacks(workspace, {}, { limit: 1, offset: 1 })).toEqual({ callbacks: [second], total: 3 });
    });

    test('transitions are conditional on status and attempts, and change only what they name', async () => {
      const { store, workspace, otherWorkspace } = session();
      const callback = callbackRecord(workspace);
      await store.callbacks.insertCallback(callback);
      const claimedAt = tick();
      const claimed = await store.callbacks.transitionCallback(workspace, callback.id, { statuses: ['scheduled'], attempts: 0 }, { status: 'dialing', attempts: 1 }, claimedAt);
      expect(claimed).toEqual({ ...callback, status: 'dialing', attempts: 1, updatedAt: claimedAt });
      // The same claim again, a cancel of a claimed one, and another workspace's write do nothing.
      expect(await store.callbacks.transitionCallback(workspace, callback.id, { statuses: ['scheduled'], attempts: 0 }, { status: 'dialing', attempts: 1 }, tick())).toBeUndefined();
      expect(await store.callbacks.transitionCallback(workspace, callback.id, { statuses: ['scheduled'] }, { status: 'cancelled' }, tick())).toBeUndefined();
      expect(await store.callbacks.transitionCallback(otherWorkspace, callback.id, { statuses: ['dialing'] }, { status: 'failed' }, tick())).toBeUndefined();
      const callId = newId();
      const recordedAt = tick();
      expect(await store.callbacks.transitionCallback(workspace, callback.id, { statuses: ['dialing'], attempts: 1 }, { status: 'dialing', callId }, recordedAt)).toEqual({ ...claimed, callId, updatedAt: recordedAt });
      const endedAt = tick();
      const ended = await store.callbacks.transitionCallback(workspace, callback.id, { statuses: ['dialing'] }, { status: 'failed', failureReason: 'no_answer', callId }, endedAt);
      expect(ended).toEqual({ ...claimed, callId, status: 'failed', failureReason: 'no_answer', updatedAt: endedAt });
      expect(await store.callbacks.getCallback(workspace, callback.id)).toEqual(ended);
    });

    test('of two concurrent writes from scheduled, one wins', async () => {
      const { store, workspace } = session();
      const callback = callbackRecord(workspace);
      await store.callbacks.insertCallback(callback);
      const at = tick();
      const outcomes = await Promise.all([
        store.callbacks.transitionCallback(workspace, callback.id, { statuses: ['scheduled'], attempts: 0 }, { status: 'dialing', attempts: 1 }, at),
        store.callbacks.transitionCallback(workspace, callback.id, { statuses: ['scheduled'] }, { status: 'cancelled' }, at),
      ]);
      expect(outcomes.filter((outcome) => outcome !== undefined)).toHaveLength(1);
    });

    test('due callbacks: scheduled by the time given, and claimed ones without a call, of every workspace, earliest first', async () => {
      const { store, workspace, otherWorkspace } = session();
      const early = callbackRecord(otherWorkspace, { at: '2026-03-02T10:00:00.000Z' });
      const due = callbackRecord(workspace, { at: '2026-03-02T11:00:00.000Z' });
      const later = callbackRecord(workspace, { at: '2026-03-02T13:00:00.000Z' });
      const lost = callbackRecord(workspace, { at: '2026-03-02T12:00:00.000Z', status: 'dialing', attempts: 1 });
      const placed = callbackRecord(workspace, { at: '2026-03-02T09:00:00.000Z', status: 'dialing', attempts: 1, callId: newId() });
      const cancelled = callbackRecord(workspace, { at: '2026-03-02T09:00:00.000Z', status: 'cancelled' });
      for (const callback of [early, due, later, lost, placed, cancelled]) await store.callbacks.insertCallback(callback);
      const dueBy = '2026-03-02T12:30:00.000Z';
      const ours = (list: CallbackRecord[]) => list.filter((c) => [early, due, later, lost, placed, cancelled].some((mine) => mine.id === c.id));
      expect(ours(await store.callbacks.listDueCallbacks(dueBy, all))).toEqual([early, due, lost]);
      expect(ours(await store.callbacks.listDueCallbacks('2026-03-02T11:00:00.000Z', all))).toEqual([early, due, lost]);
      expect(ours(await store.callbacks.listDueCallbacks('2026-03-02T10:59:59.999Z', all))).toEqual([early, lost]);
    });
  });
}
