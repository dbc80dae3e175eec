// The resilience pieces of the HTTP carriers on their own: the circuit breaker, bounded retries
// with backoff, and the rules that decide what may be retried and what counts as an outage.
import { RequestFailed } from '@voice/runtime/egress';
import { CircuitBreaker, CircuitBreakers, CircuitOpen } from '../src/carriers/resilience/circuit-breaker.js';
import { isOutage, isRetrySafe, statusFailure, transportFailure, type HttpFailure } from '../src/carriers/resilience/http-failures.js';
import { backoffDelayMs, withRetries } from '../src/carriers/resilience/retry.js';

class Outage extends Error {}
class Refusal extends Error {}
const isTestOutage = (error: unknown) => error instanceof Outage;

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const fail = (breaker: CircuitBreaker, error: Error = new Outage()) => breaker.run(() => Promise.reject(error), isTestOutage).catch((caught: unknown) => caught);
const succeed = (breaker: CircuitBreaker) => breaker.run(async () => 'ok', isTestOutage);

describe('CircuitBreaker', () => {
  test('opens after five consecutive outages and then refuses without calling', async () => {
    const time = clock();
    const breaker = new CircuitBreaker({ now: time.now });
    for (let i = 0; i < 4; i++) await fail(breaker);
    expect(breaker.state).toBe('closed');
    await fail(breaker);
    expect(breaker.state).toBe('open');

    const call = jest.fn(async () => 'called');
    await expect(breaker.run(call, isTestOutage)).rejects.toBeInstanceOf(CircuitOpen);
    expect(call).not.toHaveBeenCalled();
  });

  test('a success in between resets the count', async () => {
    const breaker = new CircuitBreaker({ now: clock().now });
    for (let i = 0; i < 4; i++) await fail(breaker);
    await succeed(breaker);
    for (let i = 0; i < 4; i++) await fail(breaker);
    expect(breaker.state).toBe('closed');
  });

  test('errors that are not outages (the other side answered) never open it', async () => {
    const breaker = new CircuitBreaker({ now: clock().now });
    for (let i = 0; i < 10; i++) await fail(breaker, new Refusal());
    expect(breaker.state).toBe('closed');
  });

  test('after the cooldown one trial goes through; its success closes the circuit', async () => {
    const time = clock();
    const breaker = new CircuitBreaker({ now: time.now, cooldownMs: 30_000 });
    for (let i = 0; i < 5; i++) await fail(breaker);
    time.advance(29_999);
    await expect(succeed(breaker)).rejects.toThrow(/next attempt in 1 s/);
    time.advance(1);
    expect(breaker.state).toBe('half-open');

    let finishTrial!: (value: string) => void;
    const trial = breaker.run(() => new Promise<string>((resolve) => (finishTrial = resolve)), isTestOutage);
    // While the trial is out, everything else is still refused.
    await expect(succeed(breaker)).rejects.toBeInstanceOf(CircuitOpen);
    finishTrial('back');
    await expect(trial).resolves.toBe('back');
    expect(breaker.state).toBe('closed');
    await expect(succeed(breaker)).resolves.toBe('ok');
  });

  test('a failed trial opens it again for a full cooldown', async () => {
    const time = clock();
    const breaker = new CircuitBreaker({ now: time.now, cooldownMs: 1000, failureThreshold: 2 });
    await fail(breaker);
    await fail(breaker);
    time.advance(1000);
    await fail(breaker);
    expect(breaker.state).toBe('open');
    time.advance(999);
    await expect(succeed(breaker)).rejects.toBeInstanceOf(CircuitOpen);
    time.advance(1);
    await expect(succeed(breaker)).resolves.toBe('ok');
  });

  test('a trial that ends in a non-outage error closes the circuit (the carrier answered)', async () => {
    const time = clock();
    const breaker = new CircuitBreaker({ now: time.now, cooldownMs: 10, failureThreshold: 1 });
    await fail(breaker);
    time.advance(10);
    await fail(breaker, new Refusal());
    expect(breaker.state).toBe('closed');
  });
});

describe('CircuitBreakers', () => {
  test('one breaker per key, shared by everyone asking for it', async () => {
    const breakers = new CircuitBreakers({ failureThreshold: 1, now: clock().now });
    await fail(breakers.breakerFor('a'));
    expect(breakers.breakerFor('a').state).toBe('open');
    expect(breakers.breakerFor('b').state).toBe('closed');
  });
});

