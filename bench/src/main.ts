// `npm run bench`: measures the four paths one after another, each server in its own child process,
// prints ratios and PASS/MISS per target, writes bench/results/*.json; exits non-zero only if broken.
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { spawnServer, type ChildServer } from './children.js';
import { readBenchConfig, type BenchConfig } from './config.js';
import { createTools, readToolBody, refreshRevisions, type ToolFixture } from './fixtures.js';
import { runLoad, warmUp, type LoadResult } from './load.js';
import { describeMachine } from './machine.js';
import { RssSampler } from './memory.js';
import { startPlatformChild } from './platform.js';
import { computeRatios, evaluateTargets, findFailures, formatReport, pathLabels, writeReport, type BenchReport, type PathKey } from './report.js';
import { getToolScenario, patchToolScenario, type Scenario } from './scenarios.js';
import { readyUrlOfBenchServer } from './servers/ready.js';

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** Lets requests cut off by the end of a run finish on the server before anything is read back. */
const settleMs = 500;

async function measure(config: BenchConfig, key: PathKey, url: string, scenario: Scenario, beforeRun?: () => Promise<void>): Promise<LoadResult> {
  const settings = { url, connections: config.connections, scenario };
  log(`${pathLabels[key]}: ${config.warmupSeconds} s warm-up`);
  await beforeRun?.();
  const warm = await warmUp({ ...settings, durationSeconds: config.warmupSeconds });
  if (warm && (warm.non2xx > 0 || warm.errors > 0)) {
    log(`warning: warm-up saw ${warm.non2xx} non-2xx and ${warm.errors} errors (${JSON.stringify(warm.statusCodes)})`);
  }
  await sleep(settleMs);
  await beforeRun?.();
  log(`${pathLabels[key]}: ${config.durationSeconds} s measured`);
  const result = await runLoad({ ...settings, durationSeconds: config.durationSeconds });
  await sleep(settleMs);
  log(`${pathLabels[key]}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyMs.p99} ms, non-2xx ${result.non2xx}`);
  return result;
}

async function measureBenchServer(config: BenchConfig, key: PathKey, script: string, body: unknown, scenario: Scenario): Promise<LoadResult> {
  const server: ChildServer = await spawnServer({
    name: key,
    script: join(__dirname, 'servers', script),
    env: { ...process.env, BENCH_RESPONSE_BODY: JSON.stringify(body) },
    readyUrl: readyUrlOfBenchServer,
  });
  try {
    return await measure(config, key, server.url, scenario);
  } finally {
    await server.stop();
  }
}

const totalRevision = (tools: ToolFixture[]) => tools.reduce((sum, tool) => sum + tool.revision, 0);

async function main(): Promise<number> {
  const config = readBenchConfig();
  const startedAt = new Date().toISOString();
  log('starting the platform');
  const platform = await startPlatformChild(config.repoRoot);
  try {
    const { url } = platform.server;
    const tools = await createTools(url, platform.apiKey, config.connections);
    const body = await readToolBody(url, platform.apiKey, tools[0]!.id);
    const getScenario = getToolScenario(platform.apiKey, tools.map((tool) => tool.id));

    // The platform idles (no load) while the two baselines run.
    const bareHttp = await measureBenchServer(config, 'bareHttp', 'bare-http.js', body, getScenario);
    const expressConnect = await measureBenchServer(config, 'expressConnect', 'express-connect.js', body, getScenario);

    const sampler = new RssSampler(platform.server.pid);
    sampler.start();
    const platformGet = await measure(config, 'platformGet', url, getScenario);
    const refresh = () => refreshRevisions(url, platform.apiKey, tools);
    let before = 0;
    const platformPatch = await measure(config, 'platformPatch', url, patchToolScenario(platform.apiKey, tools), async () => {
      await refresh();
      before = totalRevision(tools);
    });
    await refresh();
    const patchIntegrity = { ok2xx: platformPatch.ok2xx, revisionsApplied: totalRevision(tools) - before };
    const platformMemory = sampler.stop();

    const results: Record<PathKey, LoadResult> = { bareHttp, expressConnect, platformGet, platformPatch };
    const ratios = computeRatios(results);
    const report: BenchReport = {
      startedAt,
      machine: describeMachine(),
      settings: { connections: config.connections, durationSeconds: config.durationSeconds, warmupSeconds: config.warmupSeconds },
      results,
      ratios,
      platformMemory,
      patchIntegrity,
      targets: evaluateTargets(results, ratios, platformMemory),
      failures: findFailures(results, patchIntegrity, config.connections),
    };
    process.stdout.write(formatReport(report));
    log(`results written to ${writeReport(config.resultsDir, report)}`);
    return report.failures.length > 0 ? 1 : 0;
  } finally {
    const code = await platform.stop();
    if (code !== 0) log(`warning: the platform exited with ${code}`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
