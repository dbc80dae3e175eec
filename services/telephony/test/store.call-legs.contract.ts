// The call-leg part of the TelephonyStore contract: one leg per call, moves only forward, and each
// move's event written with it (or not at all).
import type { NewOutboxEvent } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import type { CallLegRecord, TelephonyStore } from '../src/store/store.js';
import type { OpenStore } from '../../runtime/test/store-contract.js';
import { numberRecord } from './store.contract.js';

let clock = Date.parse('2026-03-01T00:00:00.000Z');
const tick = (): string => new Date((clock += 1000)).toISOString();

export function callLegRecord(workspaceId: string, overrides: Partial<CallLegRecord> = {}): CallLegRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    callId: newId(),
    direction: 'outbound',
    numberId: newId(),
    carrierConnectionId: null,
    carrierCallId: null,
    from: '+15550000001',
    to: '+15550000002',
    maxDurationSeconds: 600,
    sealedMediaParameters: 'enc:v1:parameters',
    status: 'queued',
    sequence: 1,
    answeredAt: null,
    endedAt: null,
    durationSeconds: 0,
    failureReason: '',
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

const legEvent = (leg: CallLegRecord): NewOutboxEvent => ({ id: newId(), subject: 'telephony.call_legs.changed', payload: new Uint8Array([leg.sequence]) });

