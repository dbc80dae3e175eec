// `npm run bench`: measures the five paths one after another, each server in its own child process,
// then the SMS event lag; prints ratios and PASS/MISS per target, writes bench/results/*.json;
// exits non-zero only if broken.
import { setTimeout as sleep } from 'node:timers/promises';
import { startBaseline, type Baseline } from './bench-servers.js';
import type { ChildServer } from './children.js';
import { readBenchConfig, type BenchConfig } from './config.js';
import { createTools, readToolBody, refreshRevisions, type ToolFixture } from './fixtures.js';
import { startCpuMeter } from './cpu.js';
import { runLoad, warmUp } from './load.js';
import { describeMachine } from './machine.js';
import { RssSampler } from './memory.js';
import { startPlatformChild } from './platform.js';
import { computeRatios, evaluateTargets, findFailures, formatReport, pathLabels, writeReport, type BenchReport, type PathKey, type PathResult } from './report.js';
import { getToolScenario, patchToolScenario, sendSmsScenario, type Scenario } from './scenarios.js';
import { SentSmsLog } from './sent-sms.js';
import { benchSmsDestination, prepareSmsSender } from './sms-fixtures.js';
import { measureSmsLag } from './sms-lag.js';

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** Lets requests cut off by the end of a run finish on the server before anything is read back. */
const settleMs = 500;

async function measure(
  config: BenchConfig,
  key: PathKey,
  server: ChildServer,
  scenario: Scenario,
  beforeRun?: () => Promise<void>,
): Promise<PathResult> {
  const settings = { url: server.url, connections: config.connections, scenario };
  log(`${pathLabels[key]}: ${config.warmupSeconds} s warm-up`);
  await beforeRun?.();
  const warm = await warmUp({ ...settings, durationSeconds: config.warmupSeconds });
  if (warm && (warm.non2xx > 0 || warm.errors > 0)) {
    log(`warning: warm-up saw ${warm.non2xx} non-2xx and ${warm.errors} errors (${JSON.stringify(warm.statusCodes)})`);
  }
  await sleep(settleMs);
  await beforeRun?.();
  log(`${pathLabels[key]}: ${config.durationSeconds} s measured`);
  const stopCpuMeter = startCpuMeter(server.pid);
  const load = await runLoad({ ...settings, durationSeconds: config.durationSeconds });
  const died = server.exit();
  if (died !== undefined) throw new Error(`${server.name} died during the measured run (${died})`);
  const result = { ...load, cpu: stopCpuMeter() };
  await sleep(settleMs);
  log(
    `${pathLabels[key]}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyMs.p99} ms, non-2xx ${result.non2xx}, ` +
      `CPU server ${Math.round(result.cpu.serverPercent)}% / load generator ${Math.round(result.cpu.loadGeneratorPercent)}%`,
  );
  return result;
}

async function measureBaseline(config: BenchConfig, baseline: Baseline, body: unknown, scenario: Scenario): Promise<PathResult> {
  const server = await startBaseline(baseline, body);
  try {
    return await measure(config, baseline, server, scenario);
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
    const smsSender = await prepareSmsSender(url, platform.apiKey);

    // The platform idles (no load) while the two baselines run.
    const bareHttp = await measureBaseline(config, 'bareHttp', body, getScenario);
    const expressConnect = await measureBaseline(config, 'expressConnect', body, getScenario);

    const sampler = new RssSampler(platform.server.pid);
    sampler.start();
    const platformGet = await measure(config, 'platformGet', platform.server, getScenario);
    const refresh = () => refreshRevisions(url, platform.apiKey, tools);
    let before = 0;
    const platformPatch = await measure(config, 'platformPatch', platform.server, patchToolScenario(platform.apiKey, tools), async () => {
      await refresh();
      before = totalRevision(tools);
    });
    await refresh();
    const patchIntegrity = { ok2xx: platformPatch.ok2xx, revisionsApplied: totalRevision(tools) - before };
    const sentSms = new SentSmsLog();
    const smsScenario = sendSmsScenario(platform.apiKey, smsSender, benchSmsDestination, sentSms);
    const platformSms = await measure(config, 'platformSms', platform.server, smsScenario, async () => sentSms.startRun());
    const platformMemory = sampler.stop();
    log(`SMS: waiting for one ledger debit per 202 answer (at most ${config.smsLagTimeoutSeconds} s)`);
    const smsLag = await measureSmsLag(url, platform.apiKey, sentSms, config.connections, config.smsLagTimeoutSeconds);

    const results: Record<PathKey, PathResult> = { bareHttp, expressConnect, platformGet, platformPatch, platformSms };
    const ratios = computeRatios(results);
    const report: BenchReport = {
      startedAt,
      machine: describeMachine(),
      settings: { connections: config.connections, durationSeconds: config.durationSeconds, warmupSeconds: config.warmupSeconds },
      results,
      ratios,
      platformMemory,
      patchIntegrity,
      smsLag,
      targets: evaluateTargets(results, ratios, platformMemory),
      failures: findFailures(results, patchIntegrity, smsLag, config.connections),
    };
    process.stdout.write(formatReport(report));
    log(`results written to ${writeReport(config.resultsDir, report)}`);
    return report.failures.length > 0 ? 1 : 0;
  } finally {
    const died = platform.server.exit();
    const code = await platform.stop();
    if (died !== undefined) log(`the platform had already ended (${died})`);
    else if (code !== 0) log(`warning: the platform exited with ${code} on SIGTERM`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
