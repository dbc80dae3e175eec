// The commands the store contract suites send, with a clock that moves one second per command so
// every record of a test has its own time.
import { newId } from '@voice/runtime/ids';
import type { Units } from '../src/domain/amounts.js';
import { captureInput } from '../src/domain/requests.js';
import type { AuthorizeCommand, CaptureCommand, TransferCommand, UsageCommand } from '../src/store/store.js';

let clock = Date.parse('2026-03-01T00:00:00.000Z');
export const tick = (): string => new Date((clock += 1000)).toISOString();

export const credits = (creditUnits: number, minuteUnits = 0): Units => ({ creditUnits, minuteUnits });

export function transferCommand(from: string, to: string, amount: Units, overrides: Partial<TransferCommand> = {}): TransferCommand {
  return {
    transferId: newId(),
    fingerprint: `fp-${newId()}`,
    fromWorkspaceId: from,
    toWorkspaceId: to,
    amount,
    reference: 'ref',
    description: 'top-up',
    now: tick(),
    ...overrides,
  };
}

export function authorizeCommand(workspaceId: string, amount: Units, overrides: Partial<AuthorizeCommand> = {}): AuthorizeCommand {
  return {
    holdId: newId(),
    fingerprint: `fp-${newId()}`,
    workspaceId,
    amount,
    creditUnitsPerMinute: 0,
    expiresInSeconds: 600,
    kind: 'sms.outbound',
    reference: 'msg-1',
    description: 'SMS',
    now: tick(),
    ...overrides,
  };
}

export function captureCommand(hold: { workspaceId: string; holdId: string }, amount: Units, overrides: Partial<CaptureCommand> = {}): CaptureCommand {
  return { ...captureInput(hold.workspaceId, hold.holdId, amount, ''), now: tick(), afterSettled: 'refuse', ...overrides };
}

export function usageCommand(workspaceId: string, consumed: Units, overrides: Partial<UsageCommand> = {}): UsageCommand {
  return { eventId: newId(), workspaceId, kind: 'sms.outbound', consumed, reference: 'msg-1', description: 'SMS', holdId: '', now: tick(), ...overrides };
}

