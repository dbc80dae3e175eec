// The one "limited until / retry after" rule: a window's hits against a limit, on a memory counter
// with a clock the test moves.
import { MemoryWindowCounter } from '../src/counters/window-counter.js';
import { windowLimit } from '../src/counters/window-limit.js';

const minute = 60_000;
const start = Date.UTC(2026, 10, 24, 12, 0, 0);

test('hits up to the limit pass with what remains; the next is limited until the window resets', async () => {
  let now = start + 20_000;
  const counter = new MemoryWindowCounter(minute, () => now);
  const readings = [];
  for (let i = 0; i < 4; i += 1) readings.push(windowLimit(await counter.hit('a'), 3, now));
  expect(readings.map(({ limited, remaining }) => [limited, remaining])).toEqual([
    [false, 2],
    [false, 1],
    [false, 0],
    [true, 0],
  ]);
  expect(readings[3]).toMatchObject({ retryAfterSeconds: 40, limitedUntil: start + minute });

  now = start + minute;
  expect(windowLimit(await counter.hit('a'), 3, now)).toMatchObject({ limited: false, remaining: 2 });
});

test('retry after is whole seconds rounded up, never below 1, and the caller waits until then', () => {
  const resetAt = start + minute;
  expect(windowLimit({ count: 5, resetAt }, 1, resetAt - 1_200)).toMatchObject({ limited: true, retryAfterSeconds: 2, limitedUntil: resetAt - 1_200 + 2_000 });
  expect(windowLimit({ count: 5, resetAt }, 1, resetAt - 1)).toMatchObject({ retryAfterSeconds: 1, limitedUntil: resetAt - 1 + 1_000 });
  // A count read just after its window ended (a slow store) still says at least one second.
  expect(windowLimit({ count: 5, resetAt }, 1, resetAt + 300)).toMatchObject({ retryAfterSeconds: 1, limitedUntil: resetAt + 1_300 });
});
