// The behaviour every TelephonyStore must have, written once and run against each adapter.
import type { NewOutboxEvent, OutboxEvent } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import type { CallerIdRecord, CampaignRecord, ConnectionRecord, MessageRecord, NumberRecord, SendClaim, SipTrunkRecord, SuppressionRecord, TelephonyStore } from '../src/store/store.js';
import { awaitingCarrier } from '../src/store/rules.js';
import type { OpenStore } from '../../runtime/test/store-contract.js';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const tick = (): string => new Date((clock += 1000)).toISOString();

// Numbers are unique across the platform, and a MongoDB database outlives one test.
let numberSequence = Math.floor(Math.random() * 1_000_000);
const freshE164 = (): string => `+1555${String((numberSequence += 1) % 10_000_000).padStart(7, '0')}`;

const all = { limit: 200, offset: 0 };

export function numberRecord(workspaceId: string, overrides: Partial<NumberRecord> = {}): NumberRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    number: freshE164(),
    country: 'US',
    source: 'marketplace',
    smsCapable: true,
    voiceCapable: true,
    smsOutboundEnabled: false,
    carrierConnectionId: null,
    a2pCampaignId: null,
    name: 'Front desk',
    assistantId: null,
    sipTrunkId: null,
    renewsAt: null,
    pastDueSince: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function connectionRecord(workspaceId: string, overrides: Partial<ConnectionRecord> = {}): ConnectionRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    name: 'Our Twilio',
    provider: 'twilio',
    baseUrl: 'https://api.twilio.example',
    sealedAccountSid: 'enc:v1:sid',
    sealedAuthToken: 'enc:v1:token',
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function sipTrunkRecord(workspaceId: string, overrides: Partial<SipTrunkRecord> = {}): SipTrunkRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    name: 'Office PBX',
    address: 'sip:pbx.example:5060',
    transport: 'udp',
    direction: 'both',
    username: 'office',
    sealedPassword: 'enc:v1:password',
    numberIds: [],
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function callerIdRecord(workspaceId: string, overrides: Partial<CallerIdRecord> = {}): CallerIdRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    phoneNumber: freshE164(),
    label: 'Office line',
    method: 'sms',
    status: 'pending',
    codeHash: 'hash',
    codeExpiresAt: new Date(Date.parse(at) + 600_000).toISOString(),
    attempts: 0,
    verifiedAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function campaignRecord(workspaceId: string, carrierConnectionId: string, overrides: Partial<CampaignRecord> = {}): CampaignRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    name: 'Appointment reminders',
    carrierConnectionId,
    useCase: 'customer_care',
    description: 'Reminders of booked appointments',
    sampleMessages: ['Your appointment is tomorrow at 10:00.', 'Reply STOP to opt out.'],
    status: 'pending',
    rejectionReason: '',
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function suppressionRecord(workspaceId: string, overrides: Partial<SuppressionRecord> = {}): SuppressionRecord {
  return { id: newId(), workspaceId, number: freshE164(), reason: 'asked to stop', createdAt: tick(), ...overrides };
}

export function messageRecord(workspaceId: string, overrides: Partial<MessageRecord> = {}): MessageRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    fromNumberId: newId(),
    from: '+15550000001',
    to: '+15550000002',
    body: 'Hello there',
    segments: 1,
    encoding: 'GSM-7',
    creditUnits: 100,
    status: 'sending',
    failureReason: '',
    carrierConnectionId: null,
    carrierMessageId: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

const claim = (key: string, fingerprint: string, overrides: Partial<SendClaim> = {}): SendClaim => ({
  key,
  fingerprint,
  now: tick(),
  expiredBefore: '2000-01-01T00:00:00.000Z',
  ...overrides,
});

/** Stands for the event that captures or releases a message's hold: the store only keeps it. */
const usageEvent = (message: MessageRecord): NewOutboxEvent => ({
  id: newId(),
  subject: 'usage.telephony.sms',
  payload: new Uint8Array([1, 2, 3, message.creditUnits % 256]),
});

