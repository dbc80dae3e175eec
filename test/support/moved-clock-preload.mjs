// A preload (NODE_OPTIONS=--import) that moves the wall clock of the processes a test names, by an
// offset the test changes while they run: for behaviour that hangs on the time of day (a calling
// window) in processes the test cannot hand a clock to, the cluster's children. test/support/moved-clock.ts
// drives it: MOVED_CLOCK_FILE holds the offset in ms, a process whose entry (argv[1]) ends with
// MOVED_CLOCK_ENTRY runs that far ahead (behind, when negative), every other process stays real.
// Date.now() and new Date() (and Date() called bare) move; Date's other behaviour, instanceof
// included, stays; performance.now() and timers keep real time.
import { readFileSync, watchFile, writeFileSync } from 'node:fs';

const file = process.env.MOVED_CLOCK_FILE;
const entry = process.env.MOVED_CLOCK_ENTRY;

if (file && entry && process.argv[1]?.endsWith(entry)) {
  const RealDate = Date;
  let offsetMs = 0;
  const now = () => RealDate.now() + offsetMs;

  /** The offset the file holds (none yet: 0), acknowledged in `<file>.<pid>` so the test knows from when on this process runs moved. */
  const apply = () => {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
      text = '0';
    }
    const value = Number(text);
    // The test replaces the file whole (a rename): anything else is its mistake, loudly.
    if (text.trim() === '' || !Number.isFinite(value)) throw new Error(`${file} holds ${JSON.stringify(text)}, not an offset in ms`);
    offsetMs = value;
    writeFileSync(`${file}.${process.pid}`, String(value));
  };

  const MovedDate = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget === MovedDate ? target : newTarget),
    apply: () => new RealDate(now()).toString(),
    get: (target, key) => (key === 'now' ? now : Reflect.get(target, key)),
  });
  globalThis.Date = MovedDate;

  apply();
  // Not persistent: the watch keeps no process alive that would otherwise exit.
  watchFile(file, { interval: 50, persistent: false }, apply);
}
