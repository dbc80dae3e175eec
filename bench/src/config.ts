// The bench's settings, read once from the environment (BENCH_*), with defaults for `npm run bench`.
import { resolve } from 'node:path';
import { platformNodeFlags } from '@voice/platform';
import { maxDialLeads } from './dial-rate.js';

/** The parts of a bench run; BENCH_SECTIONS picks some (all by default). */
export const benchSections = ['compare', 'patch', 'sms', 'calls', 'cluster', 'dial'] as const;
export type BenchSection = (typeof benchSections)[number];

export interface BenchConfig {
  /** Measured seconds per single-run path (PATCH, SMS, the cluster's paths). */
  durationSeconds: number;
  /** Seconds of unmeasured load before each single run, and once per server before the rounds (JIT, caches, HTTP/2 sessions). */
  warmupSeconds: number;
  /** A/B rounds of the compared servers (bare node:http, the floor, the full GET). */
  rounds: number;
  /** Measured seconds of each server in each round. */
  roundSeconds: number;
  /** Unmeasured seconds before each server's run in a round. */
  roundWarmupSeconds: number;
  /** Concurrent senders of the cluster's SMS run. */
  clusterSmsSenders: number;
  /** Concurrent placers of the call runs (each call then holds a media session for its length). */
  callConnections: number;
  sections: ReadonlySet<BenchSection>;
  /** Node flags of the single-process platform and the baselines: the production flags unless BENCH_NODE_FLAGS says otherwise ("" for none). */
  nodeFlags: readonly string[];
  /** The built platform to measure: this repository unless BENCH_PLATFORM_ROOT names another checkout (an older commit, built). */
  platformRoot: string;
  /** Concurrent HTTP/1.1 keep-alive connections of the load generator. */
  connections: number;
  /** Seconds of GET load while the platform runs under --cpu-prof (profile entry only). */
  profileSeconds: number;
  /** How long, after the SMS run, the ledger may take to hold a debit for every accepted send. */
  smsLagTimeoutSeconds: number;
  /** How long, after a call run, its calls may take to end and be charged. */
  callLagTimeoutSeconds: number;
  /** Leads of each dial-rate campaign (single process, then the cluster with 1 and 2 dialer replicas). */
  dialLeads: number;
  /** How long a dial-rate campaign may take to call every lead, and then to complete. */
  dialTimeoutSeconds: number;
  /** The repository root (two levels above bench/dist/src). */
  repoRoot: string;
  /** Where results and profiles go (bench/results, gitignored). */
  resultsDir: string;
}

function positiveInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return Number(raw);
}

function atMost(name: string, value: number, max: number): number {
  if (value > max) throw new Error(`${name} must be at most ${max}, got ${value}`);
  return value;
}

function sectionsOf(raw: string | undefined): ReadonlySet<BenchSection> {
  if (raw === undefined || raw.trim() === '') return new Set(benchSections);
  const named = raw.split(',').map((part) => part.trim());
  const unknown = named.filter((part) => !(benchSections as readonly string[]).includes(part));
  if (unknown.length > 0) throw new Error(`BENCH_SECTIONS: unknown ${unknown.join(', ')} (known: ${benchSections.join(', ')})`);
  return new Set(named as BenchSection[]);
}

export function readBenchConfig(): BenchConfig {
  const repoRoot = resolve(__dirname, '..', '..', '..');
  return {
    durationSeconds: positiveInt('BENCH_DURATION_SECONDS', 10),
    warmupSeconds: positiveInt('BENCH_WARMUP_SECONDS', 3, 0),
    rounds: positiveInt('BENCH_ROUNDS', 4),
    roundSeconds: positiveInt('BENCH_ROUND_SECONDS', 5),
    roundWarmupSeconds: positiveInt('BENCH_ROUND_WARMUP_SECONDS', 1, 0),
    clusterSmsSenders: positiveInt('BENCH_CLUSTER_SMS_SENDERS', 20),
    callConnections: positiveInt('BENCH_CALL_CONNECTIONS', 20),
    sections: sectionsOf(process.env.BENCH_SECTIONS),
    nodeFlags: process.env.BENCH_NODE_FLAGS === undefined ? platformNodeFlags : process.env.BENCH_NODE_FLAGS.split(/\s+/).filter(Boolean),
    platformRoot: resolve(process.env.BENCH_PLATFORM_ROOT?.trim() || repoRoot),
    connections: positiveInt('BENCH_CONNECTIONS', 50),
    profileSeconds: positiveInt('BENCH_PROFILE_SECONDS', 10),
    smsLagTimeoutSeconds: positiveInt('BENCH_SMS_LAG_TIMEOUT_SECONDS', 60),
    callLagTimeoutSeconds: positiveInt('BENCH_CALL_LAG_TIMEOUT_SECONDS', 120),
    dialLeads: atMost('BENCH_DIAL_LEADS', positiveInt('BENCH_DIAL_LEADS', 300), maxDialLeads),
    dialTimeoutSeconds: positiveInt('BENCH_DIAL_TIMEOUT_SECONDS', 180),
    repoRoot,
    resultsDir: resolve(repoRoot, 'bench', 'results'),
  };
}
