// Turns the measured runs into a table, ratios with their spread over the A/B rounds and PASS/MISS
// verdicts, prints them, and writes them as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuMicrosPerRequest, type PathResult } from './measure.js';
import type { MemoryReading } from './memory.js';
import type { CallLagReport } from './call-lag.js';
import type { DialSection } from './dial-rate.js';
import type { LagFigures, SmsLagReport } from './sms-lag.js';
import type { WebhookLagReport } from './webhook-lag.js';
import { spreadOf, type Spread } from './spread.js';

/** The servers of the A/B rounds. */
export type ComparedKey = 'bareHttp' | 'expressConnect' | 'platformGet';

/** One line of the table: a path on a server, measured once or once per round. */
export interface PathRow {
  key: string;
  label: string;
  connections: number;
  runs: PathResult[];
}

export interface SmsSection {
  label: string;
  senders: number;
  lag: SmsLagReport;
  /** The sms.status webhook events of the section's messages: from the status change to the receiver. */
  webhookLag?: WebhookLagReport;
}

export interface CallsSection {
  label: string;
  connections: number;
  lag: CallLagReport;
}

export interface Target {
  name: string;
  measured: number;
  /** Human-readable bound, e.g. ">= 0.9". */
  bound: string;
  pass: boolean;
}

export interface BenchReport {
  startedAt: string;
  machine: { nproc: number; node: string; platform: string; cpuModel: string; loadAverage: number[] };
  /** The checkout whose built platform was measured. */
  platformRoot: string;
  settings: Record<string, number | string>;
  rows: PathRow[];
  /** Ratios of req/s: per round for the compared servers (median and range), single values otherwise. */
  ratios: Record<string, Spread>;
  platformMemory: MemoryReading | undefined;
  clusterMemory: MemoryReading | undefined;
  patchIntegrity: { ok2xx: number; revisionsApplied: number } | undefined;
  sms: SmsSection[];
  calls: CallsSection[];
  dial: DialSection[];
  targets: Target[];
  failures: string[];
}

export const compareLabels: Record<ComparedKey, string> = {
  bareHttp: 'bare node:http (physical limit)',
  expressConnect: 'express 5 + 1 Connect call (floor)',
  platformGet: 'full GET, single process',
};

const ratio = (a: number, b: number): number => (b > 0 ? a / b : 0);
const rps = (result: PathResult) => result.requestsPerSecond;

/** Per-round ratios of the compared servers: each ratio from runs of the same round. */
export function roundRatios(rounds: Record<ComparedKey, PathResult[]>): Record<string, Spread> {
  const per = (a: ComparedKey, b: ComparedKey) => spreadOf(rounds[a].map((result, round) => ratio(rps(result), rps(rounds[b][round]!))));
  return {
    'full GET / floor': per('platformGet', 'expressConnect'),
    'full GET / bare': per('platformGet', 'bareHttp'),
    'floor / bare': per('expressConnect', 'bareHttp'),
  };
}

/** A ratio of two rows' median req/s (rows measured at different times: read it with the spread in mind). */
export function medianRatio(row: PathRow | undefined, to: PathRow | undefined): Spread | undefined {
  if (!row || !to) return undefined;
  return spreadOf([ratio(spreadOf(row.runs.map(rps)).median, spreadOf(to.runs.map(rps)).median)]);
}

export interface TargetInputs {
  ratios: Record<string, Spread>;
  platformGet: PathRow | undefined;
  platformMemory: MemoryReading | undefined;
  clusterSms: SmsSection | undefined;
}

/** Issue 20's figures: each is evaluated only when its section ran. */
export function evaluateTargets({ ratios, platformGet, platformMemory, clusterSms }: TargetInputs): Target[] {
  const targets: Target[] = [];
  const floor = ratios['full GET / floor'];
  const bare = ratios['full GET / bare'];
  if (floor) targets.push({ name: 'full GET / floor req/s (median of rounds)', measured: floor.median, bound: '>= 0.9', pass: floor.median >= 0.9 });
  if (bare) targets.push({ name: 'full GET / bare req/s (median of rounds)', measured: bare.median, bound: '>= 0.04', pass: bare.median >= 0.04 });
  if (platformGet) {
    const p99 = spreadOf(platformGet.runs.map((run) => run.latencyMs.p99)).median;
    targets.push({ name: 'full GET p99 ms (median of rounds)', measured: p99, bound: '< 100', pass: p99 < 100 });
  }
  if (platformMemory) {
    const peak = Math.max(platformMemory.highWaterMarkMb, platformMemory.sampledPeakRssMb);
    targets.push({ name: 'platform peak RSS MB (single process)', measured: peak, bound: '<= 300', pass: peak <= 300 });
  }
  if (clusterSms) {
    const p99 = clusterSms.lag.lagMs?.p99 ?? Number.POSITIVE_INFINITY;
    targets.push({ name: `cluster SMS lag p99 ms (${clusterSms.senders} senders)`, measured: p99, bound: '< 100', pass: p99 < 100 });
  }
  return targets;
}

