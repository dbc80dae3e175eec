// Turns the measured runs into ratios and PASS/MISS verdicts, prints them, and writes them as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CpuUsage } from './cpu.js';
import type { LoadResult } from './load.js';
import type { MemoryReading } from './memory.js';
import type { SmsLagReport } from './sms-lag.js';

export type PathKey = 'bareHttp' | 'expressConnect' | 'platformGet' | 'platformPatch' | 'platformSms';

export const pathLabels: Record<PathKey, string> = {
  bareHttp: 'bare node:http (physical limit)',
  expressConnect: 'express 5 + 1 Connect call (floor)',
  platformGet: 'GET /api/v1/tools/{id} (full platform)',
  platformPatch: 'PATCH /api/v1/tools/{id} (full platform)',
  platformSms: 'POST /api/v1/sms/send (full platform)',
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
  smsLag: SmsLagReport;
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
    'full SMS / express+Connect': ratio(rps('platformSms'), rps('expressConnect')),
    'full SMS / full GET': ratio(rps('platformSms'), rps('platformGet')),
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
export function findFailures(
  results: Record<PathKey, LoadResult>,
  patchIntegrity: BenchReport['patchIntegrity'],
  smsLag: SmsLagReport,
  connections: number,
): string[] {
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
  return [...failures, ...findSmsFailures(results.platformSms, smsLag)];
}

/** Every accepted SMS must become exactly one debit, and every 202 answer must have been read. */
function findSmsFailures(sms: LoadResult, lag: SmsLagReport): string[] {
  const failures: string[] = [];
  const integrity = lag.integrity;
  if (lag.messages !== sms.ok2xx) failures.push(`SMS: autocannon counted ${sms.ok2xx} 2xx answers but ${lag.messages} 202 bodies were read`);
  if (!lag.complete) {
    const readError = lag.lastReadError === undefined ? '' : ` (last read failed: ${lag.lastReadError})`;
    failures.push(`SMS: after ${lag.timeoutSeconds} s the ledger held a debit for only ${integrity.debitedAnswers} of ${integrity.answers} 202 answers${readError}`);
  }
  if (integrity.debitedTwice > 0) failures.push(`SMS: ${integrity.debitedTwice} messages debited more than once`);
  if (integrity.debitsWithoutAnswer > integrity.allowedWithoutAnswer) {
    failures.push(`SMS: ${integrity.debitsWithoutAnswer} debits of messages never answered with 202 (at most ${integrity.allowedWithoutAnswer} were in flight)`);
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
  lines.push(...formatSmsLag(report.smsLag));
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

function formatSmsLag(lag: SmsLagReport): string[] {
  const { integrity } = lag;
  const lagLine = lag.lagMs
    ? `p50 ${fmt(lag.lagMs.p50)} ms, p99 ${fmt(lag.lagMs.p99)} ms, max ${fmt(lag.lagMs.max)} ms, mean ${fmt(lag.lagMs.mean, 1)} ms over ${fmt(lag.messages)} messages`
    : `not computed: ${fmt(lag.messages)} messages, not all debited`;
  return [
    '',
    `SMS event lag (ledger created_at - message created_at, measured run): ${lagLine}`,
    lag.complete
      ? `  every 202 answer had its debit by ledger read ${lag.ledgerReads} after the run's settle time (reading took ${fmt(lag.waitedMs)} ms)`
      : `  gave up after ${lag.timeoutSeconds} s: the ledger was still missing debits`,
    `SMS integrity: ${fmt(integrity.answers)} 202 answers (warm-up + measured), ${fmt(integrity.debitedAnswers)} of them debited, ` +
      `${fmt(integrity.debits)} sms.outbound debits, ${integrity.debitedTwice} messages debited twice, ` +
      `${integrity.debitsWithoutAnswer} debits of sends cut off at the end of a run (at most ${integrity.allowedWithoutAnswer})`,
  ];
}

export function writeReport(resultsDir: string, report: BenchReport): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `bench-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(file, json);
  writeFileSync(join(resultsDir, 'latest.json'), json);
  return file;
}
