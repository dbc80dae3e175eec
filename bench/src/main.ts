// `npm run bench`: on the single-process platform, A/B rounds of bare node:http, the express+Connect
// floor and the full GET, then the further GET paths, PATCH, SMS with its event lag and calls on the
// sandbox with the lag from each call's end to its ledger entry; then on the cluster topology the
// full GET, SMS with its event lag under concurrent senders, and calls; each SMS section also
// measures the lag of its sms.status webhook events, source event to receiver; and the dial rate of a
// started campaign on the single process and on the cluster with one and two dialer replicas. Prints the
// Node version, a table, ratios with their spread and PASS/MISS per target, writes
// bench/results/*.json; exits non-zero only if a measurement is broken.
import { startBaseline } from './bench-servers.js';
import { startClusterUnderTest } from './cluster.js';
import { readBenchConfig, type BenchConfig } from './config.js';
import { createTools, refreshRevisions, type ToolFixture } from './fixtures.js';
import { platformGetPaths } from './get-paths.js';
import { describeMachine } from './machine.js';
import { childUnderLoad, measureRun, type ServerUnderLoad } from './measure.js';
import { RssSampler, type MemoryReading } from './memory.js';
import { startPlatformChild } from './platform.js';
import {
  compareLabels,
  evaluateTargets,
  findPatchFailures,
  findRunFailures,
  findSmsFailures,
  findCallFailures,
  formatReport,
  medianRatio,
  roundRatios,
  writeReport,
  type BenchReport,
  type ComparedKey,
  type PathRow,
  type SmsSection,
  type CallsSection,
} from './report.js';
import { runRounds } from './rounds.js';
import { patchToolScenario, placeCallScenario, sendSmsScenario } from './scenarios.js';
import { benchCallDestination, benchCallScript, prepareCaller } from './call-fixtures.js';
import { measureCallLag } from './call-lag.js';
import { AcceptedLog } from './accepted-log.js';
import { benchSmsDestination, prepareSmsSender } from './sms-fixtures.js';
import { measureSmsLag } from './sms-lag.js';
import { startWebhookLagProbe } from './webhook-lag.js';
import { findDialFailures, measureDialRate, type DialSection } from './dial-rate.js';
import type { Spread } from './spread.js';

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

const totalRevision = (tools: ToolFixture[]) => tools.reduce((sum, tool) => sum + tool.revision, 0);

/** What both topologies add to the report. */
interface Findings {
  rows: PathRow[];
  ratios: Record<string, Spread>;
  sms: SmsSection[];
  calls: CallsSection[];
  dial: DialSection[];
  failures: string[];
}

/** A campaign of config.dialLeads leads started and followed until each lead was called (dial-rate.ts). */
async function measureDial(config: BenchConfig, url: string, apiKey: string, label: string, replicas: number, findings: Findings): Promise<void> {
  log(`${label}: a campaign of ${config.dialLeads} leads, ${replicas} dialer replica(s), until every lead is called (at most ${config.dialTimeoutSeconds} s)`);
  const section = await measureDialRate(url, apiKey, label, replicas, config.dialLeads, config.dialTimeoutSeconds);
  findings.dial.push(section);
  findings.failures.push(...findDialFailures(section));
}

/** SMS through the platform at `senders` connections, then the lag until every accepted send is in the ledger. */
async function measureSms(config: BenchConfig, server: ServerUnderLoad, apiKey: string, label: string, senders: number, findings: Findings): Promise<PathRow> {
  const sender = await prepareSmsSender(server.url, apiKey);
  const webhooks = await startWebhookLagProbe(server.url, apiKey);
  const sent = new AcceptedLog();
  const row: PathRow = {
    key: label,
    label: `POST /api/v1/sms/send, ${label.replace(/^SMS, /, '')}`,
    connections: senders,
    runs: [
      await measureRun(server, {
        label,
        connections: senders,
        warmupSeconds: config.warmupSeconds,
        durationSeconds: config.durationSeconds,
        scenario: sendSmsScenario(apiKey, sender, benchSmsDestination, sent),
        beforeRun: async () => sent.startRun(),
      }, log),
    ],
  };
  log(`${label}: waiting for one ledger debit per 202 answer (at most ${config.smsLagTimeoutSeconds} s)`);
  const lag = await measureSmsLag(server.url, apiKey, sent, senders, config.smsLagTimeoutSeconds);
  log(`${label}: waiting for the webhook receiver to go quiet`);
  const section = { label, senders, lag, webhookLag: await webhooks.finish(2_000, config.smsLagTimeoutSeconds) };
  findings.sms.push(section);
  findings.failures.push(...findSmsFailures(row.runs[0]!, section));
  return row;
}

