// The behaviour every WebhooksStore must have, written once and run against each adapter.
import { newId } from '@voice/runtime/ids';
import type { DeliveryRecord, EndpointRecord, EventRecord, WebhooksStore } from '../src/store/store.js';
import type { OpenSameStorage, OpenStore } from '../../runtime/test/store-contract.js';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const tick = (): string => new Date((clock += 1000)).toISOString();
const page = { limit: 50, offset: 0 };

export function endpointRecord(workspaceId: string, overrides: Partial<EndpointRecord> = {}): EndpointRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    url: 'https://hooks.example.com/voice',
    description: 'orders',
    eventTypes: ['sms.status', 'balance.low'],
    enabled: true,
    secrets: [{ sealed: 'enc:v1:sealed', hint: 'whsec_…abcd', expiresAt: null }],
    failingSince: null,
    disabledReason: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function eventOf(workspaceId: string, type = 'sms.status'): EventRecord {
  const id = newId();
  const createdAt = tick();
  return { id, workspaceId, type, body: JSON.stringify({ id, type, created_at: createdAt, data: {} }), createdAt };
}

export function deliveryOf(event: EventRecord, endpoint: EndpointRecord, overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id: newId(),
    workspaceId: event.workspaceId,
    endpointId: endpoint.id,
    eventId: event.id,
    eventType: event.type,
    status: 'pending',
    attempts: [],
    nextAttemptAt: event.createdAt,
    giveUpAt: '2026-12-31T00:00:00.000Z',
    createdAt: event.createdAt,
    deliveredAt: null,
    ...overrides,
  };
}

