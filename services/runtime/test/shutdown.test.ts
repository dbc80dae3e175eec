// Bounded shutdown's pieces: waiting for work in flight at most a while, a polling loop that lets a
// stuck pass go on stop, and the process deadline from the configuration.
import { PollingLoop } from '../src/polling-loop.js';
import { readShutdownDeadlineMs, settledWithin } from '../src/shutdown.js';

const never = new Promise<never>(() => {});

describe('settledWithin', () => {
  test('true once the work settles, resolved or rejected; false when it does not within the wait', async () => {
    expect(await settledWithin(Promise.resolve('done'), 1_000)).toBe(true);
    expect(await settledWithin(Promise.reject(new Error('failed')), 1_000)).toBe(true);
    expect(await settledWithin(undefined, 1_000)).toBe(true);
    expect(await settledWithin(never, 10)).toBe(false);
  });
});

describe('PollingLoop.stop', () => {
  test('lets a pass that never settles go after the shutdown wait, and reports it', async () => {
    let passes = 0;
    const loop = new PollingLoop({ pass: () => ((passes += 1), never), delayMs: () => 1_000 });
    loop.start();
    expect(passes).toBe(1);
    expect(await loop.stop()).toBe(false);
  });

  test('resolves true once a pass in flight settles', async () => {
    let finish = () => {};
    const loop = new PollingLoop({ pass: () => new Promise<void>((resolve) => (finish = resolve)), delayMs: () => 1_000 });
    loop.start();
    const stopped = loop.stop();
    finish();
    expect(await stopped).toBe(true);
  });
});

describe('readShutdownDeadlineMs', () => {
  test('VOICE_SHUTDOWN_TIMEOUT_SECONDS (15 s by default), after the drain delay where the process runs the gateway', () => {
    expect(readShutdownDeadlineMs({}, false)).toBe(15_000);
    expect(readShutdownDeadlineMs({ VOICE_DRAIN_DELAY_SECONDS: '5' }, false)).toBe(15_000);
    expect(readShutdownDeadlineMs({ VOICE_DRAIN_DELAY_SECONDS: '5', VOICE_SHUTDOWN_TIMEOUT_SECONDS: '8' }, true)).toBe(13_000);
    expect(() => readShutdownDeadlineMs({ VOICE_SHUTDOWN_TIMEOUT_SECONDS: '0' }, false)).toThrow('VOICE_SHUTDOWN_TIMEOUT_SECONDS must be between 1 and 300');
  });
});