/** Calls placed through the platform at `connections` connections (sandbox carrier and runtime), then the lag until each ended call is in the ledger. */
async function measureCalls(config: BenchConfig, server: ServerUnderLoad, apiKey: string, label: string, connections: number, findings: Findings): Promise<PathRow> {
  const caller = await prepareCaller(server.url, apiKey);
  const placed = new AcceptedLog();
  const run = await measureRun(server, {
    label,
    connections,
    warmupSeconds: config.warmupSeconds,
    durationSeconds: config.durationSeconds,
    scenario: placeCallScenario(apiKey, caller, benchCallDestination, benchCallScript, placed),
    beforeRun: async () => placed.startRun(),
  }, log);
  log(`${label}: waiting for every call to end and each answered one to be charged (at most ${config.callLagTimeoutSeconds} s)`);
  const section = { label, connections, lag: await measureCallLag(server.url, apiKey, placed, connections, config.callLagTimeoutSeconds) };
  findings.calls.push(section);
  findings.failures.push(...findCallFailures(run, section));
  return { key: label, label: `POST /api/v1/calls, ${label.replace(/^Calls, /, '')}`, connections, runs: [run] };
}

async function singleProcess(config: BenchConfig, findings: Findings): Promise<{ memory: MemoryReading; patch: BenchReport['patchIntegrity'] }> {
  log('starting the platform (single process)');
  const platform = await startPlatformChild(config.platformRoot, config.nodeFlags);
  const sampler = new RssSampler(platform.server.pid);
  sampler.start();
  let patch: BenchReport['patchIntegrity'];
  try {
    const { url } = platform.server;
    const server = childUnderLoad(platform.server);
    const tools = await createTools(url, platform.apiKey, config.connections);
    const context = { url, apiKey: platform.apiKey, tools };
    const [compared, ...further] = platformGetPaths;
    const { scenario: getScenario, body } = await compared.prepare(context);

    if (config.sections.has('compare')) {
      // The baselines idle while the platform is measured and the other way round; never two under load.
      const bare = await startBaseline('bareHttp', body, config.nodeFlags);
      const floor = await startBaseline('expressConnect', body, config.nodeFlags);
      try {
        const rounds = await runRounds<ComparedKey>([
          { key: 'bareHttp', label: compareLabels.bareHttp, server: childUnderLoad(bare), scenario: getScenario },
          { key: 'expressConnect', label: compareLabels.expressConnect, server: childUnderLoad(floor), scenario: getScenario },
          { key: 'platformGet', label: compareLabels.platformGet, server, scenario: getScenario },
        ], { rounds: config.rounds, connections: config.connections, firstWarmupSeconds: config.warmupSeconds, roundWarmupSeconds: config.roundWarmupSeconds, roundSeconds: config.roundSeconds }, log);
        findings.rows.push(
          { key: 'bareHttp', label: compareLabels.bareHttp, connections: config.connections, runs: rounds.bareHttp },
          { key: 'expressConnect', label: compareLabels.expressConnect, connections: config.connections, runs: rounds.expressConnect },
          { key: 'platformGet', label: `${compared.label}, single process`, connections: config.connections, runs: rounds.platformGet },
        );
        Object.assign(findings.ratios, roundRatios(rounds));
      } finally {
        await bare.stop();
        await floor.stop();
      }
      for (const path of further) {
        const { scenario } = await path.prepare(context);
        const label = `${path.label}, single process`;
        findings.rows.push({ key: path.key, label, connections: config.connections, runs: [await measureRun(server, { label, connections: config.connections, warmupSeconds: config.warmupSeconds, durationSeconds: config.durationSeconds, scenario }, log)] });
      }
    }

    if (config.sections.has('patch')) {
      const refresh = () => refreshRevisions(url, platform.apiKey, tools);
      let before = 0;
      const label = 'PATCH /api/v1/tools/{id}, single process';
      const run = await measureRun(server, {
        label,
        connections: config.connections,
        warmupSeconds: config.warmupSeconds,
        durationSeconds: config.durationSeconds,
        scenario: patchToolScenario(platform.apiKey, tools),
        beforeRun: async () => {
          await refresh();
          before = totalRevision(tools);
        },
      }, log);
      await refresh();
      patch = { ok2xx: run.ok2xx, revisionsApplied: totalRevision(tools) - before };
      findings.failures.push(...findPatchFailures(patch, config.connections));
      findings.rows.push({ key: 'platformPatch', label, connections: config.connections, runs: [run] });
    }

    if (config.sections.has('sms')) findings.rows.push(await measureSms(config, server, platform.apiKey, 'SMS, single process', config.connections, findings));
    if (config.sections.has('calls')) findings.rows.push(await measureCalls(config, server, platform.apiKey, 'Calls, single process', config.callConnections, findings));
    if (config.sections.has('dial')) await measureDial(config, url, platform.apiKey, 'Dial, single process (embedded dialer)', 1, findings);
  } finally {
    const died = platform.server.exit();
    const code = await platform.stop();
    if (died !== undefined) log(`the platform had already ended (${died})`);
    else if (code !== 0) log(`warning: the platform exited with ${code} on SIGTERM`);
  }
  return { memory: sampler.stop(), patch };
}

