// `npm run profile -w bench` (after a build): runs the platform, then the express+Connect floor, under
// --cpu-prof through the same GET load and prints where each spends its CPU (files stay in bench/results/).
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { platformNodeFlags } from '@voice/platform';
import { startBaseline } from './bench-servers.js';
import type { ChildServer } from './children.js';
import { readBenchConfig, type BenchConfig } from './config.js';
import { formatProfileSummary, summariseProfile } from './cpuprofile.js';
import { createTools, readToolBody } from './fixtures.js';
import { runLoad } from './load.js';
import { startPlatformChild } from './platform.js';
import { getToolScenario, type Scenario } from './scenarios.js';

const log = (message: string) => process.stderr.write(`[profile] ${message}\n`);

/** Loads a server started with --cpu-prof, stops it gracefully (the profile is written at exit) and summarises it. */
async function profileRun(config: BenchConfig, name: string, dir: string, server: ChildServer, stop: () => Promise<number | null>, scenario: Scenario): Promise<number> {
  const settings = { url: server.url, connections: config.connections, scenario };
  log(`${name}: GET load, ${config.warmupSeconds} s warm-up + ${config.profileSeconds} s, ${config.connections} connections`);
  const warm = config.warmupSeconds > 0 ? await runLoad({ ...settings, durationSeconds: config.warmupSeconds }) : undefined;
  const result = await runLoad({ ...settings, durationSeconds: config.profileSeconds });
  // Every request served while the profiler ran (start-up and fixtures are a rounding error).
  const requests = (warm?.totalRequests ?? 0) + result.totalRequests;
  log(`${name}: ${Math.round(result.requestsPerSecond)} req/s under the profiler, non-2xx ${result.non2xx}`);
  const code = await stop();
  const file = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile'));
  if (code !== 0 || file === undefined) throw new Error(`${name} exited with ${code} and left no profile in ${dir}`);
  const summary = summariseProfile(join(dir, file), 30);
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify({ load: result, requestsServed: requests, ...summary }, null, 2)}\n`);
  process.stdout.write(`\n=== ${name} ===\n${formatProfileSummary(summary, requests)}`);
  return result.non2xx + result.errors;
}

async function main(): Promise<number> {
  const config = readBenchConfig();
  const root = join(config.resultsDir, `profile-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const dirOf = (name: string) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };

  const platformDir = dirOf('platform');
  const platform = await startPlatformChild(config.repoRoot, [...platformNodeFlags, '--cpu-prof', `--cpu-prof-dir=${platformDir}`]);
  let failures: number;
  let body: unknown;
  let scenario: Scenario;
  try {
    const tools = await createTools(platform.server.url, platform.apiKey, config.connections);
    body = await readToolBody(platform.server.url, platform.apiKey, tools[0]!.id);
    scenario = getToolScenario(platform.apiKey, tools.map((tool) => tool.id));
    failures = await profileRun(config, 'platform GET /api/v1/tools/{id}', platformDir, platform.server, () => platform.stop(), scenario);
  } finally {
    await platform.stop();
  }

  const floorDir = dirOf('express-connect');
  const floor = await startBaseline('expressConnect', body, [...platformNodeFlags, '--cpu-prof', `--cpu-prof-dir=${floorDir}`]);
  try {
    failures += await profileRun(config, 'express 5 + 1 Connect call (floor)', floorDir, floor, () => floor.stop(), scenario);
  } finally {
    await floor.stop();
  }
  log(`profiles and summaries in ${root}`);
  return failures > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[profile] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
