// The polling loop's own rules, with real timers and small delays: passes run and repeat, a wake
// during a pass means exactly one more pass, stop waits for the pass in flight and ends the loop,
// a failing pass is retried after the owner's delay without escaping, and the owner may keep a
// wait from being cut short.
import { PollingLoop, type PassOutcome, type PollingLoopOptions } from '../src/polling-loop.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** A pass that records its start and end, and waits at a gate while one is closed. */
class Owner {
  readonly log: string[] = [];
  readonly outcomes: PassOutcome[] = [];
  passes = 0;
  failNext = 0;
  private gate: Promise<void> | undefined;
  private open: () => void = () => {};

  close(): void {
    this.gate = new Promise<void>((resolve) => {
      this.open = resolve;
    });
  }

  release(): void {
    this.gate = undefined;
    this.open();
  }

  readonly pass = async (): Promise<void> => {
    this.passes += 1;
    const n = this.passes;
    this.log.push(`start ${n}`);
    await this.gate;
    if (this.failNext > 0) {
      this.failNext -= 1;
      this.log.push(`fail ${n}`);
      throw new Error(`pass ${n} failed`);
    }
    this.log.push(`end ${n}`);
  };
}

describe('PollingLoop', () => {
  let owner: Owner;
  const loops: PollingLoop[] = [];
  const loop = (options: Partial<PollingLoopOptions> & { intervalMs?: number; retryMs?: number } = {}) => {
    const { intervalMs = 60_000, retryMs = 60_000, ...rest } = options;
    const created = new PollingLoop({
      pass: owner.pass,
      delayMs: (outcome) => {
        owner.outcomes.push(outcome);
        return outcome.failed ? retryMs : intervalMs;
      },
      ...rest,
    });
    loops.push(created);
    return created;
  };

  beforeEach(() => {
    owner = new Owner();
  });
  afterEach(async () => {
    owner.release();
    await Promise.all(loops.splice(0).map((created) => created.stop()));
  });

  test('runs nothing before start, a pass at start, and a pass after each interval', async () => {
    const started = loop({ intervalMs: 10 });
    started.wake();
    await sleep(30);
    expect(owner.passes).toBe(0);
    started.start();
    started.start();
    await waitFor('three passes', () => owner.passes >= 3);
    await started.stop();
    expect(owner.log.slice(0, 6)).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(owner.outcomes.every((outcome) => !outcome.failed)).toBe(true);
  });

  test('a wake while waiting runs a pass at once', async () => {
    const started = loop();
    started.start();
    await waitFor('the first pass', () => owner.outcomes.length === 1);
    started.wake();
    await waitFor('the woken pass', () => owner.outcomes.length === 2);
    expect(owner.log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  test('wakes during a pass lead to exactly one more pass, right after it', async () => {
    owner.close();
    const started = loop();
    started.start();
    await waitFor('the first pass to start', () => owner.passes === 1);
    started.wake();
    started.wake();
    started.wake();
    owner.release();
    await waitFor('the second pass', () => owner.log.includes('end 2'));
    await sleep(50);
    expect(owner.log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    // Both passes are one run: the owner is asked for a delay once.
    expect(owner.outcomes).toEqual([{ failed: false }]);
  });

  test('a wake after the last pass ended but before its run settled is not lost', async () => {
    // The owner's delayMs runs in that gap, like a writer committing between the end of the last
    // pass and the loop settling: its wake must not wait out the whole interval.
    let started: PollingLoop | undefined;
    started = new PollingLoop({
      pass: owner.pass,
      delayMs: (outcome) => {
        owner.outcomes.push(outcome);
        if (owner.outcomes.length === 1) started!.wake();
        return 60_000;
      },
    });
    loops.push(started);
    started.start();
    await waitFor('the woken pass', () => owner.log.includes('end 2'));
    expect(owner.log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  test('stop waits for the pass in flight, and no pass runs after it', async () => {
    owner.close();
    const started = loop({ intervalMs: 5 });
    started.start();
    await waitFor('the pass to start', () => owner.passes === 1);
    expect(started.stopped).toBe(false);
    let stopped = false;
    const stopping = started.stop().then(() => {
      stopped = true;
    });
    expect(started.stopped).toBe(true);
    started.wake();
    await sleep(30);
    expect(stopped).toBe(false);
    owner.release();
    await stopping;
    expect(owner.log).toEqual(['start 1', 'end 1']);
    started.wake();
    started.start();
    await sleep(50);
    expect(owner.log).toEqual(['start 1', 'end 1']);
  });

  test('a failing pass does not escape, and is retried after the delay the owner gives', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      owner.failNext = 2;
      const started = loop({ retryMs: 10 });
      started.start();
      await waitFor('a successful pass', () => owner.log.includes('end 3'));
      await sleep(50);
      expect(owner.log).toEqual(['start 1', 'fail 1', 'start 2', 'fail 2', 'start 3', 'end 3']);
      expect(owner.outcomes).toEqual([
        { failed: true, error: new Error('pass 1 failed') },
        { failed: true, error: new Error('pass 2 failed') },
        { failed: false },
      ]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('a failure ends a run even when a wake asked for another pass', async () => {
    owner.close();
    owner.failNext = 1;
    const started = loop();
    started.start();
    await waitFor('the pass to start', () => owner.passes === 1);
    started.wake();
    owner.release();
    await waitFor('the owner to hear of the failure', () => owner.outcomes.length === 1);
    await sleep(50);
    expect(owner.log).toEqual(['start 1', 'fail 1']);
  });

  test('the owner can keep a wait from being cut short; a wake during a pass still counts', async () => {
    let cut = false;
    const started = loop({ wakeCutsWait: () => cut });
    started.start();
    await waitFor('the first pass', () => owner.outcomes.length === 1);
    for (let i = 0; i < 5; i += 1) started.wake();
    await sleep(50);
    expect(owner.passes).toBe(1);
    cut = true;
    owner.close();
    started.wake();
    await waitFor('the woken pass to start', () => owner.passes === 2);
    cut = false;
    started.wake();
    owner.release();
    await waitFor('the pass asked for during the pass', () => owner.log.includes('end 3'));
    await sleep(50);
    expect(owner.log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });
});
