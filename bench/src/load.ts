// Drives one server with autocannon (programmatic API): an unmeasured warm-up, then the measured run.
import autocannon from 'autocannon';
import type { Scenario } from './scenarios.js';

export interface LoadSettings {
  url: string;
  connections: number;
  durationSeconds: number;
  scenario: Scenario;
}

export interface LoadResult {
  /** Mean of autocannon's per-second samples. */
  requestsPerSecond: number;
  /** Spread of the per-second samples (a noisy machine or a stalling server shows here). */
  perSecond: { min: number; max: number; stddev: number };
  totalRequests: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Latencies of 2xx answers, in ms (autocannon's histogram has 1 ms resolution). */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  statusCodes: Record<string, number>;
  durationSeconds: number;
}

export async function runLoad(settings: LoadSettings): Promise<LoadResult> {
  let next = 0;
  const instance = autocannon({
    url: settings.url,
    connections: settings.connections,
    duration: settings.durationSeconds,
    pipelining: 1,
    timeout: 10,
    setupClient: (client) => {
      client.setRequests([settings.scenario(next++)]);
    },
  });
  const result = await instance;
  return {
    requestsPerSecond: result.requests.average,
    perSecond: { min: result.requests.min, max: result.requests.max, stddev: result.requests.stddev },
    totalRequests: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.mean },
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count])),
    durationSeconds: result.duration,
  };
}

/** A warm-up whose numbers are dropped, except failures, which are returned for the caller to check. */
export async function warmUp(settings: LoadSettings): Promise<LoadResult | undefined> {
  if (settings.durationSeconds <= 0) return undefined;
  return runLoad(settings);
}
