// The bench's settings, read once from the environment (BENCH_*), with defaults for `npm run bench`.
import { resolve } from 'node:path';

export interface BenchConfig {
  /** Measured seconds per path. */
  durationSeconds: number;
  /** Seconds of unmeasured load before each measured run (JIT, caches, HTTP/2 sessions). */
  warmupSeconds: number;
  /** Concurrent HTTP/1.1 keep-alive connections of the load generator. */
  connections: number;
  /** Seconds of GET load while the platform runs under --cpu-prof (profile entry only). */
  profileSeconds: number;
  /** How long, after the SMS run, the ledger may take to hold a debit for every accepted send. */
  smsLagTimeoutSeconds: number;
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

export function readBenchConfig(): BenchConfig {
  const repoRoot = resolve(__dirname, '..', '..', '..');
  return {
    durationSeconds: positiveInt('BENCH_DURATION_SECONDS', 10),
    warmupSeconds: positiveInt('BENCH_WARMUP_SECONDS', 3, 0),
    connections: positiveInt('BENCH_CONNECTIONS', 50),
    profileSeconds: positiveInt('BENCH_PROFILE_SECONDS', 10),
    smsLagTimeoutSeconds: positiveInt('BENCH_SMS_LAG_TIMEOUT_SECONDS', 60),
    repoRoot,
    resultsDir: resolve(repoRoot, 'bench', 'results'),
  };
}
