// The rules billing decides by, on their own: how far a change may take a balance, which amounts
// may move, which usage events can be applied, and the usage summary's window.
import { create, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import { balanceAfter, spendingOverdraft, usageOverdraft } from '../src/domain/balance.js';
import { readMovement } from '../src/domain/amounts.js';
import { decodeUsageEvent } from '../src/domain/usage-event.js';
import { usageWindow } from '../src/domain/usage-window.js';

const wallet = (creditUnits: number, minuteUnits: number, issuer = false) => ({ balance: { creditUnits, minuteUnits }, issuer });

describe('balanceAfter', () => {
  test('refuses spending that takes a lowered unit of a customer below zero', () => {
    expect(balanceAfter(wallet(10, 5), { creditUnits: -10, minuteUnits: -5 }, spendingOverdraft)).toEqual({ creditUnits: 0, minuteUnits: 0 });
    expect(balanceAfter(wallet(10, 5), { creditUnits: -11, minuteUnits: 0 }, spendingOverdraft)).toBeUndefined();
    expect(balanceAfter(wallet(10, 5), { creditUnits: 0, minuteUnits: -6 }, spendingOverdraft)).toBeUndefined();
    // Minutes already below zero do not block spending credits only.
    expect(balanceAfter(wallet(10, -5), { creditUnits: -3, minuteUnits: 0 }, spendingOverdraft)).toEqual({ creditUnits: 7, minuteUnits: -5 });
  });

  test('lets the issuer and usage go below zero', () => {
    expect(balanceAfter(wallet(0, 0, true), { creditUnits: -500, minuteUnits: -1 }, spendingOverdraft)).toEqual({ creditUnits: -500, minuteUnits: -1 });
    expect(balanceAfter(wallet(3, 0), { creditUnits: -5, minuteUnits: 0 }, usageOverdraft)).toEqual({ creditUnits: -2, minuteUnits: 0 });
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
    expect(decoded).toEqual({ ok: true, charge: { eventId: 'e-1', workspaceId: 'w', kind: 'Call-Minutes', consumed: { creditUnits: 0, minuteUnits: 1500 }, reference: '', description: '' } });
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