export function callLegStoreContract(open: OpenStore<TelephonyStore>): void {
  describe('call legs', () => {
    let store: TelephonyStore;
    let workspace: string;

    beforeEach(async () => {
      store = await open();
      workspace = newId();
    });
    afterEach(async () => {
      await store.close();
    });

    const pendingIds = async () => (await store.outbox.pending(10_000)).map((event) => event.id);

    test('a leg is stored with its event once per call; a second leg of the same call writes nothing', async () => {
      const leg = callLegRecord(workspace);
      const event = legEvent(leg);
      expect(await store.insertLeg(leg, event)).toEqual({ kind: 'created', leg });
      expect(await store.getLeg(leg.id)).toEqual(leg);
      expect(await store.getLegOfCall(workspace, leg.callId!)).toEqual(leg);
      expect(await store.getLegOfCall(newId(), leg.callId!)).toBeUndefined();
      const again = callLegRecord(workspace, { callId: leg.callId });
      const refused = legEvent(again);
      expect(await store.insertLeg(again, refused)).toEqual({ kind: 'exists', leg });
      expect(await store.getLeg(again.id)).toBeUndefined();
      const ids = await pendingIds();
      expect(ids).toContain(event.id);
      expect(ids).not.toContain(refused.id);
    });

    test('inbound legs without a call yet are stored side by side', async () => {
      const first = callLegRecord(workspace, { callId: null, direction: 'inbound' });
      const second = callLegRecord(workspace, { callId: null, direction: 'inbound' });
      expect(await store.insertLeg(first, undefined)).toEqual({ kind: 'created', leg: first });
      expect(await store.insertLeg(second, undefined)).toEqual({ kind: 'created', leg: second });
      expect(await store.getLeg(second.id)).toEqual(second);
    });

    test("the carrier's id is recorded once", async () => {
      const leg = callLegRecord(workspace);
      await store.insertLeg(leg, undefined);
      const at = tick();
      expect(await store.recordCarrierCallId(leg.id, 'CA-1', at)).toEqual({ ...leg, carrierCallId: 'CA-1', updatedAt: at });
      expect((await store.recordCarrierCallId(leg.id, 'CA-2', tick()))?.carrierCallId).toBe('CA-1');
      expect(await store.recordCarrierCallId(newId(), 'CA-3', tick())).toBeUndefined();
    });

    test('a leg moves forward only, each move counted and written with its event; an ended leg never moves', async () => {
      const leg = callLegRecord(workspace);
      await store.insertLeg(leg, undefined);
      const written: string[] = [];
      const eventOf = (moved: CallLegRecord) => {
        const event = legEvent(moved);
        written.push(event.id);
        return event;
      };
      const ringing = await store.advanceLeg(leg.id, { status: 'ringing', at: tick() }, eventOf);
      expect(ringing).toMatchObject({ status: 'ringing', sequence: 2 });
      const answeredAt = tick();
      const answered = await store.advanceLeg(leg.id, { status: 'in_progress', at: answeredAt }, eventOf);
      expect(answered).toMatchObject({ status: 'in_progress', sequence: 3, answeredAt });
      expect(await store.advanceLeg(leg.id, { status: 'ringing', at: tick() }, eventOf)).toBeUndefined();
      const endedAt = tick();
      const ended = await store.advanceLeg(leg.id, { status: 'completed', at: endedAt, durationSeconds: 42 }, eventOf);
      expect(ended).toEqual({ ...leg, status: 'completed', sequence: 4, answeredAt, endedAt, durationSeconds: 42, updatedAt: endedAt });
      expect(await store.advanceLeg(leg.id, { status: 'failed', at: tick(), failureReason: 'late' }, eventOf)).toBeUndefined();
      expect(await store.getLeg(leg.id)).toEqual(ended);
      expect(written).toHaveLength(3);
      const pending = await pendingIds();
      for (const id of written) expect(pending).toContain(id);
    });

    test('racing reports of one leg move it once; the loser writes no event', async () => {
      const leg = callLegRecord(workspace);
      await store.insertLeg(leg, undefined);
      const events: NewOutboxEvent[] = [];
      const eventOf = (moved: CallLegRecord) => {
        const event = legEvent(moved);
        events.push(event);
        return event;
      };
      const outcomes = await Promise.all([
        store.advanceLeg(leg.id, { status: 'busy', at: tick() }, eventOf),
        store.advanceLeg(leg.id, { status: 'failed', at: tick(), failureReason: 'unreachable' }, eventOf),
      ]);
      const moved = outcomes.filter((outcome) => outcome !== undefined);
      expect(moved).toHaveLength(1);
      expect(await store.getLeg(leg.id)).toEqual(moved[0]);
      const pending = await pendingIds();
      expect(events.filter((event) => pending.includes(event.id))).toHaveLength(1);
    });

    test("a leg is found by its carrier's id within that carrier only", async () => {
      const connection = newId();
      const leg = callLegRecord(workspace, { carrierConnectionId: connection, carrierCallId: `CA${newId()}` });
      const platformLeg = callLegRecord(workspace, { carrierCallId: leg.carrierCallId });
      await store.insertLeg(leg, undefined);
      await store.insertLeg(platformLeg, undefined);
      expect(await store.getLegByCarrierCallId(connection, leg.carrierCallId!)).toEqual(leg);
      expect(await store.getLegByCarrierCallId(null, leg.carrierCallId!)).toEqual(platformLeg);
      expect(await store.getLegByCarrierCallId(newId(), leg.carrierCallId!)).toBeUndefined();
    });

    test('an inbound leg gets its call once, while it has none and has not ended; a call has one leg', async () => {
      const inbound = callLegRecord(workspace, { callId: null, direction: 'inbound', status: 'ringing' });
      await store.insertLeg(inbound, undefined);
      const callId = newId();
      const at = tick();
      expect(await store.attachCall(inbound.id, callId, 'enc:v1:new', at)).toEqual({ ...inbound, callId, sealedMediaParameters: 'enc:v1:new', updatedAt: at });
      expect(await store.attachCall(inbound.id, newId(), 'enc:v1:other', tick())).toBeUndefined();
      expect(await store.getLegOfCall(workspace, callId)).toMatchObject({ id: inbound.id });
      const second = callLegRecord(workspace, { callId: null, direction: 'inbound' });
      await store.insertLeg(second, undefined);
      expect(await store.attachCall(second.id, callId, 'enc:v1:dup', tick())).toBeUndefined();
      const ended = callLegRecord(workspace, { callId: null, direction: 'inbound', status: 'canceled' });
      await store.insertLeg(ended, undefined);
      expect(await store.attachCall(ended.id, newId(), 'enc:v1:late', tick())).toBeUndefined();
      expect(await store.getLeg(ended.id)).toEqual(ended);
    });

    test('a number is found by its E.164 form, whichever workspace holds it', async () => {
      const number = numberRecord(newId());
      await store.insertNumber(number);
      expect(await store.numberHeldAs(number.number)).toEqual(number);
      expect(await store.numberHeldAs('+10000000000')).toBeUndefined();
    });

    test('a failed leg keeps its reason; a move without an event writes none', async () => {
      const leg = callLegRecord(workspace);
      await store.insertLeg(leg, undefined);
      const before = (await store.outbox.pending(10_000)).length;
      expect(await store.advanceLeg(leg.id, { status: 'failed', at: tick(), failureReason: 'the carrier refused the request' }, () => undefined)).toMatchObject({
        status: 'failed',
        failureReason: 'the carrier refused the request',
        sequence: 2,
      });
      expect((await store.outbox.pending(10_000)).length).toBe(before);
      expect(await store.advanceLeg(newId(), { status: 'ringing', at: tick() }, () => undefined)).toBeUndefined();
    });
  });
}