/** Anything that means a run itself is broken (the bench exits non-zero for these). */
export function findRunFailures(rows: PathRow[]): string[] {
  const failures: string[] = [];
  for (const row of rows) {
    row.runs.forEach((run, index) => {
      const which = row.runs.length > 1 ? `${row.label} (run ${index + 1})` : row.label;
      if (run.non2xx > 0) failures.push(`${which}: ${run.non2xx} non-2xx answers (${JSON.stringify(run.statusCodes)})`);
      if (run.errors > 0) failures.push(`${which}: ${run.errors} connection errors (${run.timeouts} timeouts)`);
      if (run.ok2xx === 0) failures.push(`${which}: no 2xx answer at all`);
    });
  }
  return failures;
}

/** Every 2xx PATCH bumped a revision; at most one in-flight PATCH per connection may land after the run stopped. */
export function findPatchFailures(integrity: { ok2xx: number; revisionsApplied: number }, connections: number): string[] {
  const { ok2xx, revisionsApplied } = integrity;
  return revisionsApplied < ok2xx || revisionsApplied > ok2xx + connections ? [`PATCH: ${ok2xx} 2xx answers but ${revisionsApplied} revisions applied`] : [];
}

/** Every accepted SMS must become exactly one debit, and every 202 answer must have been read. */
export function findSmsFailures(sms: PathResult, section: SmsSection): string[] {
  const { lag, label } = section;
  const failures: string[] = [];
  const integrity = lag.integrity;
  if (lag.messages !== sms.ok2xx) failures.push(`${label}: autocannon counted ${sms.ok2xx} 2xx answers but ${lag.messages} 202 bodies were read`);
  if (!lag.complete) {
    const readError = lag.lastReadError === undefined ? '' : ` (last read failed: ${lag.lastReadError})`;
    failures.push(`${label}: after ${lag.timeoutSeconds} s the ledger held a debit for only ${integrity.debitedAnswers} of ${integrity.answers} 202 answers${readError}`);
  }
  if (integrity.debitedTwice > 0) failures.push(`${label}: ${integrity.debitedTwice} messages debited more than once`);
  if (integrity.debitsWithoutAnswer > integrity.allowedWithoutAnswer) {
    failures.push(`${label}: ${integrity.debitsWithoutAnswer} debits of messages never answered with 202 (at most ${integrity.allowedWithoutAnswer} were in flight)`);
  }
  return failures;
}

/** Every call taken must end, every answered one be charged exactly once, and every 201 answer have been read. */
export function findCallFailures(run: PathResult, section: CallsSection): string[] {
  const { lag, label } = section;
  const { integrity } = lag;
  const failures: string[] = [];
  if (integrity.answers < run.ok2xx) failures.push(`${label}: autocannon counted ${run.ok2xx} 2xx answers but ${integrity.answers} 201 bodies were read`);
  if (!lag.complete) {
    const readError = lag.lastReadError === undefined ? '' : ` (last read failed: ${lag.lastReadError})`;
    failures.push(
      `${label}: after ${lag.timeoutSeconds} s ${integrity.ended} of ${integrity.answers} calls had ended and ${integrity.charged} of ${integrity.billable} answered ones were charged${readError}`,
    );
  }
  if (integrity.chargedTwice > 0) failures.push(`${label}: ${integrity.chargedTwice} calls charged more than once`);
  if (integrity.debitsWithoutAnswer > integrity.allowedWithoutAnswer) {
    failures.push(`${label}: ${integrity.debitsWithoutAnswer} debits of calls never answered with 201 (at most ${integrity.allowedWithoutAnswer} were in flight)`);
  }
  return failures;
}

