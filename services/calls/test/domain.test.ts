// Tier 1: the calls service's pure rules.
import { randomBytes } from 'node:crypto';
import { newId } from '@voice/runtime/ids';
import { billedMinuteUnits, coveredMinutes, minutesFor } from '../src/domain/minutes.js';
import { isPublicCallEvent } from '../src/domain/public-events.js';
import { SessionTokens } from '../src/domain/session-token.js';
import { isEndedStatus as isEnded, movesForward as movesTo } from '@voice/contracts/calls';
import { endReasonOf } from '../src/domain/statuses.js';

test('a call is billed per started minute by default, or by the second rounded up to a minute sub-unit', () => {
  expect([0, 1, 60, 61, 3600].map((seconds) => billedMinuteUnits(seconds, 'minute'))).toEqual([0, 1_000, 1_000, 2_000, 60_000]);
  expect([0, 1, 60, 61, 90].map((seconds) => billedMinuteUnits(seconds, 'second'))).toEqual([0, 17, 1_000, 1_017, 1_500]);
  expect([1, 60, 61, 1800].map(minutesFor)).toEqual([1, 1, 2, 30]);
});

test('the minutes a balance covers: included minutes first, then credits at the rate, never more than billing holds', () => {
  expect(coveredMinutes({ minuteUnits: 0, creditUnits: 999 }, 1_000)).toBe(0);
  expect(coveredMinutes({ minuteUnits: 0, creditUnits: 2_500 }, 1_000)).toBe(2);
  expect(coveredMinutes({ minuteUnits: 1_500, creditUnits: 500 }, 1_000)).toBe(2);
  expect(coveredMinutes({ minuteUnits: -5_000, creditUnits: -1 }, 1_000)).toBe(0);
  // 3 credit sub-units a minute: 10 sub-units buy 3.333 minutes; billing would round 4 minutes up to 12.
  expect(coveredMinutes({ minuteUnits: 0, creditUnits: 10 }, 3)).toBe(3);
});

test('a call only moves forward, and an ended call stays as it ended', () => {
  expect(movesTo('queued', 'ringing')).toBe(true);
  expect(movesTo('queued', 'in_progress')).toBe(true);
  expect(movesTo('ringing', 'completed')).toBe(true);
  expect(movesTo('in_progress', 'ringing')).toBe(false);
  expect(movesTo('ringing', 'ringing')).toBe(false);
  expect(movesTo('completed', 'failed')).toBe(false);
  expect(['completed', 'no_answer', 'busy', 'failed', 'canceled'].every((status) => isEnded(status as 'completed'))).toBe(true);
  expect(isEnded('in_progress')).toBe(false);
  expect(endReasonOf('completed', 'caller_hung_up')).toBe('caller_hung_up');
  expect(endReasonOf('completed', null)).toBe('completed');
  expect(endReasonOf('busy', 'assistant_ended')).toBe('busy');
});

test('only allowlisted events are public', () => {
  expect(isPublicCallEvent('speech.started')).toBe(true);
  expect(isPublicCallEvent('call.answered')).toBe(true);
  for (const internal of ['component.fallback', 'session.error', 'usage.booked', 'anything.else']) expect(isPublicCallEvent(internal)).toBe(false);
});

test('a session token opens its own call only, and only under the secret it was made with', () => {
  const secret = randomBytes(32);
  const tokens = new SessionTokens(secret);
  const call = newId();
  const token = tokens.issue(call);
  expect(tokens.verify(call, token)).toBe(true);
  expect(new SessionTokens(Buffer.from(secret)).verify(call, token)).toBe(true);
  expect(tokens.verify(newId(), token)).toBe(false);
  expect(tokens.verify(call, '')).toBe(false);
  expect(tokens.verify(call, `${token.slice(0, -1)}x`)).toBe(token.endsWith('x'));
  expect(new SessionTokens(randomBytes(32)).verify(call, token)).toBe(false);
});
