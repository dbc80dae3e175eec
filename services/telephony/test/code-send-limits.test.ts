// The rule on caller ID codes sent: a number gets at most its limit per window whichever
// workspaces ask, a workspace sends at most its limit per window across its numbers; a refusal
// is rate_limited with the seconds until the window resets, and a workspace over its own limit
// spends nothing of a number's.
import { ConnectError } from '@connectrpc/connect';
import { errorDetailOf } from '@voice/runtime/errors';
import { MemoryWindowCounter } from '@voice/runtime/counters';
import { CodeSendLimits, windowText } from '../src/caller-ids/code-send-limits.js';

const day = 24 * 3600;
const dayStart = Date.parse('2026-11-24T00:00:00.000Z');
let now = dayStart + 6 * 3600 * 1000;
const clock = () => now;

function limits(perNumber = { codes: 3, windowSeconds: day }, perWorkspace = { codes: 10, windowSeconds: 3600 }) {
  return new CodeSendLimits(
    {
      perNumber: { limit: perNumber, counter: new MemoryWindowCounter(perNumber.windowSeconds * 1000, clock) },
      perWorkspace: { limit: perWorkspace, counter: new MemoryWindowCounter(perWorkspace.windowSeconds * 1000, clock) },
    },
    clock,
  );
}

async function refusal(attempt: Promise<void>) {
  const error = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ConnectError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { message: error.rawMessage, ...errorDetailOf(error) };
}

beforeEach(() => {
  now = dayStart + 6 * 3600 * 1000;
});

test('a number gets three codes a day whichever workspaces ask; the fourth is rate_limited until the window resets', async () => {
  const rule = limits();
  await rule.take('workspace-a', '+12125550100');
  await rule.take('workspace-a', '+12125550100');
  await rule.take('workspace-b', '+12125550100');
  const refused = await refusal(rule.take('workspace-b', '+12125550100'));
  expect(refused).toMatchObject({ reason: 'rate_limited', retryAfterSeconds: 18 * 3600 });
  expect(refused.message).toBe('a number gets at most 3 verification codes per 24 h, whoever asks; nothing was sent: retry after 2026-11-25T00:00:00.000Z (in 64800 s)');
  expect((await refusal(rule.take('workspace-c', '+12125550100'))).reason).toBe('rate_limited');

  await rule.take('workspace-b', '+12125550101');
  now = dayStart + day * 1000;
  await rule.take('workspace-b', '+12125550100');
});

test('a workspace sends ten codes an hour across its numbers; over it, no number’s codes are spent', async () => {
  const rule = limits();
  now = dayStart + 30 * 60_000;
  for (let index = 0; index < 10; index++) await rule.take('workspace-a', `+1212555020${index}`);
  const refused = await refusal(rule.take('workspace-a', '+12125550300'));
  expect(refused).toMatchObject({ reason: 'rate_limited', retryAfterSeconds: 1800 });
  expect(refused.message).toContain('this workspace may send at most 10 verification codes per 1 h');
  expect((await refusal(rule.take('workspace-a', '+12125550300'))).retryAfterSeconds).toBe(1800);

  for (let index = 0; index < 3; index++) await rule.take('workspace-b', '+12125550300');
  expect((await refusal(rule.take('workspace-b', '+12125550300'))).message).toContain('a number gets at most 3');
  now = dayStart + 3600 * 1000;
  await rule.take('workspace-a', '+12125550301');
});

test('operator limits apply as set, and the windows read as people write them', async () => {
  const rule = limits({ codes: 1, windowSeconds: 600 }, { codes: 100, windowSeconds: 90 });
  await rule.take('workspace-a', '+12125550400');
  expect((await refusal(rule.take('workspace-a', '+12125550400'))).message).toContain('at most 1 verification code per 10 min');
  expect([windowText(86_400), windowText(600), windowText(90)]).toEqual(['24 h', '10 min', '90 s']);
});
