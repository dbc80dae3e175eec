// One measured run of one path: an unmeasured warm-up, a settle pause, the measured run with the
// server's and the load generator's CPU, and a check that the server is still alive.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildServer } from './children.js';
import { startCpuMeter, type CpuUsage } from './cpu.js';
import { runLoad, warmUp, type LoadResult } from './load.js';
import type { Scenario } from './scenarios.js';

/** One measured run: the load result and how busy the server and the load generator were. */
export type PathResult = LoadResult & { cpu: CpuUsage };

/** What is under load: a URL, and the processes whose CPU counts as the server's. */
export interface ServerUnderLoad {
  name: string;
  url: string;
  pids(): number[];
  /** Undefined while every process runs; what ended one otherwise. */
  exit(): string | undefined;
}

export const childUnderLoad = (child: ChildServer): ServerUnderLoad => ({ name: child.name, url: child.url, pids: () => [child.pid], exit: () => child.exit() });

export interface RunSettings {
  label: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  scenario: Scenario;
  /** Runs before the warm-up and again before the measured run (fixtures that must be fresh). */
  beforeRun?: () => Promise<void>;
}

/** Lets requests cut off by the end of a run finish on the server before anything is read back. */
export const settleMs = 500;

export async function measureRun(server: ServerUnderLoad, settings: RunSettings, log: (line: string) => void): Promise<PathResult> {
  const load = { url: server.url, connections: settings.connections, scenario: settings.scenario };
  await settings.beforeRun?.();
  const warm = await warmUp({ ...load, durationSeconds: settings.warmupSeconds });
  if (warm && (warm.non2xx > 0 || warm.errors > 0)) {
    log(`warning: ${settings.label} warm-up saw ${warm.non2xx} non-2xx and ${warm.errors} errors (${JSON.stringify(warm.statusCodes)})`);
  }
  if (settings.warmupSeconds > 0) await sleep(settleMs);
  await settings.beforeRun?.();
  const stopCpuMeter = startCpuMeter(server.pids());
  const result = await runLoad({ ...load, durationSeconds: settings.durationSeconds });
  const died = server.exit();
  if (died !== undefined) throw new Error(`${server.name} died during the measured run (${died})`);
  const measured = { ...result, cpu: stopCpuMeter() };
  await sleep(settleMs);
  log(
    `${settings.label}: ${Math.round(measured.requestsPerSecond)} req/s, p99 ${measured.latencyMs.p99} ms, non-2xx ${measured.non2xx}, ` +
      `CPU server ${Math.round(measured.cpu.serverPercent)}% (${Math.round(cpuMicrosPerRequest(measured))} µs/req) / load generator ${Math.round(measured.cpu.loadGeneratorPercent)}%`,
  );
  return measured;
}

/** The server's busy CPU per answered request, in µs: compares servers measured at different times on a loaded machine. */
export const cpuMicrosPerRequest = (result: PathResult): number =>
  result.requestsPerSecond > 0 ? (result.cpu.serverPercent / 100 / result.requestsPerSecond) * 1e6 : 0;
