// The rules billing decides by, on their own: how far a change may take a balance, what holds
// reserve and captures take, which amounts may move, which usage events can be applied, and the
// usage summary's window.
import { create, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import { deliveredOverdraft, spendingOverdraft, withinBound } from '../src/domain/balance.js';
import { captureOf, creditsForMinutes, planHold } from '../src/domain/holds.js';
import { readMovement } from '../src/domain/amounts.js';
import { decodeUsageEvent } from '../src/domain/usage-event.js';
import { usageWindow } from '../src/domain/usage-window.js';

const wallet = (creditUnits: number, minuteUnits: number, issuer = false, held = { creditUnits: 0, minuteUnits: 0 }) => ({ balance: { creditUnits, minuteUnits }, held, issuer });
const units = (creditUnits: number, minuteUnits = 0) => ({ creditUnits, minuteUnits });

describe('withinBound', () => {
  test('refuses spending that takes a lowered unit of a customer\'s available balance below zero', () => {
    expect(withinBound(wallet(10, 5), units(-10, -5), units(0), spendingOverdraft)).toBe(true);
    expect(withinBound(wallet(10, 5), units(-11), units(0), spendingOverdraft)).toBe(false);
    expect(withinBound(wallet(10, 5), units(0, -6), units(0), spendingOverdraft)).toBe(false);
    // Open holds count: 4 of 10 held leaves 6 to spend.
    expect(withinBound(wallet(10, 0, false, units(4)), units(-6), units(0), spendingOverdraft)).toBe(true);
    expect(withinBound(wallet(10, 0, false, units(4)), units(-7), units(0), spendingOverdraft)).toBe(false);
    // A new hold lowers the available balance like a debit does.
    expect(withinBound(wallet(10, 0, false, units(4)), units(0), units(7), spendingOverdraft)).toBe(false);
    // Minutes already below zero do not block spending credits only.
    expect(withinBound(wallet(10, -5), units(-3), units(0), spendingOverdraft)).toBe(true);
  });

  test('lets the issuer and delivered services go below zero', () => {
    expect(withinBound(wallet(0, 0, true), units(-500, -1), units(0), spendingOverdraft)).toBe(true);
    expect(withinBound(wallet(3, 0), units(-5), units(0), deliveredOverdraft)).toBe(true);
  });
});

describe('holds', () => {
  test('reserve the amount as asked without a rate, refused beyond the available balance', () => {
    expect(planHold(wallet(10, 1_000, false, units(4)), { amount: units(6, 1_000), creditUnitsPerMinute: 0 })).toEqual({ ok: true, held: units(6, 1_000) });
    expect(planHold(wallet(10, 1_000, false, units(4)), { amount: units(7), creditUnitsPerMinute: 0 })).toEqual({ ok: false, available: units(6, 1_000) });
    expect(planHold(wallet(-10, -10, true), { amount: units(7, 7), creditUnitsPerMinute: 0 })).toEqual({ ok: true, held: units(7, 7) });
  });

  test('with a rate, take included minutes first and hold the rest in credits, rounded up', () => {
    expect(planHold(wallet(1_000, 2_500), { amount: units(0, 4_000), creditUnitsPerMinute: 333 })).toEqual({ ok: true, held: units(500, 2_500) });
    expect(planHold(wallet(1_000, -200), { amount: units(10, 1_000), creditUnitsPerMinute: 333 })).toEqual({ ok: true, held: units(343, 0) });
    expect(planHold(wallet(100, 0), { amount: units(0, 1_000), creditUnitsPerMinute: 101 })).toEqual({ ok: false, available: units(100, 0) });
    // The issuer has no bound: its minutes are held as minutes.
    expect(planHold(wallet(0, 0, true), { amount: units(0, 1_000), creditUnitsPerMinute: 101 })).toEqual({ ok: true, held: units(0, 1_000) });
    expect(planHold(wallet(0, 0), { amount: units(0, Number.MAX_SAFE_INTEGER), creditUnitsPerMinute: Number.MAX_SAFE_INTEGER })).toBeUndefined();
  });

  test('capture minutes from the held minutes first, then credits at the rate; never more than held', () => {
    const hold = { held: units(500, 2_500), creditUnitsPerMinute: 333 };
    expect(captureOf(hold, units(0, 2_000))).toEqual(units(0, 2_000));
    expect(captureOf(hold, units(0, 4_000))).toEqual(units(500, 2_500));
    expect(captureOf(hold, units(1, 4_000))).toBeUndefined();
    expect(captureOf(hold, units(0, 4_002))).toBeUndefined();
    expect(captureOf({ held: units(10, 0), creditUnitsPerMinute: 0 }, units(0, 1))).toBeUndefined();
    expect(captureOf({ held: units(10, 0), creditUnitsPerMinute: 0 }, units(10))).toEqual(units(10));
    expect(creditsForMinutes(1, 1)).toBe(1);
    expect(creditsForMinutes(1_000, 1)).toBe(1);
    expect(creditsForMinutes(1_001, 1)).toBe(2);
    expect(creditsForMinutes(0, 999)).toBe(0);
  });
});

test('readMovement takes whole, non-negative, exact amounts that move something', () => {
  expect(readMovement({ creditUnits: 5n, minuteUnits: 0n }, 'amount')).toEqual({ ok: true, units: { creditUnits: 5, minuteUnits: 0 } });
  expect(readMovement({ creditUnits: 0n, minuteUnits: 0n }, 'amount')).toMatchObject({ ok: false });
  expect(readMovement({ creditUnits: 2n ** 53n, minuteUnits: 0n }, 'amount')).toEqual({ ok: false, issues: [{ field: 'amount', issue: 'credit_units is too large' }] });
  expect(readMovement(undefined, 'amount')).toEqual({ ok: false, issues: [{ field: 'amount', issue: 'is required' }] });
});

describe('decodeUsageEvent', () => {
  const payload = (init: MessageInitShape<typeof UsageEventSchema>) => toBinary(UsageEventSchema, create(UsageEventSchema, init));

  test('reads a charge, keyed by the payload\'s event id, else the stream\'s', () => {
    const event = { id: 'stream-id', subject: 'usage.telephony.sms', deliveryCount: 1 };
    const decoded = decodeUsageEvent({ ...event, payload: payload({ eventId: 'e-1', workspaceId: 'w', kind: 'Call-Minutes', minuteUnits: 1500n }) });
    expect(decoded).toEqual({ ok: true, charge: { eventId: 'e-1', workspaceId: 'w', kind: 'Call-Minutes', consumed: { creditUnits: 0, minuteUnits: 1500 }, reference: '', description: '', holdId: '' } });
    const unnamed = decodeUsageEvent({ ...event, payload: payload({ workspaceId: 'w', kind: 'sms.outbound', creditUnits: 1n }) });
    expect(unnamed.ok && unnamed.charge.eventId).toBe('stream-id');
  });

  test.each([
    ['undecodable', new Uint8Array([0xff, 0x01])],
    ['without a workspace', payload({ eventId: 'e', kind: 'sms.outbound', creditUnits: 1n })],
    ['without a kind', payload({ eventId: 'e', workspaceId: 'w', creditUnits: 1n })],
    ['with a transfer kind', payload({ eventId: 'e', workspaceId: 'w', kind: 'transfer_in', creditUnits: 1n })],
    ['with negative credits', payload({ eventId: 'e', workspaceId: 'w', kind: 'sms.outbound', creditUnits: -1n })],
    ['with inexact minutes', payload({ eventId: 'e', workspaceId: 'w', kind: 'sms.outbound', minuteUnits: 2n ** 60n })],
  ])('refuses an event %s', (_name, bytes) => {
    expect(decodeUsageEvent({ id: 'x', subject: 'usage.telephony.sms', deliveryCount: 1, payload: bytes }).ok).toBe(false);
  });
});

describe('usageWindow', () => {
  const now = new Date('2026-07-15T10:20:30.400Z');

  test('defaults to the start of the current UTC month until now', () => {
    expect(usageWindow(undefined, undefined, now)).toEqual({ ok: true, window: { from: new Date('2026-07-01T00:00:00.000Z'), to: now } });
  });

  test('refuses an empty or reversed window, and times out of range', () => {
    const at = timestampFromDate(new Date('2026-07-10T00:00:00.000Z'));
    expect(usageWindow(at, at, now)).toEqual({ ok: false, issues: [{ field: 'from', issue: 'must be before to' }] });
    expect(usageWindow(timestampFromDate(new Date('2026-08-01T00:00:00.000Z')), undefined, now)).toMatchObject({ ok: false });
    expect(usageWindow({ $typeName: 'google.protobuf.Timestamp', seconds: 400_000_000_000n, nanos: 0 }, undefined, now)).toMatchObject({
      ok: false,
      issues: [{ field: 'from' }],
    });
  });
});
