// A/B rounds: the compared servers take turns in several short measured runs, the order reversed
// every other round, so a machine that gets busier or quieter during the bench weighs on each of
// them alike, and one bench run gives each ratio with its spread over the rounds.
import { measureRun, type PathResult, type ServerUnderLoad } from './measure.js';
import type { Scenario } from './scenarios.js';

export interface ComparedServer<K extends string> {
  key: K;
  label: string;
  server: ServerUnderLoad;
  scenario: Scenario;
}

export interface RoundSettings {
  rounds: number;
  connections: number;
  /** Unmeasured load on each server once, before the first round (JIT, caches, sessions). */
  firstWarmupSeconds: number;
  /** Unmeasured load before each measured run of a round (connections re-opened). */
  roundWarmupSeconds: number;
  roundSeconds: number;
}

/** Every server's measured runs, one per round, in round order. */
export async function runRounds<K extends string>(
  servers: ComparedServer<K>[],
  settings: RoundSettings,
  log: (line: string) => void,
): Promise<Record<K, PathResult[]>> {
  const results = Object.fromEntries(servers.map((entry) => [entry.key, [] as PathResult[]])) as Record<K, PathResult[]>;
  for (const entry of settings.firstWarmupSeconds > 0 ? servers : []) {
    log(`${entry.label}: ${settings.firstWarmupSeconds} s first warm-up`);
    await measureRun(entry.server, { label: `${entry.label} (first warm-up, not counted)`, connections: settings.connections, warmupSeconds: 0, durationSeconds: settings.firstWarmupSeconds, scenario: entry.scenario }, () => undefined);
  }
  for (let round = 0; round < settings.rounds; round += 1) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    log(`round ${round + 1} of ${settings.rounds}: ${order.map((entry) => entry.key).join(', ')}`);
    for (const entry of order) {
      results[entry.key].push(
        await measureRun(entry.server, {
          label: `${entry.label} round ${round + 1}`,
          connections: settings.connections,
          warmupSeconds: settings.roundWarmupSeconds,
          durationSeconds: settings.roundSeconds,
          scenario: entry.scenario,
        }, log),
      );
    }
  }
  return results;
}