async function cluster(config: BenchConfig, findings: Findings): Promise<MemoryReading> {
  log('starting the cluster (every service and the gateway as processes of their own)');
  const running = await startClusterUnderTest(config.platformRoot, log);
  const pids = () => running.pids();
  const sampler = new RssSampler(pids);
  sampler.start();
  try {
    const server: ServerUnderLoad = {
      name: 'cluster',
      url: running.url,
      pids: () => Object.values(pids()).filter((pid): pid is number => pid !== undefined),
      exit: () => (running.crashes() > 0 ? `${running.crashes()} child crashes` : undefined),
    };
    if (config.sections.has('cluster')) {
      const tools = await createTools(running.url, running.apiKey, config.connections);
      const [compared] = platformGetPaths;
      const { scenario } = await compared.prepare({ url: running.url, apiKey: running.apiKey, tools });
      const label = `${compared.label}, cluster`;
      findings.rows.push({
        key: 'clusterGet',
        label,
        connections: config.connections,
        runs: [await measureRun(server, { label, connections: config.connections, warmupSeconds: config.warmupSeconds, durationSeconds: config.durationSeconds, scenario }, log)],
      });
      findings.rows.push(await measureSms(config, server, running.apiKey, 'SMS, cluster', config.clusterSmsSenders, findings));
      findings.rows.push(await measureCalls(config, server, running.apiKey, 'Calls, cluster', config.callConnections, findings));
    }
    if (config.sections.has('dial')) {
      await measureDial(config, running.url, running.apiKey, 'Dial, cluster, 1 dialer', 1, findings);
      log('starting a second campaigns dialer');
      await running.addDialerReplica();
      await measureDial(config, running.url, running.apiKey, 'Dial, cluster, 2 dialers', 2, findings);
    }
    if (running.crashes() > 0) findings.failures.push(`cluster: ${running.crashes()} child crashes during the bench`);
  } finally {
    await running.stop();
  }
  return sampler.stop();
}

async function main(): Promise<number> {
  const config = readBenchConfig();
  const startedAt = new Date().toISOString();
  const machine = describeMachine();
  log(`Node ${process.version}; load average ${machine.loadAverage.map((load) => load.toFixed(2)).join(' ')}; measuring ${config.platformRoot}`);
  const findings: Findings = { rows: [], ratios: {}, sms: [], calls: [], dial: [], failures: [] };
  const single = (['compare', 'patch', 'sms', 'calls', 'dial'] as const).some((section) => config.sections.has(section)) ? await singleProcess(config, findings) : undefined;
  const clusterMemory = config.sections.has('cluster') || config.sections.has('dial') ? await cluster(config, findings) : undefined;

  const row = (key: string) => findings.rows.find((candidate) => candidate.key === key);
  const extraRatios = {
    'full PATCH / floor': medianRatio(row('platformPatch'), row('expressConnect')),
    'single-process SMS / floor': medianRatio(row('SMS, single process'), row('expressConnect')),
    'single-process SMS / full GET': medianRatio(row('SMS, single process'), row('platformGet')),
    'cluster GET / single-process GET': medianRatio(row('clusterGet'), row('platformGet')),
    'single-process calls / floor': medianRatio(row('Calls, single process'), row('expressConnect')),
    'single-process calls / SMS': medianRatio(row('Calls, single process'), row('SMS, single process')),
    'cluster calls / single-process calls': medianRatio(row('Calls, cluster'), row('Calls, single process')),
  };
  for (const [name, spread] of Object.entries(extraRatios)) if (spread) findings.ratios[name] = spread;

  const report: BenchReport = {
    startedAt,
    machine,
    platformRoot: config.platformRoot,
    settings: {
      connections: config.connections,
      rounds: config.rounds,
      roundSeconds: config.roundSeconds,
      roundWarmupSeconds: config.roundWarmupSeconds,
      durationSeconds: config.durationSeconds,
      warmupSeconds: config.warmupSeconds,
      clusterSmsSenders: config.clusterSmsSenders,
      callConnections: config.callConnections,
      dialLeads: config.dialLeads,
      sections: [...config.sections].join(','),
      nodeFlags: config.nodeFlags.join(' ') || '(none)',
    },
    rows: findings.rows,
    ratios: findings.ratios,
    platformMemory: single?.memory,
    clusterMemory,
    patchIntegrity: single?.patch,
    sms: findings.sms,
    calls: findings.calls,
    dial: findings.dial,
    targets: evaluateTargets({
      ratios: findings.ratios,
      platformGet: row('platformGet'),
      platformMemory: single?.memory,
      clusterSms: findings.sms.find((section) => section.label === 'SMS, cluster'),
    }),
    failures: [...findRunFailures(findings.rows), ...findings.failures],
  };
  process.stdout.write(formatReport(report));
  log(`results written to ${writeReport(config.resultsDir, report)}`);
  return report.failures.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