describe('withRetries', () => {
  const noSleep = { sleep: async () => undefined, random: () => 0.5 };

  test('retries until the attempt succeeds', async () => {
    const attempt = jest.fn<Promise<string>, []>().mockRejectedValueOnce(new Outage()).mockRejectedValueOnce(new Outage()).mockResolvedValue('done');
    await expect(withRetries(attempt, isTestOutage, { retries: 2, baseDelayMs: 100, ...noSleep })).resolves.toBe('done');
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  test('gives up after the retries, with the last error', async () => {
    let n = 0;
    const attempt = jest.fn(async () => {
      throw new Outage(`attempt ${++n}`);
    });
    await expect(withRetries(attempt, isTestOutage, { retries: 2, baseDelayMs: 100, ...noSleep })).rejects.toThrow('attempt 3');
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  test('does not retry what shouldRetry refuses', async () => {
    const attempt = jest.fn(async () => {
      throw new Refusal();
    });
    await expect(withRetries(attempt, isTestOutage, { retries: 5, baseDelayMs: 100, ...noSleep })).rejects.toBeInstanceOf(Refusal);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  test('backs off exponentially between attempts', async () => {
    const pauses: number[] = [];
    const attempt = async () => {
      throw new Outage();
    };
    await withRetries(attempt, isTestOutage, { retries: 3, baseDelayMs: 200, random: () => 0, sleep: async (ms) => void pauses.push(ms) }).catch(() => undefined);
    expect(pauses).toEqual([100, 200, 400]);
  });

  test('the jitter keeps each pause between half and all of the exponential step', () => {
    expect(backoffDelayMs(0, 200, () => 0)).toBe(100);
    expect(backoffDelayMs(0, 200, () => 0.999999)).toBe(200);
    expect(backoffDelayMs(2, 200, () => 0.5)).toBe(600);
  });
});

describe('http failure rules', () => {
  const unreachable = (code: string) => new RequestFailed('unreachable', 'could not reach the server', { cause: Object.assign(new Error(code), { code }) });

  test('transport errors by what reached the carrier', () => {
    expect(transportFailure(unreachable('ECONNREFUSED'))).toEqual({ kind: 'not_connected' });
    expect(transportFailure(unreachable('ENOTFOUND'))).toEqual({ kind: 'not_connected' });
    expect(transportFailure(unreachable('ECONNRESET'))).toEqual({ kind: 'connection_lost' });
    expect(transportFailure(new RequestFailed('unreachable', 'no cause'))).toEqual({ kind: 'connection_lost' });
    const bothRefused = new AggregateError([Object.assign(new Error(), { code: 'ECONNREFUSED' }), Object.assign(new Error(), { code: 'ECONNREFUSED' })]);
    expect(transportFailure(new RequestFailed('unreachable', 'x', { cause: bothRefused }))).toEqual({ kind: 'not_connected' });
    expect(transportFailure(new RequestFailed('timeout', 'slow'))).toEqual({ kind: 'timeout' });
    // A name that does not resolve, or a handshake that fails, sent nothing.
    expect(transportFailure(new RequestFailed('dns_error'))).toEqual({ kind: 'not_connected' });
    expect(transportFailure(new RequestFailed('tls_error'))).toEqual({ kind: 'not_connected' });
    expect(transportFailure(new RequestFailed('bad_response'))).toEqual({ kind: 'invalid_response' });
  });

  test('only 429 and 5xx are failures among answers', () => {
    expect([200, 201, 204, 301, 400, 401, 404].map(statusFailure)).toEqual(new Array(7).fill(undefined));
    expect(statusFailure(429)).toEqual({ kind: 'status', status: 429 });
    expect(statusFailure(500)).toEqual({ kind: 'status', status: 500 });
  });

  const status = (code: number): HttpFailure => ({ kind: 'status', status: code });
  test.each<[string, HttpFailure, boolean, boolean]>([
    ['not connected', { kind: 'not_connected' }, true, true],
    ['429', status(429), true, true],
    ['502', status(502), true, true],
    ['503', status(503), true, true],
    ['504', status(504), true, true],
    ['500', status(500), false, true],
    ['timeout', { kind: 'timeout' }, false, true],
    ['connection lost', { kind: 'connection_lost' }, false, true],
    ['unreadable answer', { kind: 'invalid_response' }, false, true],
  ])('%s: retried on a POST %s, on a GET %s', (_name, failure, post, get) => {
    expect(isRetrySafe(failure, false)).toBe(post);
    expect(isRetrySafe(failure, true)).toBe(get);
  });

  test('rate limiting is not an outage; everything else is', () => {
    expect(isOutage(status(429))).toBe(false);
    expect([status(500), status(503), { kind: 'timeout' } as const, { kind: 'not_connected' } as const].every(isOutage)).toBe(true);
  });
});