const fmt = (value: number, digits = 0): string => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** "1,234" for one run, "1,234 (1,100-1,300)" for several: the median and the range. */
function spreadText(values: number[], digits = 0): string {
  const spread = spreadOf(values);
  return values.length === 1 ? fmt(spread.median, digits) : `${fmt(spread.median, digits)} (${fmt(spread.min, digits)}-${fmt(spread.max, digits)})`;
}

function formatRow(row: PathRow): string {
  const runs = row.runs;
  const sum = (pick: (run: PathResult) => number) => runs.reduce((total, run) => total + pick(run), 0);
  return [
    `${row.label} [${row.connections}]`.padEnd(52),
    spreadText(runs.map(rps)).padStart(24),
    spreadText(runs.map((run) => run.latencyMs.p50)).padStart(12),
    spreadText(runs.map((run) => run.latencyMs.p99)).padStart(14),
    fmt(sum((run) => run.non2xx)).padStart(8),
    fmt(sum((run) => run.errors)).padStart(7),
    `${spreadText(runs.map((run) => run.cpu.serverPercent))}%`.padStart(16),
    spreadText(runs.map(cpuMicrosPerRequest)).padStart(18),
  ].join(' ');
}

const memoryLine = (name: string, memory: MemoryReading): string => {
  const perProcess = memory.perProcessHighWaterMarkMb
    ? `; per process VmHWM ${Object.entries(memory.perProcessHighWaterMarkMb).map(([process, mb]) => `${process} ${fmt(mb, 1)}`).join(', ')}`
    : '';
  return `${name}: VmHWM ${fmt(memory.highWaterMarkMb, 1)} MB, sampled peak VmRSS ${fmt(memory.sampledPeakRssMb, 1)} MB (${memory.samples} samples)${perProcess}`;
};

export function formatReport(report: BenchReport): string {
  const lines: string[] = [];
  const { machine } = report;
  lines.push('', `Node ${machine.node} on ${machine.nproc} cores (${machine.cpuModel}), ${machine.platform}; load average at start ${machine.loadAverage.map((load) => fmt(load, 2)).join(' ')}`);
  lines.push(`Platform measured: ${report.platformRoot}`);
  lines.push(`Settings: ${Object.entries(report.settings).map(([name, value]) => `${name}=${value}`).join(', ')}`, '');
  lines.push(
    `${'path [connections]'.padEnd(52)} ${'req/s'.padStart(24)} ${'p50 ms'.padStart(12)} ${'p99 ms'.padStart(14)} ${'non-2xx'.padStart(8)} ${'errors'.padStart(7)} ${'srv CPU'.padStart(16)} ${'srv CPU µs/req'.padStart(18)}`,
  );
  for (const row of report.rows) lines.push(formatRow(row));
  lines.push('(several runs: median (min-max) over the A/B rounds; srv CPU: % of one core used by the server process(es) during the measured run)');
  lines.push('', 'Ratios (req/s; over rounds: median (min-max)):');
  for (const [name, spread] of Object.entries(report.ratios)) lines.push(`  ${name.padEnd(36)} ${spreadText(spread.values, 3)}`);
  if (report.platformMemory) lines.push('', memoryLine('Single-process platform memory', report.platformMemory));
  if (report.clusterMemory) lines.push(memoryLine('Cluster memory (all children)', report.clusterMemory));
  if (report.patchIntegrity) lines.push(`PATCH integrity: ${report.patchIntegrity.ok2xx} 2xx answers, ${report.patchIntegrity.revisionsApplied} revisions applied`);
  for (const section of report.sms) lines.push(...formatSmsLag(section));
  for (const section of report.calls) lines.push(...formatCallLag(section));
  if (report.dial.length > 0) lines.push('', 'Dial rate (a started campaign, pacing 100 at once and 600 a minute; leads/s from the start until the calls service counts a call of every lead):');
  for (const section of report.dial) lines.push(formatDial(section));
  lines.push('', 'Targets:');
  for (const target of report.targets) {
    lines.push(`  ${target.pass ? 'PASS' : 'MISS'}  ${target.name.padEnd(44)} ${fmt(target.measured, 3).padStart(9)}  (target ${target.bound})`);
  }
  if (report.failures.length > 0) {
    lines.push('', 'BROKEN:');
    for (const failure of report.failures) lines.push(`  ${failure}`);
  }
  return `${lines.join('\n')}\n`;
}