export function telephonyStoreContract(open: OpenStore<TelephonyStore>): void {
  describe('contract', () => {
    let store: TelephonyStore;
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

    /** Begins and accepts one message; the accepted record and its carrier id. */
    async function sent(message: MessageRecord): Promise<{ message: MessageRecord; carrierMessageId: string }> {
      expect(await store.beginSend(message)).toEqual({ kind: 'begun' });
      const carrierMessageId = `SM${newId()}`;
      const accepted = await store.acceptSend(message.id, carrierMessageId, usageEvent(message), tick(), eventOf('status'));
      if (!accepted) throw new Error('the begun message was not accepted');
      return { message: accepted, carrierMessageId };
    }

    const pendingEvents = async (): Promise<OutboxEvent[]> => store.outbox.pending(10_000);
    /** A stand-in for the event a change writes: its payload names what it was made of. */
    const eventOf = (label: string) => (record: { id: string; updatedAt: string }): NewOutboxEvent => ({
      id: newId(),
      subject: `test.${label}`,
      payload: new TextEncoder().encode(`${record.id} ${record.updatedAt}`),
    });
    const eventsOf = async (label: string) => (await pendingEvents()).filter((event) => event.subject === `test.${label}`).map((event) => new TextDecoder().decode(event.payload));

    describe('monthly fees of bought numbers', () => {
      const feeEvent = (): NewOutboxEvent => ({ id: newId(), subject: 'usage.telephony.numbers', payload: new Uint8Array([7]) });
      const due = '2026-02-01T00:00:00.000Z';
      const next = '2026-03-01T00:00:00.000Z';
      const ids = async () => (await pendingEvents()).map((event) => event.id);

      test('a purchase stores the number and the capture of its first month together', async () => {
        const event = feeEvent();
        const number = numberRecord(workspace, { renewsAt: due });
        expect(await store.insertNumber(number, event)).toEqual({ kind: 'created', number });
        expect(await ids()).toContain(event.id);
        const refused = feeEvent();
        expect(await store.insertNumber(numberRecord(otherWorkspace, { number: number.number, renewsAt: due }), refused)).toEqual({ kind: 'number_taken' });
        expect(await ids()).not.toContain(refused.id);
      });

      test('lists the numbers due by an instant, the longest due first, past-due ones included, never imported ones', async () => {
        const later = numberRecord(workspace, { renewsAt: '2026-02-01T00:00:02.000Z' });
        const earlier = numberRecord(otherWorkspace, { renewsAt: '2026-02-01T00:00:01.000Z', pastDueSince: '2026-02-01T00:00:05.000Z' });
        const notYet = numberRecord(workspace, { renewsAt: '2026-02-01T00:00:03.000Z' });
        const imported = numberRecord(workspace, { source: 'imported' });
        for (const number of [later, earlier, notYet, imported]) await store.insertNumber(number);
        const found = (await store.dueRenewals('2026-02-01T00:00:02.000Z', 100)).filter((number) => [later.id, earlier.id, notYet.id, imported.id].includes(number.id));
        expect(found.map((number) => number.id)).toEqual([earlier.id, later.id]);
        expect(found[0]).toEqual(earlier);
        expect((await store.dueRenewals('2026-02-01T00:00:02.000Z', 1))).toHaveLength(1);
      });

      test('a renewal moves the due date once, clears past due and writes its capture; a racing one changes nothing', async () => {
        const number = numberRecord(workspace, { renewsAt: due, pastDueSince: '2026-02-01T00:00:05.000Z' });
        await store.insertNumber(number);
        const [first, second] = [feeEvent(), feeEvent()];
        const outcomes = await Promise.all([store.renewNumber(number.id, due, next, first, '2026-02-02T00:00:00.000Z'), store.renewNumber(number.id, due, next, second, '2026-02-02T00:00:00.000Z')]);
        const renewed = outcomes.filter((outcome) => outcome !== undefined);
        expect(renewed).toEqual([{ ...number, renewsAt: next, pastDueSince: null, updatedAt: '2026-02-02T00:00:00.000Z' }]);
        const written = (await ids()).filter((id) => id === first.id || id === second.id);
        expect(written).toHaveLength(1);
        expect(await store.getNumber(workspace, number.id)).toEqual(renewed[0]);
      });

      test('past due is marked once for the due date it was read with, and only an unpaid past-due number is removed', async () => {
        const number = numberRecord(workspace, { renewsAt: due });
        await store.insertNumber(number);
        expect(await store.deleteUnpaidNumber(number.id, due, eventOf('released'))).toBe(false);
        expect(await store.markPastDue(number.id, next, '2026-02-01T01:00:00.000Z', eventOf('past_due'))).toBeUndefined();
        expect(await store.markPastDue(number.id, due, '2026-02-01T01:00:00.000Z', eventOf('past_due'))).toEqual({ ...number, pastDueSince: '2026-02-01T01:00:00.000Z', updatedAt: '2026-02-01T01:00:00.000Z' });
        expect(await store.markPastDue(number.id, due, '2026-02-01T02:00:00.000Z', eventOf('past_due'))).toBeUndefined();
        expect(await store.deleteUnpaidNumber(number.id, next, eventOf('released'))).toBe(false);
        expect(await store.deleteUnpaidNumber(number.id, due, eventOf('released'))).toBe(true);
        expect(await store.getNumber(workspace, number.id)).toBeUndefined();
        // One event for the marking and one for the removal, each of the number as it was then.
        expect(await eventsOf('past_due')).toEqual([`${number.id} 2026-02-01T01:00:00.000Z`]);
        expect(await eventsOf('released')).toEqual([`${number.id} 2026-02-01T01:00:00.000Z`]);
        const paid = numberRecord(workspace, { renewsAt: due });
        await store.insertNumber(paid);
        await store.markPastDue(paid.id, due, '2026-02-01T01:00:00.000Z', eventOf('past_due'));
        await store.renewNumber(paid.id, due, next, undefined, '2026-02-03T00:00:00.000Z');
        expect(await store.deleteUnpaidNumber(paid.id, due, eventOf('released'))).toBe(false);
        expect(await store.getNumber(workspace, paid.id)).toMatchObject({ renewsAt: next, pastDueSince: null });
      });
    });

    describe('phone numbers', () => {
      test('a number reads back whole, and only in its own workspace', async () => {
        const number = numberRecord(workspace, { carrierConnectionId: newId(), a2pCampaignId: newId(), assistantId: newId(), source: 'imported' });
        expect(await store.insertNumber(number)).toEqual({ kind: 'created', number });
        expect(await store.getNumber(workspace, number.id)).toEqual(number);
        expect(await store.getNumber(otherWorkspace, number.id)).toBeUndefined();
        expect(await store.getNumber(workspace, newId())).toBeUndefined();
        expect(await store.findNumber(workspace, number.number)).toEqual(number);
        expect(await store.findNumber(otherWorkspace, number.number)).toBeUndefined();
      });

      test('a number is held by one workspace at a time across the platform', async () => {
        const number = numberRecord(workspace);
        await store.insertNumber(number);
        expect(await store.insertNumber(numberRecord(workspace, { number: number.number }))).toEqual({ kind: 'number_taken' });
        expect(await store.insertNumber(numberRecord(otherWorkspace, { number: number.number }))).toEqual({ kind: 'number_taken' });
        expect(await store.deleteNumber(workspace, number.id)).toBe(true);
        expect((await store.insertNumber(numberRecord(otherWorkspace, { number: number.number }))).kind).toBe('created');
      });

      test('heldNumbers names the numbers some workspace holds', async () => {
        const mine = numberRecord(workspace);
        const theirs = numberRecord(otherWorkspace);
        await store.insertNumber(mine);
        await store.insertNumber(theirs);
        const free = freshE164();
        expect(await store.heldNumbers([mine.number, theirs.number, free])).toEqual(new Set([mine.number, theirs.number]));
        expect(await store.heldNumbers([free])).toEqual(new Set());
        expect(await store.heldNumbers([])).toEqual(new Set());
      });

      test('listNumbers is newest first, paginated, with the workspace total', async () => {
        const created: NumberRecord[] = [];
        for (let i = 0; i < 4; i += 1) {
          const number = numberRecord(workspace);
          await store.insertNumber(number);
          created.push(number);
        }
        await store.insertNumber(numberRecord(otherWorkspace));
        const listed = await store.listNumbers(workspace, all);
        expect(listed.total).toBe(4);
        expect(listed.numbers).toEqual([...created].reverse());
        const page = await store.listNumbers(workspace, { limit: 2, offset: 1 });
        expect(page).toEqual({ numbers: [created[2], created[1]], total: 4 });
        expect(await store.listNumbers(newId(), all)).toEqual({ numbers: [], total: 0 });
      });

      test('updateNumber applies only the given changes, null clears a link, another workspace sees no number', async () => {
        const number = numberRecord(workspace, { assistantId: newId() });
        await store.insertNumber(number);
        const now = tick();
        const campaignId = newId();
        expect(await store.updateNumber(workspace, number.id, { smsOutboundEnabled: true, assistantId: null, a2pCampaignId: campaignId }, now)).toEqual({
          ...number,
          smsOutboundEnabled: true,
          assistantId: null,
          a2pCampaignId: campaignId,
          updatedAt: now,
        });
        const renamed = await store.updateNumber(workspace, number.id, { name: 'Sales' }, tick());
        expect([renamed?.name, renamed?.smsOutboundEnabled, renamed?.a2pCampaignId]).toEqual(['Sales', true, campaignId]);
        expect(await store.updateNumber(otherWorkspace, number.id, { name: 'hijacked' }, tick())).toBeUndefined();
        expect(await store.updateNumber(workspace, newId(), { name: 'ghost' }, tick())).toBeUndefined();
        expect((await store.getNumber(workspace, number.id))?.name).toBe('Sales');
      });

      test('deleteNumber removes only a number of the workspace, once', async () => {
        const number = numberRecord(workspace);
        await store.insertNumber(number);
        expect(await store.deleteNumber(otherWorkspace, number.id)).toBe(false);
        expect(await store.deleteNumber(workspace, number.id)).toBe(true);
        expect(await store.deleteNumber(workspace, number.id)).toBe(false);
        expect(await store.getNumber(workspace, number.id)).toBeUndefined();
      });
    });

    describe('carrier connections', () => {
      test('a connection reads back in its workspace, and by id alone for callbacks', async () => {
        const connection = connectionRecord(workspace);
        expect(await store.insertConnection(connection)).toEqual(connection);
        expect(await store.getConnection(workspace, connection.id)).toEqual(connection);
        expect(await store.getConnection(otherWorkspace, connection.id)).toBeUndefined();
        expect(await store.getConnectionById(connection.id)).toEqual(connection);
        expect(await store.getConnectionById(newId())).toBeUndefined();
      });

      test('listConnections is newest first, paginated, with the workspace total', async () => {
        const first = connectionRecord(workspace);
        const second = connectionRecord(workspace, { provider: 'sandbox', baseUrl: '' });
        const third = connectionRecord(workspace);
        for (const connection of [first, second, third, connectionRecord(otherWorkspace)]) await store.insertConnection(connection);
        expect(await store.listConnections(workspace, all)).toEqual({ connections: [third, second, first], total: 3 });
        expect(await store.listConnections(workspace, { limit: 1, offset: 2 })).toEqual({ connections: [first], total: 3 });
      });

      test('updateConnection applies only the given changes within the workspace', async () => {
        const connection = connectionRecord(workspace);
        await store.insertConnection(connection);
        const now = tick();
        expect(await store.updateConnection(workspace, connection.id, { sealedAuthToken: 'enc:v1:rotated', baseUrl: 'https://other.example' }, now)).toEqual({
          ...connection,
          sealedAuthToken: 'enc:v1:rotated',
          baseUrl: 'https://other.example',
          updatedAt: now,
        });
        expect(await store.updateConnection(otherWorkspace, connection.id, { name: 'hijacked' }, tick())).toBeUndefined();
        expect(await store.updateConnection(workspace, newId(), { name: 'ghost' }, tick())).toBeUndefined();
        expect((await store.getConnection(workspace, connection.id))?.name).toBe(connection.name);
      });

      test('deleteConnection refuses while a number uses the connection', async () => {
        const connection = connectionRecord(workspace);
        await store.insertConnection(connection);
        const number = numberRecord(workspace, { source: 'imported', carrierConnectionId: connection.id });
        await store.insertNumber(number);
        expect(await store.deleteConnection(workspace, connection.id)).toBe('in_use');
        expect(await store.getConnection(workspace, connection.id)).toEqual(connection);
        await store.deleteNumber(workspace, number.id);
        expect(await store.deleteConnection(otherWorkspace, connection.id)).toBe('not_found');
        expect(await store.deleteConnection(workspace, connection.id)).toBe('deleted');
        expect(await store.deleteConnection(workspace, connection.id)).toBe('not_found');
        expect(await store.getConnectionById(connection.id)).toBeUndefined();
      });

      test('deleteConnection refuses while a campaign uses the connection', async () => {
        const connection = connectionRecord(workspace);
        await store.insertConnection(connection);
        await store.insertCampaign(campaignRecord(workspace, connection.id));
        expect(await store.deleteConnection(workspace, connection.id)).toBe('in_use');
        expect(await store.getConnection(workspace, connection.id)).toEqual(connection);
      });
    });

    describe('SIP trunks', () => {
      const numbers = async (count: number, workspaceId = workspace): Promise<string[]> => {
        const ids: string[] = [];
        for (let made = 0; made < count; made++) {
          const number = numberRecord(workspaceId);
          await store.insertNumber(number);
          ids.push(number.id);
        }
        return ids;
      };

      test('a trunk is created with its numbers and reads back in its workspace only', async () => {
        const ids = await numbers(2);
        const trunk = sipTrunkRecord(workspace);
        expect(await store.insertSipTrunk(trunk, ids, 10)).toEqual({ kind: 'created', trunk: { ...trunk, numberIds: ids } });
        expect(await store.getSipTrunk(workspace, trunk.id)).toEqual({ ...trunk, numberIds: ids });
        expect(await store.getSipTrunk(otherWorkspace, trunk.id)).toBeUndefined();
        expect((await store.getNumber(workspace, ids[0]!))?.sipTrunkId).toBe(trunk.id);
      });

      test('listSipTrunks is newest first, paginated, each with its numbers', async () => {
        const [routed] = await numbers(1);
        const first = sipTrunkRecord(workspace, { sealedPassword: null, username: '' });
        const second = sipTrunkRecord(workspace);
        await store.insertSipTrunk(first, [routed!], 10);
        await store.insertSipTrunk(second, [], 10);
        await store.insertSipTrunk(sipTrunkRecord(otherWorkspace), [], 10);
        expect(await store.listSipTrunks(workspace, all)).toEqual({ trunks: [second, { ...first, numberIds: [routed] }], total: 2 });
        expect(await store.listSipTrunks(workspace, { limit: 1, offset: 1 })).toEqual({ trunks: [{ ...first, numberIds: [routed] }], total: 2 });
      });

      test('numbers of another workspace are not found, numbers of another trunk taken, and nothing is written', async () => {
        const [mine, taken] = await numbers(2);
        const [theirs] = await numbers(1, otherWorkspace);
        await store.insertSipTrunk(sipTrunkRecord(workspace), [taken!], 10);
        const trunk = sipTrunkRecord(workspace);
        expect(await store.insertSipTrunk(trunk, [mine!, theirs!], 10)).toEqual({ kind: 'numbers_not_found', ids: [theirs] });
        expect(await store.insertSipTrunk(trunk, [mine!, taken!], 10)).toEqual({ kind: 'numbers_taken', ids: [taken] });
        expect(await store.getSipTrunk(workspace, trunk.id)).toBeUndefined();
        expect((await store.getNumber(workspace, mine!))?.sipTrunkId).toBeNull();
      });

      test('a workspace holds at most the limit of trunks', async () => {
        await store.insertSipTrunk(sipTrunkRecord(workspace), [], 2);
        await store.insertSipTrunk(sipTrunkRecord(workspace), [], 2);
        expect(await store.insertSipTrunk(sipTrunkRecord(workspace), [], 2)).toEqual({ kind: 'limit_reached' });
        expect((await store.insertSipTrunk(sipTrunkRecord(otherWorkspace), [], 2)).kind).toBe('created');
      });

      test('updateSipTrunk applies the given changes and replaces the routed numbers', async () => {
        const [kept, dropped, added] = await numbers(3);
        const trunk = sipTrunkRecord(workspace);
        await store.insertSipTrunk(trunk, [kept!, dropped!], 10);
        const now = tick();
        const updated = await store.updateSipTrunk(workspace, trunk.id, { name: 'Branch', sealedPassword: null, username: '', numberIds: [kept!, added!] }, now);
        expect(updated).toEqual({ kind: 'updated', trunk: { ...trunk, name: 'Branch', sealedPassword: null, username: '', numberIds: [kept, added], updatedAt: now } });
        expect((await store.getNumber(workspace, dropped!))?.sipTrunkId).toBeNull();
        const renamed = await store.updateSipTrunk(workspace, trunk.id, { transport: 'tls' }, tick());
        expect(renamed.kind === 'updated' && renamed.trunk).toMatchObject({ transport: 'tls', numberIds: [kept, added] });
        expect(await store.updateSipTrunk(otherWorkspace, trunk.id, { name: 'hijacked' }, tick())).toEqual({ kind: 'not_found' });
        const other = sipTrunkRecord(workspace);
        await store.insertSipTrunk(other, [], 10);
        expect(await store.updateSipTrunk(workspace, other.id, { name: 'x', numberIds: [kept!] }, tick())).toEqual({ kind: 'numbers_taken', ids: [kept] });
        expect((await store.getSipTrunk(workspace, other.id))?.name).toBe('Office PBX');
      });

      test('deleteSipTrunk refuses while numbers are routed through it; a deleted number leaves it', async () => {
        const [routed] = await numbers(1);
        const trunk = sipTrunkRecord(workspace);
        await store.insertSipTrunk(trunk, [routed!], 10);
        expect(await store.deleteSipTrunk(workspace, trunk.id)).toBe('in_use');
        expect(await store.deleteSipTrunk(otherWorkspace, trunk.id)).toBe('not_found');
        await store.deleteNumber(workspace, routed!);
        expect((await store.getSipTrunk(workspace, trunk.id))?.numberIds).toEqual([]);
        expect(await store.deleteSipTrunk(workspace, trunk.id)).toBe('deleted');
        expect(await store.deleteSipTrunk(workspace, trunk.id)).toBe('not_found');
      });

      test('of two trunks racing for one number, one gets it', async () => {
        const [contested] = await numbers(1);
        const outcomes = await Promise.all([1, 2, 3].map(() => store.insertSipTrunk(sipTrunkRecord(workspace), [contested!], 10)));
        expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['created', 'numbers_taken', 'numbers_taken']);
      });
    });

    describe('caller IDs', () => {
      const wrong = { kind: 'wrong' as const, maxAttempts: 2 };

      test('a caller ID reads back in its workspace only, newest first, and is deleted there only', async () => {
        const first = callerIdRecord(workspace);
        const second = callerIdRecord(workspace);
        for (const callerId of [first, second, callerIdRecord(otherWorkspace)]) expect(await store.insertCallerId(callerId)).toEqual({ kind: 'created' });
        expect(await store.getCallerId(workspace, first.id)).toEqual(first);
        expect(await store.getCallerId(otherWorkspace, first.id)).toBeUndefined();
        expect(await store.listCallerIds(workspace, all)).toEqual({ callerIds: [second, first], total: 2 });
        expect(await store.listCallerIds(workspace, { limit: 1, offset: 1 })).toEqual({ callerIds: [first], total: 2 });
        expect(await store.deleteCallerId(otherWorkspace, first.id)).toBe(false);
        expect(await store.deleteCallerId(workspace, first.id)).toBe(true);
        expect(await store.getCallerId(workspace, first.id)).toBeUndefined();
      });

      test('a number has one live caller ID per workspace; a failed one, or one whose code expired, is replaced', async () => {
        const live = callerIdRecord(workspace);
        await store.insertCallerId(live);
        expect(await store.insertCallerId(callerIdRecord(workspace, { phoneNumber: live.phoneNumber }))).toEqual({ kind: 'exists' });
        expect((await store.insertCallerId(callerIdRecord(otherWorkspace, { phoneNumber: live.phoneNumber }))).kind).toBe('created');
        const afterExpiry = callerIdRecord(workspace, { phoneNumber: live.phoneNumber, createdAt: live.codeExpiresAt });
        expect(await store.insertCallerId(afterExpiry)).toEqual({ kind: 'created' });
        expect(await store.getCallerId(workspace, live.id)).toBeUndefined();
        const verified = callerIdRecord(workspace, { status: 'verified', verifiedAt: tick() });
        await store.insertCallerId(verified);
        expect(await store.insertCallerId(callerIdRecord(workspace, { phoneNumber: verified.phoneNumber, createdAt: '2030-01-01T00:00:00.000Z' }))).toEqual({ kind: 'exists' });
        const failed = callerIdRecord(workspace, { status: 'failed' });
        await store.insertCallerId(failed);
        expect((await store.insertCallerId(callerIdRecord(workspace, { phoneNumber: failed.phoneNumber }))).kind).toBe('created');
      });

      test('applyCode applies only to the state it was read in: wrong attempts count up and fail it, a right code verifies once', async () => {
        const callerId = callerIdRecord(workspace);
        await store.insertCallerId(callerId);
        const now = tick();
        expect(await store.applyCode(workspace, callerId.id, 0, wrong, now)).toEqual({ ...callerId, attempts: 1, updatedAt: now });
        expect(await store.applyCode(workspace, callerId.id, 0, wrong, tick())).toBeUndefined();
        expect(await store.applyCode(otherWorkspace, callerId.id, 1, wrong, tick())).toBeUndefined();
        expect(await store.applyCode(workspace, callerId.id, 1, wrong, tick())).toMatchObject({ status: 'failed', attempts: 2 });
        expect(await store.applyCode(workspace, callerId.id, 2, { kind: 'verified' }, tick())).toBeUndefined();

        const other = callerIdRecord(workspace);
        await store.insertCallerId(other);
        const at = tick();
        expect(await store.applyCode(workspace, other.id, 0, { kind: 'verified' }, at)).toEqual({ ...other, status: 'verified', verifiedAt: at, updatedAt: at });
        expect(await store.applyCode(workspace, other.id, 0, { kind: 'verified' }, tick())).toBeUndefined();
        expect(await store.verifiedCallerId(workspace, other.phoneNumber)).toMatchObject({ id: other.id });
        expect(await store.verifiedCallerId(workspace, callerId.phoneNumber)).toBeUndefined();
        expect(await store.verifiedCallerId(otherWorkspace, other.phoneNumber)).toBeUndefined();
      });

      test('of racing checks made against one state, one applies', async () => {
        const callerId = callerIdRecord(workspace);
        await store.insertCallerId(callerId);
        const applied = await Promise.all([1, 2, 3].map(() => store.applyCode(workspace, callerId.id, 0, { kind: 'verified' }, tick())));
        expect(applied.filter((record) => record !== undefined)).toHaveLength(1);
      });

      test('pruning deletes failed caller IDs and those whose code expired before the cut-off, the oldest first and at most the batch', async () => {
        const cutOff = '2027-01-01T00:00:00.000Z';
        const oldFailed = callerIdRecord(workspace, { status: 'failed', updatedAt: '2026-12-01T00:00:00.000Z' });
        const oldExpired = callerIdRecord(workspace, { codeExpiresAt: '2026-12-02T00:00:00.000Z', updatedAt: '2026-12-02T00:00:00.000Z' });
        const kept = [
          callerIdRecord(workspace, { status: 'verified', verifiedAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }),
          callerIdRecord(workspace, { status: 'failed', updatedAt: '2027-01-02T00:00:00.000Z' }),
          callerIdRecord(workspace, { codeExpiresAt: '2027-01-02T00:00:00.000Z' }),
        ];
        for (const callerId of [oldFailed, oldExpired, ...kept]) await store.insertCallerId(callerId);
        expect(await store.pruneUnverifiedCallerIds(cutOff, 1)).toBe(1);
        expect(await store.getCallerId(workspace, oldFailed.id)).toBeUndefined();
        expect(await store.pruneUnverifiedCallerIds(cutOff, 10)).toBe(1);
        expect(await store.getCallerId(workspace, oldExpired.id)).toBeUndefined();
        for (const callerId of kept) expect(await store.getCallerId(workspace, callerId.id)).toEqual(callerId);
        expect(await store.pruneUnverifiedCallerIds(cutOff, 10)).toBe(0);
      });

      test('recordCodeSent adds the capture of its price to the outbox, and nothing for a caller ID that is gone', async () => {
        const callerId = callerIdRecord(workspace);
        await store.insertCallerId(callerId);
        const before = (await pendingEvents()).length;
        const event = { id: newId(), subject: 'usage.telephony.sms', payload: new Uint8Array([7]) };
        expect(await store.recordCodeSent(callerId.id, event, tick())).toBe(true);
        expect((await pendingEvents()).map((pending) => pending.id)).toContain(event.id);
        expect(await store.recordCodeSent(newId(), { ...event, id: newId() }, tick())).toBe(false);
        expect((await pendingEvents()).length).toBe(before + 1);
      });
    });

    describe('A2P campaigns', () => {
      test('a campaign reads back whole, and only in its own workspace', async () => {
        const campaign = campaignRecord(workspace, newId());
        expect(await store.insertCampaign(campaign)).toEqual(campaign);
        expect(await store.getCampaign(workspace, campaign.id)).toEqual(campaign);
        expect(await store.getCampaign(otherWorkspace, campaign.id)).toBeUndefined();
      });

      test('listCampaigns is newest first, paginated, with the workspace total', async () => {
        const connectionId = newId();
        const older = campaignRecord(workspace, connectionId);
        const newer = campaignRecord(workspace, connectionId, { sampleMessages: [] });
        for (const campaign of [older, newer, campaignRecord(otherWorkspace, connectionId)]) await store.insertCampaign(campaign);
        expect(await store.listCampaigns(workspace, all)).toEqual({ campaigns: [newer, older], total: 2 });
        expect(await store.listCampaigns(workspace, { limit: 1, offset: 0 })).toEqual({ campaigns: [newer], total: 2 });
      });

      test('only the pending campaign of the reporting connection takes a verdict, once', async () => {
        const connectionId = newId();
        const campaign = campaignRecord(workspace, connectionId);
        await store.insertCampaign(campaign);
        expect(await store.setCampaignStatus(newId(), campaign.id, 'approved', '', tick())).toBeUndefined();
        expect(await store.setCampaignStatus(connectionId, newId(), 'approved', '', tick())).toBeUndefined();
        expect(await store.getCampaign(workspace, campaign.id)).toEqual(campaign);

        const now = tick();
        const rejected = { ...campaign, status: 'rejected' as const, rejectionReason: 'sample messages lack opt-out', updatedAt: now };
        expect(await store.setCampaignStatus(connectionId, campaign.id, 'rejected', 'sample messages lack opt-out', now)).toEqual(rejected);
        // A decided campaign stays as it is.
        expect(await store.setCampaignStatus(connectionId, campaign.id, 'approved', '', tick())).toEqual(rejected);
        expect(await store.getCampaign(workspace, campaign.id)).toEqual(rejected);
      });

      test('an approval keeps no rejection reason', async () => {
        const connectionId = newId();
        const campaign = campaignRecord(workspace, connectionId);
        await store.insertCampaign(campaign);
        const approved = await store.setCampaignStatus(connectionId, campaign.id, 'approved', 'ignored', tick());
        expect([approved?.status, approved?.rejectionReason]).toEqual(['approved', '']);
      });
    });

    describe('suppression list', () => {
      test('a number is on a workspace list at most once, and lists are per workspace', async () => {
        const entry = suppressionRecord(workspace);
        expect(await store.insertSuppression(entry)).toEqual({ kind: 'created', entry });
        expect(await store.insertSuppression(suppressionRecord(workspace, { number: entry.number }))).toEqual({ kind: 'exists' });
        expect((await store.insertSuppression(suppressionRecord(otherWorkspace, { number: entry.number }))).kind).toBe('created');
        expect(await store.isSuppressed(workspace, entry.number)).toBe(true);
        expect(await store.isSuppressed(workspace, freshE164())).toBe(false);
        expect(await store.isSuppressed(newId(), entry.number)).toBe(false);
      });

      test('suppressedAmong answers the listed numbers of the workspace among many, each once', async () => {
        const listed = [suppressionRecord(workspace), suppressionRecord(workspace)];
        for (const entry of [...listed, suppressionRecord(otherWorkspace)]) await store.insertSuppression(entry);
        const others = Array.from({ length: 1500 }, () => freshE164());
        const asked = [...others.slice(0, 700), listed[0]!.number, ...others.slice(700), listed[1]!.number, listed[0]!.number];
        expect((await store.suppressedAmong(workspace, asked)).sort()).toEqual(listed.map((entry) => entry.number).sort());
        expect(await store.suppressedAmong(workspace, [])).toEqual([]);
        expect(await store.suppressedAmong(newId(), asked)).toEqual([]);
      });

      test('listSuppressions is newest first, paginated, with the workspace total', async () => {
        const entries = [suppressionRecord(workspace), suppressionRecord(workspace), suppressionRecord(workspace)];
        for (const entry of [...entries, suppressionRecord(otherWorkspace)]) await store.insertSuppression(entry);
        expect(await store.listSuppressions(workspace, all)).toEqual({ entries: [...entries].reverse(), total: 3 });
        expect(await store.listSuppressions(workspace, { limit: 1, offset: 1 })).toEqual({ entries: [entries[1]], total: 3 });
      });

      test('deleteSuppression removes only an entry of the workspace, once', async () => {
        const entry = suppressionRecord(workspace);
        await store.insertSuppression(entry);
        expect(await store.deleteSuppression(otherWorkspace, entry.id)).toBe(false);
        expect(await store.deleteSuppression(workspace, entry.id)).toBe(true);
        expect(await store.deleteSuppression(workspace, entry.id)).toBe(false);
        expect(await store.isSuppressed(workspace, entry.number)).toBe(false);
      });
    });

    describe('sending', () => {
      test('a begun message stays out of sight until the carrier takes it', async () => {
        const message = messageRecord(workspace, { status: 'queued', carrierMessageId: 'SMfilled-in' });
        expect(await store.beginSend(message)).toEqual({ kind: 'begun' });
        expect(await store.getMessage(workspace, message.id)).toBeUndefined();
        expect(await store.listMessages(workspace, {}, all)).toEqual({ messages: [], total: 0 });
        expect(await store.listMessages(workspace, { status: 'sending' }, all)).toEqual({ messages: [], total: 0 });
      });

      test('acceptSend queues the message with the carrier id and adds exactly its usage event', async () => {
        const connectionId = newId();
        const message = messageRecord(workspace, { carrierConnectionId: connectionId, creditUnits: 250 });
        await store.beginSend(message);
        const before = await pendingEvents();
        const now = tick();
        const event = usageEvent(message);
        const accepted = await store.acceptSend(message.id, 'SM-accepted', event, now, eventOf('status'));
        expect(accepted).toEqual({ ...message, status: 'queued', carrierMessageId: 'SM-accepted', updatedAt: now });
        expect(await store.getMessage(workspace, message.id)).toEqual(accepted);
        expect(await store.getMessage(otherWorkspace, message.id)).toBeUndefined();

        const after = await pendingEvents();
        expect(after).toHaveLength(before.length + 1);
        const added = after.filter((e) => e.id === event.id);
        expect(added).toHaveLength(1);
        expect(added[0]!.subject).toBe(event.subject);
        expect(Array.from(added[0]!.payload)).toEqual(Array.from(event.payload));
      });

      test('a free message is accepted without an event', async () => {
        const message = messageRecord(workspace, { creditUnits: 0 });
        await store.beginSend(message);
        const before = await pendingEvents();
        expect((await store.acceptSend(message.id, `SM${newId()}`, undefined, tick(), eventOf('status')))?.status).toBe('queued');
        expect(await pendingEvents()).toHaveLength(before.length);
      });

      test('a message is accepted once; a second answer changes nothing and adds no event', async () => {
        const { message } = await sent(messageRecord(workspace));
        const before = await pendingEvents();
        expect(await store.acceptSend(message.id, 'SM-again', usageEvent(message), tick(), eventOf('status'))).toBeUndefined();
        expect(await store.acceptSend(newId(), 'SM-ghost', usageEvent(message), tick(), eventOf('status'))).toBeUndefined();
        expect(await pendingEvents()).toHaveLength(before.length);
        expect(await store.getMessage(workspace, message.id)).toEqual(message);
      });

      test('abandonSend leaves no message or claim behind, and adds exactly the release event given', async () => {
        const message = messageRecord(workspace, { creditUnits: 400 });
        const before = await pendingEvents();
        expect(await store.beginSend(message, claim('key-abandon', 'fp'))).toEqual({ kind: 'begun' });
        const release = usageEvent(message);
        expect(await store.abandonSend(message.id, release)).toBe(true);
        expect(await store.getMessage(workspace, message.id)).toBeUndefined();
        expect(await store.interruptedSends(tick(), 10_000)).not.toContainEqual(expect.objectContaining({ id: message.id }));
        const after = await pendingEvents();
        expect(after).toHaveLength(before.length + 1);
        expect(after.filter((event) => event.id === release.id)).toHaveLength(1);
        // The key is free again, even for another body; an abandon without an event adds none.
        const retry = messageRecord(workspace, { creditUnits: 400, body: 'Another body' });
        expect(await store.beginSend(retry, claim('key-abandon', 'fp-other'))).toEqual({ kind: 'begun' });
        expect(await store.abandonSend(retry.id)).toBe(true);
        expect(await pendingEvents()).toHaveLength(before.length + 1);
      });

      test('abandonSend of an accepted (or unknown) message changes nothing and adds no event', async () => {
        const { message } = await sent(messageRecord(workspace, { creditUnits: 300 }));
        const before = await pendingEvents();
        expect(await store.abandonSend(message.id, usageEvent(message))).toBe(false);
        expect(await store.abandonSend(newId(), usageEvent(message))).toBe(false);
        expect(await store.getMessage(workspace, message.id)).toEqual(message);
        expect(await pendingEvents()).toHaveLength(before.length);
      });

      test('interruptedSends lists the sends still waiting that began before the instant, oldest first', async () => {
        const mine = (messages: MessageRecord[]) => messages.filter((message) => message.workspaceId === workspace);
        const oldest = messageRecord(workspace, { creditUnits: 10 });
        const older = messageRecord(workspace, { creditUnits: 20, carrierConnectionId: newId() });
        const answered = messageRecord(workspace);
        await store.beginSend(older);
        await store.beginSend(oldest);
        await sent(answered);
        const cutOff = tick();
        const young = messageRecord(workspace);
        await store.beginSend(young);

        expect(mine(await store.interruptedSends(cutOff, 100))).toEqual([awaitingCarrier(oldest), awaitingCarrier(older)]);
        expect(mine(await store.interruptedSends(young.createdAt, 1))).toHaveLength(1);
        await store.abandonSend(oldest.id);
        expect(mine(await store.interruptedSends(cutOff, 100)).map((message) => message.id)).toEqual([older.id]);
      });

      test('unrecordedCarrierIds keeps the ids no message of that connection holds, in order', async () => {
        const connectionId = newId();
        const { carrierMessageId: onConnection } = await sent(messageRecord(workspace, { carrierConnectionId: connectionId }));
        const { carrierMessageId: onPlatform } = await sent(messageRecord(workspace));
        expect(await store.unrecordedCarrierIds(connectionId, ['SM-new-1', onConnection, onPlatform, 'SM-new-2'])).toEqual(['SM-new-1', onPlatform, 'SM-new-2']);
        expect(await store.unrecordedCarrierIds(null, [onConnection, onPlatform])).toEqual([onConnection]);
        expect(await store.unrecordedCarrierIds(newId(), [])).toEqual([]);
      });

      test('carrier message ids are unique per connection, and the platform carrier is a connection of its own', async () => {
        const before = await pendingEvents();
        const connectionId = newId();
        const { carrierMessageId: carrierId } = await sent(messageRecord(workspace, { carrierConnectionId: connectionId }));
        for (const carrierConnectionId of [newId(), null]) {
          const message = messageRecord(workspace, { carrierConnectionId });
          await store.beginSend(message);
          expect((await store.acceptSend(message.id, carrierId, usageEvent(message), tick(), eventOf('status')))?.carrierMessageId).toBe(carrierId);
        }
        const duplicate = messageRecord(workspace, { carrierConnectionId: connectionId });
        await store.beginSend(duplicate);
        // better-sqlite3's errors come from another realm in a reused worker: check the rejection by hand.
        const refused = await store.acceptSend(duplicate.id, carrierId, usageEvent(duplicate), tick(), eventOf('status')).then(() => false, () => true);
        expect(refused).toBe(true);
        expect(await pendingEvents()).toHaveLength(before.length + 3);
      });
    });

    describe('idempotency claims', () => {
      test('the same key and body is in progress while the carrier has it, then replays the message as first answered', async () => {
        const message = messageRecord(workspace, { creditUnits: 100 });
        expect(await store.beginSend(message, claim('key-1', 'fp-a'))).toEqual({ kind: 'begun' });
        expect(await store.beginSend(messageRecord(workspace), claim('key-1', 'fp-a'))).toEqual({ kind: 'in_progress' });
        expect(await store.claimedSend(workspace, claim('key-1', 'fp-a'))).toEqual({ kind: 'in_progress' });

        const accepted = await store.acceptSend(message.id, 'SM-1', usageEvent(message), tick(), eventOf('status'));
        expect(await store.beginSend(messageRecord(workspace), claim('key-1', 'fp-a'))).toEqual({
          kind: 'replayed',
          message: accepted,
        });
        const delivered = await store.applyDelivery(null, 'SM-1', { status: 'delivered', at: tick() }, eventOf('status'));
        expect(delivered?.status).toBe('delivered');
        // The first response, not the message as it is now.
        expect(await store.beginSend(messageRecord(workspace), claim('key-1', 'fp-a'))).toEqual({
          kind: 'replayed',
          message: accepted,
        });
        expect(await store.claimedSend(workspace, claim('key-1', 'fp-a'))).toEqual({ kind: 'replayed', message: accepted });
        // Nothing but the first send began.
        expect((await store.listMessages(workspace, {}, all)).total).toBe(1);
        expect(await store.interruptedSends(tick(), 10_000)).not.toContainEqual(expect.objectContaining({ workspaceId: workspace }));
      });

      test('claimedSend reads what a key decides without taking it: unknown, reused, expired, or another workspace go ahead', async () => {
        expect(await store.claimedSend(workspace, claim('key-read', 'fp-a'))).toBeUndefined();
        const message = messageRecord(workspace);
        await store.beginSend(message, claim('key-read', 'fp-a'));
        expect(await store.claimedSend(workspace, claim('key-read', 'fp-b'))).toEqual({ kind: 'key_reused' });
        expect(await store.claimedSend(otherWorkspace, claim('key-read', 'fp-a'))).toBeUndefined();
        expect(await store.claimedSend(workspace, claim('key-read', 'fp-a', { expiredBefore: '2999-01-01T00:00:00.000Z' }))).toBeUndefined();
        // Reading took nothing: a send under a fresh key in the other workspace begins.
        const other = messageRecord(otherWorkspace);
        expect(await store.beginSend(other, claim('key-read', 'fp-a'))).toEqual({ kind: 'begun' });
      });

      test('a key replaced after expiry replays its new message, not the old first response', async () => {
        const first = messageRecord(workspace);
        await store.beginSend(first, claim('key-renew', 'fp-a'));
        await store.acceptSend(first.id, 'SM-renew-1', usageEvent(first), tick(), eventOf('status'));
        const second = messageRecord(workspace);
        expect(await store.beginSend(second, claim('key-renew', 'fp-a', { expiredBefore: '2999-01-01T00:00:00.000Z' }))).toEqual({ kind: 'begun' });
        expect(await store.claimedSend(workspace, claim('key-renew', 'fp-a'))).toEqual({ kind: 'in_progress' });
        const accepted = await store.acceptSend(second.id, 'SM-renew-2', usageEvent(second), tick(), eventOf('status'));
        expect(await store.claimedSend(workspace, claim('key-renew', 'fp-a'))).toEqual({ kind: 'replayed', message: accepted });
      });

      test('the same key with another body is refused, and nothing begins', async () => {
        const message = messageRecord(workspace, { creditUnits: 1000 });
        await store.beginSend(message, claim('key-2', 'fp-a'));
        const other = messageRecord(workspace, { creditUnits: 500 });
        expect(await store.beginSend(other, claim('key-2', 'fp-b'))).toEqual({ kind: 'key_reused' });
        expect(await store.beginSend(other, claim('key-2', 'fp-a'))).toEqual({ kind: 'in_progress' });
        expect((await store.interruptedSends(tick(), 10_000)).filter((waiting) => waiting.workspaceId === workspace).map((waiting) => waiting.id)).toEqual([message.id]);
      });

      test('an expired claim is replaced by the new send', async () => {
        const first = messageRecord(workspace);
        await store.beginSend(first, claim('key-3', 'fp-a'));
        const later = messageRecord(workspace);
        const expired = { expiredBefore: '2999-01-01T00:00:00.000Z' };
        expect(await store.beginSend(later, claim('key-3', 'fp-b', expired))).toEqual({ kind: 'begun' });
        // The key now names the later send.
        const accepted = await store.acceptSend(later.id, 'SM-later', usageEvent(later), tick(), eventOf('status'));
        expect(await store.beginSend(messageRecord(workspace), claim('key-3', 'fp-b'))).toEqual({ kind: 'replayed', message: accepted });
        expect(await store.beginSend(messageRecord(workspace), claim('key-3', 'fp-a'))).toEqual({ kind: 'key_reused' });
      });

      test('a claim binds only its own workspace', async () => {
        const mine = messageRecord(workspace);
        await store.beginSend(mine, claim('key-4', 'fp-a'));
        const theirs = messageRecord(otherWorkspace);
        expect(await store.beginSend(theirs, claim('key-4', 'fp-b'))).toEqual({ kind: 'begun' });
      });

      test('pruning deletes claims made before the cut-off, the oldest first and at most the batch; their keys are free again', async () => {
        const [oldest, old, young] = [messageRecord(workspace), messageRecord(workspace), messageRecord(workspace)];
        await store.beginSend(oldest, claim('key-oldest', 'fp'));
        await store.beginSend(old, claim('key-old', 'fp'));
        const cutOff = tick();
        await store.beginSend(young, claim('key-young', 'fp'));
        expect(await store.pruneSendClaims(cutOff, 1)).toBe(1);
        expect(await store.claimedSend(workspace, claim('key-oldest', 'fp'))).toBeUndefined();
        expect(await store.claimedSend(workspace, claim('key-old', 'fp'))).toEqual({ kind: 'in_progress' });
        expect(await store.pruneSendClaims(cutOff, 10)).toBe(1);
        expect(await store.pruneSendClaims(cutOff, 10)).toBe(0);
        expect(await store.claimedSend(workspace, claim('key-old', 'fp'))).toBeUndefined();
        expect(await store.claimedSend(workspace, claim('key-young', 'fp'))).toEqual({ kind: 'in_progress' });
        // The messages themselves stay.
        expect((await store.interruptedSends(tick(), 10_000)).filter((waiting) => waiting.workspaceId === workspace)).toHaveLength(3);
      });

      test('concurrent sends under one key begin once', async () => {
        const outcomes = await Promise.all(Array.from({ length: 8 }, () => store.beginSend(messageRecord(workspace, { creditUnits: 100 }), claim('key-6', 'fp'))));
        expect(outcomes.filter((o) => o.kind === 'begun')).toHaveLength(1);
        expect(outcomes.filter((o) => o.kind === 'in_progress')).toHaveLength(7);
        expect((await store.interruptedSends(tick(), 10_000)).filter((waiting) => waiting.workspaceId === workspace)).toHaveLength(1);
      });
    });

    describe('delivery reports', () => {
      test('a report for an unknown carrier id, or under another connection, finds nothing', async () => {
        const connectionId = newId();
        const { carrierMessageId } = await sent(messageRecord(workspace, { carrierConnectionId: connectionId }));
        expect(await store.applyDelivery(connectionId, 'SM-unknown', { status: 'sent', at: tick() }, eventOf('status'))).toBeUndefined();
        expect(await store.applyDelivery(newId(), carrierMessageId, { status: 'sent', at: tick() }, eventOf('status'))).toBeUndefined();
        expect(await store.applyDelivery(null, carrierMessageId, { status: 'sent', at: tick() }, eventOf('status'))).toBeUndefined();
        expect((await store.applyDelivery(connectionId, carrierMessageId, { status: 'sent', at: tick() }, eventOf('status')))?.status).toBe('sent');
      });

      test('states move forward only, and delivered is final', async () => {
        const { message, carrierMessageId } = await sent(messageRecord(workspace));
        const sentAt = tick();
        const sentMessage = { ...message, status: 'sent' as const, updatedAt: sentAt };
        expect(await store.applyDelivery(null, carrierMessageId, { status: 'sent', at: sentAt }, eventOf('status'))).toEqual(sentMessage);
        expect(await store.applyDelivery(null, carrierMessageId, { status: 'queued', at: tick() }, eventOf('status'))).toEqual(sentMessage);
        expect(await store.applyDelivery(null, carrierMessageId, { status: 'sent', at: tick() }, eventOf('status'))).toEqual(sentMessage);
        const deliveredAt = tick();
        const delivered = { ...message, status: 'delivered' as const, updatedAt: deliveredAt };
        expect(await store.applyDelivery(null, carrierMessageId, { status: 'delivered', at: deliveredAt }, eventOf('status'))).toEqual(delivered);
        expect(await store.applyDelivery(null, carrierMessageId, { status: 'failed', failureReason: 'late', at: tick() }, eventOf('status'))).toEqual(delivered);
        expect(await store.applyDelivery(null, carrierMessageId, { status: 'sent', at: tick() }, eventOf('status'))).toEqual(delivered);
        expect(await store.getMessage(workspace, message.id)).toEqual(delivered);
        // An event for each move forward, none for the reports that changed nothing.
        expect(await eventsOf('status')).toEqual([`${message.id} ${sentAt}`, `${message.id} ${deliveredAt}`]);
      });

      test('failed keeps its reason and is final, even straight from queued', async () => {
        const connectionId = newId();
        const { message, carrierMessageId } = await sent(messageRecord(workspace, { carrierConnectionId: connectionId }));
        const failedAt = tick();
        const failed = { ...message, status: 'failed' as const, failureReason: 'unreachable handset', updatedAt: failedAt };
        expect(await store.applyDelivery(connectionId, carrierMessageId, { status: 'failed', failureReason: 'unreachable handset', at: failedAt }, eventOf('status'))).toEqual(failed);
        expect(await store.applyDelivery(connectionId, carrierMessageId, { status: 'delivered', at: tick() }, eventOf('status'))).toEqual(failed);
        expect(await store.applyDelivery(connectionId, carrierMessageId, { status: 'failed', failureReason: 'other', at: tick() }, eventOf('status'))).toEqual(failed);
      });

      test('reports that come before the acceptance is recorded are kept, and the acceptance applies them with an event per move', async () => {
        const connectionId = newId();
        const message = messageRecord(workspace, { carrierConnectionId: connectionId });
        await store.beginSend(message);
        const carrierMessageId = `SM${newId()}`;
        expect(await store.applyDelivery(connectionId, carrierMessageId, { status: 'sent', at: tick() }, eventOf('status'))).toBeUndefined();
        // The same carrier id under the platform's carrier is another message.
        expect(await store.applyDelivery(null, carrierMessageId, { status: 'failed', failureReason: 'not this one', at: tick() }, eventOf('status'))).toBeUndefined();
        expect(await store.applyDelivery(connectionId, carrierMessageId, { status: 'delivered', at: tick() }, eventOf('status'))).toBeUndefined();
        expect(await store.applyDelivery(connectionId, carrierMessageId, { status: 'queued', at: tick() }, eventOf('status'))).toBeUndefined();
        expect(await eventsOf('status')).toEqual([]);

        const acceptedAt = tick();
        const delivered = { ...message, status: 'delivered' as const, carrierMessageId, updatedAt: acceptedAt };
        expect(await store.acceptSend(message.id, carrierMessageId, usageEvent(message), acceptedAt, eventOf('status'))).toEqual(delivered);
        expect(await store.getMessage(workspace, message.id)).toEqual(delivered);
        // Queued to sent, then sent to delivered; the late queued changed nothing.
        expect(await eventsOf('status')).toEqual([`${message.id} ${acceptedAt}`, `${message.id} ${acceptedAt}`]);
        // They were taken: reports from now on move the message as usual.
        expect(await store.applyDelivery(connectionId, carrierMessageId, { status: 'failed', failureReason: 'late', at: tick() }, eventOf('status'))).toEqual(delivered);
        expect(await eventsOf('status')).toHaveLength(2);
      });

      test('an early failure keeps its reason once the acceptance applies it', async () => {
        const message = messageRecord(workspace);
        await store.beginSend(message);
        const carrierMessageId = `SM${newId()}`;
        expect(await store.applyDelivery(null, carrierMessageId, { status: 'failed', failureReason: 'unreachable handset', at: tick() }, eventOf('status'))).toBeUndefined();
        const acceptedAt = tick();
        const failed = { ...message, status: 'failed' as const, failureReason: 'unreachable handset', carrierMessageId, updatedAt: acceptedAt };
        expect(await store.acceptSend(message.id, carrierMessageId, usageEvent(message), acceptedAt, eventOf('status'))).toEqual(failed);
        expect(await eventsOf('status')).toEqual([`${message.id} ${acceptedAt}`]);
      });

      test('a report racing the acceptance is never lost, and moves its message once', async () => {
        const messages = Array.from({ length: 12 }, () => messageRecord(workspace));
        for (const message of messages) {
          await store.beginSend(message);
          const carrierMessageId = `SM${newId()}`;
          await Promise.all([
            store.applyDelivery(null, carrierMessageId, { status: 'delivered', at: tick() }, eventOf('status')),
            store.acceptSend(message.id, carrierMessageId, usageEvent(message), tick(), eventOf('status')),
          ]);
          expect((await store.getMessage(workspace, message.id))?.status).toBe('delivered');
        }
        const moved = (await eventsOf('status')).map((event) => event.split(' ')[0]);
        expect(moved.sort()).toEqual(messages.map((message) => message.id).sort());
      });

      test('pruning deletes the reports kept before the cut-off, the oldest first and at most the batch', async () => {
        const keep = async (carrierMessageId: string) =>
          expect(await store.applyDelivery(null, carrierMessageId, { status: 'delivered', at: tick() }, eventOf('status'))).toBeUndefined();
        const [oldest, old, young] = [`SM${newId()}`, `SM${newId()}`, `SM${newId()}`];
        await keep(oldest);
        await keep(old);
        const cutOff = tick();
        await keep(young);
        expect(await store.pruneEarlyReports(cutOff, 1)).toBe(1);
        expect(await store.pruneEarlyReports(cutOff, 10)).toBe(1);
        expect(await store.pruneEarlyReports(cutOff, 10)).toBe(0);
        // What was pruned no longer moves the message that finally holds its id; what is younger still does.
        const [late, recent] = [messageRecord(workspace), messageRecord(workspace)];
        await store.beginSend(late);
        await store.beginSend(recent);
        expect((await store.acceptSend(late.id, oldest, usageEvent(late), tick(), eventOf('status')))?.status).toBe('queued');
        expect((await store.acceptSend(recent.id, young, usageEvent(recent), tick(), eventOf('status')))?.status).toBe('delivered');
      });
    });

    describe('listing messages', () => {
      test('newest first, filtered by status, paginated, never showing sends in flight', async () => {
        const accepted: MessageRecord[] = [];
        for (let i = 0; i < 4; i += 1) accepted.push((await sent(messageRecord(workspace))).message);
        await store.beginSend(messageRecord(workspace));
        const delivered = await store.applyDelivery(null, accepted[1]!.carrierMessageId!, { status: 'delivered', at: tick() }, eventOf('status'));

        const listed = await store.listMessages(workspace, {}, all);
        expect(listed.total).toBe(4);
        expect(listed.messages.map((m) => m.id)).toEqual([...accepted].reverse().map((m) => m.id));
        expect(await store.listMessages(workspace, { status: 'delivered' }, all)).toEqual({ messages: [delivered], total: 1 });
        const queued = await store.listMessages(workspace, { status: 'queued' }, { limit: 2, offset: 0 });
        expect(queued.total).toBe(3);
        expect(queued.messages.map((m) => m.id)).toEqual([accepted[3]!.id, accepted[2]!.id]);
        expect(await store.listMessages(workspace, { status: 'queued' }, { limit: 2, offset: 2 })).toEqual({ messages: [accepted[0]], total: 3 });
        expect(await store.listMessages(otherWorkspace, {}, all)).toEqual({ messages: [], total: 0 });
      });

      test('filtered by a number they are from or to, and by creation time', async () => {
        const first = (await sent(messageRecord(workspace, { from: '+15550001001', to: '+15550002001' }))).message;
        const second = (await sent(messageRecord(workspace, { from: '+15550001001', to: '+15550002002' }))).message;
        const third = (await sent(messageRecord(workspace, { from: '+15550001002', to: '+15550001001' }))).message;
        const ids = async (filter: Parameters<TelephonyStore['listMessages']>[1]) => (await store.listMessages(workspace, filter, all)).messages.map((m) => m.id);
        expect(await ids({ number: '+15550002001' })).toEqual([first.id]);
        expect(await ids({ number: '+15550001001' })).toEqual([third.id, second.id, first.id]);
        expect(await ids({ number: '+15550001001', createdFrom: second.createdAt })).toEqual([third.id, second.id]);
        expect(await ids({ number: '+15550001001', createdTo: second.createdAt })).toEqual([first.id]);
        expect(await ids({ createdFrom: second.createdAt, createdTo: third.createdAt })).toEqual([second.id]);
        expect((await store.listMessages(otherWorkspace, { number: '+15550001001' }, all)).total).toBe(0);
      });
    });
  });
}
