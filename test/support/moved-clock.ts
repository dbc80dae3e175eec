// Moves the wall clock of platform processes a test starts (by their entry point) while they run,
// through the preload moved-clock-preload.mjs: the environment to start them with, and a move that returns
// once every named process runs on the new offset.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eventually } from './telephony.js';

export interface MovedClock {
  /** For the processes' environment: loads the preload and names the offset's file and the entry it moves. */
  env: Record<string, string>;
  /** Sets the offset (ms ahead of real time; negative: behind) and resolves once each of `pids` has applied it. */
  move(offsetMs: number, pids: readonly number[]): Promise<void>;
  close(): void;
}

/** A clock for the processes whose entry path ends with `entry`, real until the first move. */
export function movedClock(entry: string): MovedClock {
  const dir = mkdtempSync(join(tmpdir(), 'moved-clock-'));
  const file = join(dir, 'offset');
  const acknowledged = (pid: number, offsetMs: number): boolean => {
    try {
      return readFileSync(`${file}.${pid}`, 'utf8') === String(offsetMs);
    } catch {
      return false;
    }
  };
  return {
    env: { NODE_OPTIONS: `--import ${pathToFileURL(join(__dirname, 'moved-clock-preload.mjs')).href}`, MOVED_CLOCK_FILE: file, MOVED_CLOCK_ENTRY: entry },
    async move(offsetMs, pids) {
      // Replaced whole, so a process never reads it half written.
      writeFileSync(`${file}.next`, String(offsetMs));
      renameSync(`${file}.next`, file);
      await eventually(async () => (pids.every((pid) => acknowledged(pid, offsetMs)) ? true : undefined), 10_000, `processes ${pids.join(', ')} on the clock moved by ${offsetMs} ms`);
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
