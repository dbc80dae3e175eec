// Turns the measured runs into ratios and PASS/MISS verdicts, prints them, and writes them as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CpuUsage } from './cpu.js';
import type { LoadResult } from './load.js';
import type { MemoryReading } from './memory.js';

export type PathKey = 'bareHttp' | 'expressConnect' | 'platformGet' | 'platformPatch';

export const pathLabels: Record<PathKey, string> = {
  bareHttp: 'bare node:http (physical limit)',
  expressConnect: 'express 5 + 1 Connect call (floor)',
  platformGet: 'GET /api/v1/tools/{id} (full platform)',
  platformPatch: 'PATCH /api/v1/tools/{id} (full platform)',
};

/** One measured path: the load result and how busy the server and the load generator were. */
export type PathResult = LoadResult & { cpu: CpuUsage };

export interface Target {
  name: string;
  measured: number;
  /** Human-readable bound, e.g. ">= 0.5". */
  bound: string;
  pass: boolean;
}

export interface BenchReport {
  startedAt: string;
  machine: { nproc: number; node: string; platform: string; cpuModel: string };
  settings: { connections: number; durationSeconds: number; warmupSeconds: number };
  results: Record<PathKey, PathResult>;
  ratios: Record<string, number>;
  platformMemory: MemoryReading;
  patchIntegrity: { ok2xx: number; revisionsApplied: number };
  targets: Target[];
  failures: string[];
}

const ratio = (a: number, b: number): number => (b > 0 ? a / b : 0);

export function computeRatios(results: Record<PathKey, LoadResult>): Record<string, number> {
  const rps = (key: PathKey) => results[key].requestsPerSecond;
  return {
    'express+Connect / bare': ratio(rps('expressConnect'), rps('bareHttp')),
    'full GET / bare': ratio(rps('platformGet'), rps('bareHttp')),
    'full PATCH / bare': ratio(rps('platformPatch'), rps('bareHttp')),
    'full GET / express+Connect': ratio(rps('platformGet'), rps('expressConnect')),
    'full PATCH / express+Connect': ratio(rps('platformPatch'), rps('expressConnect')),
  };
}

export function evaluateTargets(results: Record<PathKey, LoadResult>, ratios: Record<string, number>, memory: MemoryReading): Target[] {
  const getRatio = ratios['full GET / express+Connect'] ?? 0;
  const p99 = results.platformGet.latencyMs.p99;
  const peakMb = Math.max(memory.highWaterMarkMb, memory.sampledPeakRssMb);
  return [
    { name: 'full GET / express+Connect req/s', measured: getRatio, bound: '>= 0.5', pass: getRatio >= 0.5 },
    { name: 'full GET p99 latency (ms)', measured: p99, bound: '< 100', pass: p99 < 100 },
    { name: 'platform peak RSS (MB)', measured: peakMb, bound: '< 400', pass: peakMb < 400 },
  ];
}

/** Anything that means the measurement itself is broken (the bench exits non-zero for these). */
export function findFailures(results: Record<PathKey, LoadResult>, patchIntegrity: BenchReport['patchIntegrity'], connections: number): string[] {
  const failures: string[] = [];
  for (const key of Object.keys(results) as PathKey[]) {
    const r = results[key];
    if (r.non2xx > 0) failures.push(`${pathLabels[key]}: ${r.non2xx} non-2xx answers (${JSON.stringify(r.statusCodes)})`);
    if (r.errors > 0) failures.push(`${pathLabels[key]}: ${r.errors} connection errors (${r.timeouts} timeouts)`);
    if (r.ok2xx === 0) failures.push(`${pathLabels[key]}: no 2xx answer at all`);
  }
  // Every 2xx PATCH bumped a revision; at most one in-flight PATCH per connection may land after the run stopped.
  const { ok2xx, revisionsApplied } = patchIntegrity;
  if (revisionsApplied < ok2xx || revisionsApplied > ok2xx + connections) {
    failures.push(`PATCH: ${ok2xx} 2xx answers but ${revisionsApplied} revisions applied`);
  }
  return failures;
}

const fmt = (value: number, digits = 0): string => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function formatReport(report: BenchReport): string {
  const lines: string[] = [];
  const { machine, settings } = report;
  lines.push('', `Machine: ${machine.nproc} cores (${machine.cpuModel}), Node ${machine.node}, ${machine.platform}`);
  lines.push(`Load: autocannon, ${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per path`, '');
  lines.push(
    `${'path'.padEnd(44)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'non-2xx'.padStart(8)} ${'errors'.padStart(7)} ${'srv CPU'.padStart(8)} ${'gen CPU'.padStart(8)}`,
  );
  for (const key of Object.keys(pathLabels) as PathKey[]) {
    const r = report.results[key];
    lines.push(
      `${pathLabels[key].padEnd(44)} ${fmt(r.requestsPerSecond).padStart(9)} ${fmt(r.latencyMs.p50).padStart(7)} ${fmt(r.latencyMs.p99).padStart(7)} ${fmt(r.non2xx).padStart(8)} ${fmt(r.errors).padStart(7)} ${`${fmt(r.cpu.serverPercent)}%`.padStart(8)} ${`${fmt(r.cpu.loadGeneratorPercent)}%`.padStart(8)}`,
    );
  }
  lines.push('(srv CPU / gen CPU: % of one core used by the server process / by the load generator during the measured run)');
  lines.push('', 'Ratios (req/s):');
  for (const [name, value] of Object.entries(report.ratios)) lines.push(`  ${name.padEnd(30)} ${fmt(value, 3)}`);
  const memory = report.platformMemory;
  lines.push('', `Platform memory: VmHWM ${fmt(memory.highWaterMarkMb, 1)} MB, sampled peak VmRSS ${fmt(memory.sampledPeakRssMb, 1)} MB (${memory.samples} samples)`);
  lines.push(`PATCH integrity: ${report.patchIntegrity.ok2xx} 2xx answers, ${report.patchIntegrity.revisionsApplied} revisions applied`);
  lines.push('', 'Targets:');
  for (const target of report.targets) {
    lines.push(`  ${target.pass ? 'PASS' : 'MISS'}  ${target.name.padEnd(36)} ${fmt(target.measured, 3).padStart(9)}  (target ${target.bound})`);
  }
  if (report.failures.length > 0) {
    lines.push('', 'BROKEN:');
    for (const failure of report.failures) lines.push(`  ${failure}`);
  }
  return `${lines.join('\n')}\n`;
}

export function writeReport(resultsDir: string, report: BenchReport): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `bench-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(file, json);
  writeFileSync(join(resultsDir, 'latest.json'), json);
  return file;
}