const lagText = (lag: LagFigures): string => `p50 ${fmt(lag.p50)} ms, p99 ${fmt(lag.p99)} ms, max ${fmt(lag.max)} ms, mean ${fmt(lag.mean, 1)} ms`;

function formatSmsLag({ label, senders, lag, webhookLag }: SmsSection): string[] {
  const { integrity } = lag;
  const lagLine = lag.lagMs ? `${lagText(lag.lagMs)} over ${fmt(lag.messages)} messages` : `not computed: ${fmt(lag.messages)} messages, not all debited`;
  const afterLines = [
    ...(lag.afterAcceptanceMs ? [`  of it after the acceptance was recorded (message updated_at; outbox, stream, billing): ${lagText(lag.afterAcceptanceMs)}`] : []),
    ...(lag.afterAnswerMs ? [`  of it after the 202 answer reached the bench: ${lagText(lag.afterAnswerMs)}`] : []),
  ];
  return [
    '',
    `${label}, ${senders} senders: event lag (ledger created_at - message created_at, measured run): ${lagLine}`,
    ...afterLines,
    lag.complete
      ? `  every 202 answer had its debit by ledger read ${lag.ledgerReads} after the run's settle time (reading took ${fmt(lag.waitedMs)} ms)`
      : `  gave up after ${lag.timeoutSeconds} s: the ledger was still missing debits`,
    `  integrity: ${fmt(integrity.answers)} 202 answers (warm-up + measured), ${fmt(integrity.debitedAnswers)} of them debited, ` +
      `${fmt(integrity.debits)} sms.outbound debits, ${integrity.debitedTwice} messages debited twice, ` +
      `${integrity.debitsWithoutAnswer} debits of sends cut off at the end of a run (at most ${integrity.allowedWithoutAnswer})`,
    ...(webhookLag
      ? [
          webhookLag.lagMs
            ? `  webhook delivery lag (receiver's arrival - sms.status created_at): ${lagText(webhookLag.lagMs)} over ${fmt(webhookLag.events)} events`
            : '  webhook delivery lag: no sms.status event reached the receiver',
        ]
      : []),
  ];
}

function formatCallLag({ label, connections, lag }: CallsSection): string[] {
  const { integrity } = lag;
  const statuses = Object.entries(integrity.endStatuses).map(([status, count]) => `${status} ${fmt(count)}`).join(', ');
  return [
    '',
    `${label}, ${connections} connections: charge lag (ledger created_at - call ended_at, measured run): ${lag.lagMs ? `${lagText(lag.lagMs)} over ${fmt(lag.calls)} answered calls` : `not computed: ${fmt(lag.calls)} answered calls, not all charged`}`,
    lag.complete
      ? `  every call had ended and every answered one was charged by read ${lag.reads} after the run (reading took ${fmt(lag.waitedMs)} ms)`
      : `  gave up after ${lag.timeoutSeconds} s: calls still running or uncharged`,
    `  integrity: ${fmt(integrity.answers)} 201 answers (warm-up + measured), ${fmt(integrity.ended)} ended (${statuses || 'none'}), ` +
      `${fmt(integrity.charged)} of ${fmt(integrity.billable)} answered calls charged, ${fmt(integrity.debits)} call.minutes debits, ${integrity.chargedTwice} calls charged twice, ` +
      `${integrity.debitsWithoutAnswer} debits of calls cut off at the end of a run (at most ${integrity.allowedWithoutAnswer})`,
  ];
}

function formatDial({ label, replicas, leads, seconds, leadsPerSecond, integrity }: DialSection): string {
  const rate = seconds === undefined || leadsPerSecond === undefined ? 'not every lead called' : `${fmt(leadsPerSecond, 1)} leads/s (${fmt(leads)} leads in ${fmt(seconds, 2)} s)`;
  return `  ${label.padEnd(40)} ${String(replicas).padStart(2)} dialer(s)  ${rate}; ${fmt(integrity.placed)} calls, ${fmt(integrity.calledOnce)} leads called once, ${integrity.calledTwice} twice, ${integrity.notCompleted} not completed`;
}

export function writeReport(resultsDir: string, report: BenchReport): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `bench-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(file, json);
  writeFileSync(join(resultsDir, 'latest.json'), json);
  return file;
}