export function webhooksStoreContract(open: OpenStore<WebhooksStore>, openSameStorage: OpenSameStorage<WebhooksStore>): void {
  let store: WebhooksStore;
  let workspace: string;

  beforeEach(async () => {
    store = await open();
    workspace = newId();
  });
  afterEach(() => store.close());

  test('endpoints are read and listed newest first in their workspace only', async () => {
    const first = endpointRecord(workspace);
    const second = endpointRecord(workspace, { eventTypes: ['ping'] });
    await store.createEndpoint(first);
    await store.createEndpoint(second);
    await store.createEndpoint(endpointRecord(newId()));
    expect(await store.getEndpoint(workspace, first.id)).toEqual(first);
    expect(await store.getEndpoint(newId(), first.id)).toBeUndefined();
    expect(await store.listEndpoints(workspace, page)).toEqual({ endpoints: [second, first], total: 2 });
    expect(await store.listEndpoints(workspace, { limit: 1, offset: 1 })).toEqual({ endpoints: [first], total: 2 });
  });

  test('subscribed endpoints are the enabled ones of the workspace that want the type', async () => {
    const wants = endpointRecord(workspace);
    await store.createEndpoint(wants);
    await store.createEndpoint(endpointRecord(workspace, { eventTypes: ['number.released'] }));
    await store.createEndpoint(endpointRecord(workspace, { enabled: false }));
    await store.createEndpoint(endpointRecord(newId()));
    expect((await store.subscribedEndpoints(workspace, 'sms.status')).map((endpoint) => endpoint.id)).toEqual([wants.id]);
  });

  test('an update changes what it names; disabling fails pending deliveries, enabling clears the failure clock', async () => {
    const endpoint = endpointRecord(workspace, { failingSince: '2026-01-01T00:00:00.000Z', disabledReason: 'failing', enabled: false });
    await store.createEndpoint(endpoint);
    const at = tick();
    const enabled = await store.updateEndpoint(workspace, endpoint.id, { enabled: true, description: 'billing' }, at);
    expect(enabled).toEqual({ ...endpoint, enabled: true, description: 'billing', failingSince: null, disabledReason: null, updatedAt: at });
    expect(await store.getEndpoint(workspace, endpoint.id)).toEqual(enabled);
    const event = eventOf(workspace);
    const delivery = deliveryOf(event, endpoint);
    await store.addEvent(event, [delivery]);
    await store.updateEndpoint(workspace, endpoint.id, { enabled: false }, tick());
    expect(await store.getDelivery(workspace, endpoint.id, delivery.id)).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(await store.updateEndpoint(newId(), endpoint.id, { enabled: true }, tick())).toBeUndefined();
  });

  test('an event is stored once with its deliveries: a second copy changes nothing', async () => {
    const endpoint = endpointRecord(workspace);
    await store.createEndpoint(endpoint);
    const event = eventOf(workspace);
    const delivery = deliveryOf(event, endpoint);
    expect(await store.addEvent(event, [delivery])).toBe(true);
    expect(await store.addEvent(event, [deliveryOf(event, endpoint)])).toBe(false);
    expect(await store.listDeliveries(workspace, endpoint.id, {}, page)).toEqual({ deliveries: [delivery], total: 1 });
    expect(await store.getDelivery(newId(), endpoint.id, delivery.id)).toBeUndefined();
  });

  test('due deliveries are claimed once, held, and recorded; a failure starts the endpoint’s failure clock and a success clears it', async () => {
    const endpoint = endpointRecord(workspace);
    await store.createEndpoint(endpoint);
    const event = eventOf(workspace);
    const delivery = deliveryOf(event, endpoint, { nextAttemptAt: '2026-02-01T00:00:00.000Z' });
    await store.addEvent(event, [delivery]);
    expect(await store.claimDue('2026-01-31T00:00:00.000Z', '2026-01-31T00:01:00.000Z', 10)).toEqual([]);
    const [claimed, ...more] = await store.claimDue('2026-02-01T00:00:00.000Z', '2026-02-01T00:01:00.000Z', 10);
    expect(more).toEqual([]);
    expect(claimed).toEqual({ delivery: { ...delivery, nextAttemptAt: '2026-02-01T00:01:00.000Z' }, body: event.body, endpoint });
    expect(await store.claimDue('2026-02-01T00:00:30.000Z', '2026-02-01T00:02:00.000Z', 10)).toEqual([]);

    const failed = { at: '2026-02-01T00:00:00.000Z', statusCode: 500, latencyMs: 12, error: null };
    const retried = await store.recordAttempt(claimed!.delivery, failed, { kind: 'retry', nextAttemptAt: '2026-02-01T00:05:00.000Z' });
    expect(retried).toEqual({ ...delivery, attempts: [failed], nextAttemptAt: '2026-02-01T00:05:00.000Z' });
    expect((await store.getEndpoint(workspace, endpoint.id))!.failingSince).toBe(failed.at);

    const [again] = await store.claimDue('2026-02-01T00:05:00.000Z', '2026-02-01T00:06:00.000Z', 10);
    const success = { at: '2026-02-01T00:05:00.000Z', statusCode: 204, latencyMs: 8, error: null };
    const delivered = await store.recordAttempt(again!.delivery, success, { kind: 'delivered' });
    expect(delivered).toEqual({ ...delivery, status: 'delivered', attempts: [failed, success], nextAttemptAt: null, deliveredAt: success.at });
    expect(await store.getDelivery(workspace, endpoint.id, delivery.id)).toEqual(delivered);
    expect((await store.getEndpoint(workspace, endpoint.id))!.failingSince).toBeNull();
    expect(await store.listDeliveries(workspace, endpoint.id, { status: 'pending' }, page)).toEqual({ deliveries: [], total: 0 });
  });

  test('two stores on the same storage never claim one delivery twice', async () => {
    const other = await openSameStorage();
    try {
      const endpoint = endpointRecord(workspace);
      await store.createEndpoint(endpoint);
      for (let index = 0; index < 10; index += 1) {
        const event = eventOf(workspace);
        await store.addEvent(event, [deliveryOf(event, endpoint, { nextAttemptAt: '2026-03-01T00:00:00.000Z' })]);
      }
      const claims = await Promise.all([store, other, store, other].map((each) => each.claimDue('2026-03-01T00:00:00.000Z', '2026-03-01T00:01:00.000Z', 10)));
      const ids = claims.flat().map((claim) => claim.delivery.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(10);
    } finally {
      await other.close();
    }
  });

  test('a delivery of a disabled endpoint is failed instead of claimed; disabling happens once, with one notice to the owners', async () => {
    const endpoint = endpointRecord(workspace, { failingSince: '2026-01-01T00:00:00.000Z' });
    await store.createEndpoint(endpoint);
    const event = eventOf(workspace);
    const delivery = deliveryOf(event, endpoint);
    await store.addEvent(event, [delivery]);
    const notice = (at: string) => ({ id: newId(), workspaceId: workspace, endpointId: endpoint.id, url: endpoint.url, failingSince: endpoint.failingSince!, createdAt: at });
    const first = notice(tick());
    const disabled = await store.disableEndpoint(endpoint.id, 'failing', first);
    expect(disabled).toMatchObject({ id: endpoint.id, enabled: false, disabledReason: 'failing', updatedAt: first.createdAt });
    expect(await store.disableEndpoint(endpoint.id, 'failing', notice(tick()))).toBeUndefined();
    expect(await store.claimDue('2030-01-01T00:00:00.000Z', '2030-01-01T00:01:00.000Z', 10)).toEqual([]);
    expect(await store.getDelivery(workspace, endpoint.id, delivery.id)).toMatchObject({ status: 'failed' });
    expect(await store.pendingNotices(10)).toEqual([first]);
    await store.markNoticeSent(first.id, tick());
    expect(await store.pendingNotices(10)).toEqual([]);
  });

  test('a retry makes any delivery pending and due now, and keeps it trying until then at least', async () => {
    const endpoint = endpointRecord(workspace);
    await store.createEndpoint(endpoint);
    const event = eventOf(workspace);
    const delivery = deliveryOf(event, endpoint, { status: 'failed', nextAttemptAt: null, giveUpAt: '2026-01-02T00:00:00.000Z' });
    await store.addEvent(event, [delivery]);
    const retried = await store.retryDelivery(workspace, endpoint.id, delivery.id, '2026-06-01T00:00:00.000Z');
    expect(retried).toEqual({ ...delivery, status: 'pending', nextAttemptAt: '2026-06-01T00:00:00.000Z', giveUpAt: '2026-06-01T00:00:00.000Z' });
    expect(await store.retryDelivery(newId(), endpoint.id, delivery.id, tick())).toBeUndefined();
  });

  test('deleting an endpoint deletes its deliveries; pruning removes old settled events only', async () => {
    const endpoint = endpointRecord(workspace);
    const kept = endpointRecord(workspace);
    await store.createEndpoint(endpoint);
    await store.createEndpoint(kept);
    const settled = eventOf(workspace);
    await store.addEvent(settled, [deliveryOf(settled, kept, { status: 'delivered', nextAttemptAt: null })]);
    const open = eventOf(workspace);
    await store.addEvent(open, [deliveryOf(open, kept), deliveryOf(open, endpoint)]);
    expect(await store.deleteEndpoint(newId(), endpoint.id)).toBe(false);
    expect(await store.deleteEndpoint(workspace, endpoint.id)).toBe(true);
    expect(await store.listDeliveries(workspace, endpoint.id, {}, page)).toEqual({ deliveries: [], total: 0 });
    expect(await store.pruneEvents('2099-01-01T00:00:00.000Z', 10)).toBe(1);
    expect((await store.listDeliveries(workspace, kept.id, {}, page)).deliveries.map((delivery) => delivery.eventId)).toEqual([open.id]);
    expect(await store.addEvent(settled, [])).toBe(true);
  });

  test('the balance.low threshold is kept per workspace; a crossing is marked (with its event) once until cleared', async () => {
    expect(await store.getSettings(workspace)).toBeUndefined();
    expect(await store.setBalanceLowThreshold(workspace, 25_000)).toEqual({ workspaceId: workspace, balanceLowThresholdUnits: 25_000, balanceLow: false });
    const endpoint = endpointRecord(workspace);
    await store.createEndpoint(endpoint);
    const first = eventOf(workspace, 'balance.low');
    expect(await store.markBalanceLow(workspace, { event: first, deliveries: [deliveryOf(first, endpoint)] })).toBe(true);
    const second = eventOf(workspace, 'balance.low');
    expect(await store.markBalanceLow(workspace, { event: second, deliveries: [deliveryOf(second, endpoint)] })).toBe(false);
    expect((await store.listDeliveries(workspace, endpoint.id, {}, page)).total).toBe(1);
    expect(await store.getSettings(workspace)).toEqual({ workspaceId: workspace, balanceLowThresholdUnits: 25_000, balanceLow: true });
    await store.clearBalanceLow(workspace);
    expect(await store.markBalanceLow(workspace, { event: second, deliveries: [deliveryOf(second, endpoint)] })).toBe(true);
    expect(await store.setBalanceLowThreshold(workspace, null)).toMatchObject({ balanceLowThresholdUnits: null, balanceLow: false });
    // A crossing no endpoint wants is noted all the same, with no event.
    expect(await store.markBalanceLow(workspace)).toBe(true);
    expect(await store.markBalanceLow(workspace)).toBe(false);
    expect(await store.getSettings(newId())).toBeUndefined();
  });
}
