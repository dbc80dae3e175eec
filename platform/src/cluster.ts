// `npm run start:cluster`: every service and the gateway as separate child processes on this
// machine, each from its own entry point, the way they run when deployed. A supervisor starts the
// services at once and the gateway after them (each awaited through its health check), restarts a
// child that dies with back-off, and on SIGTERM or SIGINT stops the gateway first and the services in reverse.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from '@voice/proto/grpc/health/v1/health';
import type { Env } from '@voice/runtime/config';
import { redeliveryDelayMs } from '@voice/runtime/events';
import { openInternalChannel } from '@voice/runtime/internal';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { failStart } from '@voice/runtime/process';
import { platformNodeFlags } from './node-flags.js';
import { clusterProcesses, resolveClusterConfig, type ClusterProcessName, type ClusterServiceName } from './cluster-config.js';

export { clusterProcesses, resolveClusterConfig, type ClusterConfig, type ClusterProcessName, type ClusterServiceName } from './cluster-config.js';

export type ProcessState = 'starting' | 'running' | 'stopping' | 'backing-off' | 'stopped';

export interface ProcessStatus {
  pid: number | undefined;
  state: ProcessState;
  /** Starts after the first (crash restarts and restart() calls). */
  restarts: number;
  /** Exits the supervisor did not ask for. */
  crashes: number;
}

export interface RunningCluster {
  /** The gateway's loopback address. */
  url: string;
  port: number;
  /** Loopback addresses of the services (internal gRPC callers: tests, operators' tools). */
  services: Record<ClusterServiceName, string>;
  dataDir: string;
  /** The shared secrets, as handed to every child (hex). */
  secrets: { internalSecret: string; encryptionKey: string };
  /** Sends a signal to one child and resolves once it has exited; the supervisor then restarts it (with back-off) like any unexpected exit. */
  kill(name: ClusterProcessName, signal?: NodeJS.Signals): Promise<void>;
  /** Stops one child gracefully (SIGTERM) if it runs, starts it again on the same port at once, and resolves when it is healthy. */
  restart(name: ClusterProcessName): Promise<void>;
  /** Stops one service gracefully (SIGTERM, awaited) and keeps it down: no restart until startService. */
  stopService(name: ClusterServiceName): Promise<void>;
  /** Starts a service stopped by stopService again, on its port; resolves when it is healthy. */
  startService(name: ClusterServiceName): Promise<void>;
  /** Resolves when the child is running and healthy (after a pending restart); rejects after `timeoutMs`. */
  ready(name: ClusterProcessName, timeoutMs?: number): Promise<void>;
  status(): Record<ClusterProcessName, ProcessStatus>;
  /** SIGTERM to the gateway, then to the services in reverse start order, each awaited; no restarts afterwards. */
  stop(): Promise<void>;
  /** The same as stop(), for closeOnSignal. */
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** The repository root holding the built entry points; found upwards from this file by default. */
  root?: string;
  logger?: Logger;
  /**
   * Where the children's stdout and stderr go: passed through to this process's (the default),
   * or handed over chunk by chunk (tests keep them).
   */
  output?: 'inherit' | ((name: ClusterProcessName, stream: 'stdout' | 'stderr', chunk: Buffer) => void);
  /** How long a child may take from spawn to healthy. */
  readyTimeoutMs?: number;
  /** How long a child may take to exit after SIGTERM before it is killed. */
  stopTimeoutMs?: number;
  /** Pause before restarting a crashed child, doubling with each crash in a row. */
  restartBackoff?: { initialMs: number; maxMs: number };
  /** A child that stayed up this long has its crash count in a row reset. */
  stableAfterMs?: number;
  /** Aborting stops the cluster, also while it is still starting (startCluster then rejects). */
  signal?: AbortSignal;
}

const defaults = { readyTimeoutMs: 30_000, stopTimeoutMs: 20_000, restartBackoff: { initialMs: 250, maxMs: 10_000 }, stableAfterMs: 10_000 };

/** The first directory upwards that holds the gateway and the services. */
function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'gateway', 'package.json')) && existsSync(join(dir, 'services'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no repository root above ${from}: pass options.root`);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One supervised child: the process currently running under a name, and how to (re)start it. */
class Supervised {
  child: ChildProcess | undefined;
  state: ProcessState = 'stopped';
  restarts = 0;
  crashes = 0;
  private crashesInARow = 0;
  private startedAt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Settles when the current start attempt is healthy (or has failed). */
  private starting: Promise<void> | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** Set while the supervisor itself stops the child: its exit is then no crash. */
  private expectingExit = false;
  private everStarted = false;

  constructor(
    readonly name: ClusterProcessName,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    private readonly isHealthy: () => Promise<boolean>,
    /** Runs before every spawn (frees the port the supervisor held for the child). */
    private readonly beforeSpawn: () => Promise<void>,
    private readonly options: Required<Omit<ClusterOptions, 'root' | 'logger' | 'signal'>>,
    private readonly logger: Logger,
    private readonly shuttingDown: () => boolean,
  ) {}

  /** Spawns the child and resolves once it answers healthy; rejects when it exits or times out first. */
  start(): Promise<void> {
    this.clearRetry();
    if (this.starting) return this.starting;
    const attempt = this.spawnAndWait().finally(() => {
      if (this.starting === attempt) this.starting = undefined;
    });
    this.starting = attempt;
    return attempt;
  }

  private async spawnAndWait(): Promise<void> {
    if (this.shuttingDown()) throw new Error(`${this.name} not started: the cluster is stopping`);
    if (this.everStarted) this.restarts += 1;
    this.everStarted = true;
    this.state = 'starting';
    await this.beforeSpawn();
    // The cluster may have begun to stop meanwhile (another child failed its start): its stop has passed this one by.
    if (this.shuttingDown()) throw new Error(`${this.name} not started: the cluster is stopping`);
    const inherit = this.options.output === 'inherit';
    // Its own process group, so a terminal's Ctrl-C reaches only the supervisor, which then
    // stops the children in order.
    const child = spawn(process.execPath, [...platformNodeFlags, this.entry], { env: this.env, stdio: ['ignore', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'], detached: true });
    this.child = child;
    this.startedAt = Date.now();
    const output = this.options.output;
    if (typeof output === 'function') {
      child.stdout?.on('data', (chunk: Buffer) => output(this.name, 'stdout', chunk));
      child.stderr?.on('data', (chunk: Buffer) => output(this.name, 'stderr', chunk));
    }
    let exitedEarly: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    this.exited = new Promise<void>((resolve) => {
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        exitedEarly ??= { code, signal };
        this.onExit(child, code, signal);
        resolve();
      };
      child.once('exit', onExit);
      child.once('error', (error) => {
        this.logger.error('child process failed', { process: this.name, error });
        // A spawn failure emits no exit.
        if (child.pid === undefined) onExit(null, null);
      });
    });
    this.logger.info('process started', { process: this.name, pid: child.pid });
    const deadline = Date.now() + this.options.readyTimeoutMs;
    for (;;) {
      if (exitedEarly || this.child !== child) {
        throw new Error(`${this.name} exited (${exitedEarly?.signal ?? `code ${exitedEarly?.code}`}) before it was ready; its output above says why`);
      }
      if (await this.isHealthy().catch(() => false)) break;
      if (Date.now() > deadline) {
        this.logger.error('process not ready in time; killing it', { process: this.name, pid: child.pid, timeout_ms: this.options.readyTimeoutMs });
        child.kill('SIGKILL');
        throw new Error(`${this.name} was not ready within ${this.options.readyTimeoutMs} ms`);
      }
      await sleep(100);
    }
    if (this.child === child && this.state === 'starting') this.state = 'running';
    this.logger.info('process ready', { process: this.name, pid: child.pid });
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = undefined;
    if (this.expectingExit || this.shuttingDown()) {
      this.state = 'stopped';
      this.logger.info('process exited', { process: this.name, pid: child.pid, code, signal });
      return;
    }
    this.crashes += 1;
    this.crashesInARow = Date.now() - this.startedAt >= this.options.stableAfterMs ? 1 : this.crashesInARow + 1;
    const retryInMs = redeliveryDelayMs(this.crashesInARow, this.options.restartBackoff);
    this.logger.error('process exited unexpectedly; restarting', { process: this.name, pid: child.pid, code, signal, retry_in_ms: retryInMs, crashes: this.crashes });
    this.scheduleRestart(retryInMs);
  }

  private scheduleRestart(delayMs: number): void {
    this.clearRetry();
    this.state = 'backing-off';
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.shuttingDown()) return;
      this.start().catch((error: unknown) => {
        // A child that died while starting has already scheduled its next try; one that hung is killed and then does.
        this.logger.warn('restart failed', { process: this.name, error });
      });
    }, delayMs);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child) return Promise.resolve();
    const exited = this.exited;
    child.kill(signal);
    return exited;
  }

  /** SIGTERM and wait for the exit (SIGKILL after the stop timeout); no restart follows. */
  async stop(): Promise<void> {
    this.clearRetry();
    const child = this.child;
    if (!child) {
      this.state = 'stopped';
      return;
    }
    this.expectingExit = true;
    this.state = 'stopping';
    try {
      const exited = this.exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        this.logger.warn('process did not stop in time; killing it', { process: this.name, pid: child.pid, timeout_ms: this.options.stopTimeoutMs });
        child.kill('SIGKILL');
      }, this.options.stopTimeoutMs);
      await exited;
      clearTimeout(timer);
    } finally {
      this.expectingExit = false;
    }
  }

  async restart(): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    await this.stop();
    await this.start();
  }

  async ready(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.state === 'running') return;
      if (Date.now() > deadline) throw new Error(`${this.name} not ready within ${timeoutMs} ms (state ${this.state})`);
      // Short naps rather than one long timer, which would keep the process alive after the answer.
      if (this.starting) await Promise.race([this.starting.catch(() => undefined), sleep(Math.min(250, Math.max(deadline - Date.now(), 0)))]);
      else await sleep(50);
    }
  }

  /** Kills the child without waiting (the supervisor itself is exiting). */
  abandon(): void {
    this.clearRetry();
    if (this.child && this.child.exitCode === null) this.child.kill('SIGTERM');
  }
}

async function serviceHealthy(name: ClusterServiceName, url: string): Promise<boolean> {
  const channel = openInternalChannel({ name, url });
  try {
    const answer = await createClient(Health, channel.transport).check({ service: '' }, { timeoutMs: 1_000 });
    return answer.status === ServingStatus.SERVING;
  } finally {
    channel.close();
  }
}

/** The sandbox voice runtime is no Connect service: it answers GET /healthz. */
async function voiceSandboxHealthy(url: string): Promise<boolean> {
  const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) });
  await response.arrayBuffer();
  return response.status === 200;
}

async function gatewayReady(url: string): Promise<boolean> {
  const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
  await response.arrayBuffer();
  return response.status === 200;
}

export async function startCluster(env: Env, options: ClusterOptions = {}): Promise<RunningCluster> {
  const root = options.root ?? findRoot(__dirname);
  const config = await resolveClusterConfig(env);
  const logger = options.logger ?? createLogger({ service: 'cluster', level: config.logLevel });
  const settings: Required<Omit<ClusterOptions, 'root' | 'logger' | 'signal'>> = {
    output: options.output ?? 'inherit',
    readyTimeoutMs: options.readyTimeoutMs ?? defaults.readyTimeoutMs,
    stopTimeoutMs: options.stopTimeoutMs ?? defaults.stopTimeoutMs,
    restartBackoff: options.restartBackoff ?? defaults.restartBackoff,
    stableAfterMs: options.stableAfterMs ?? defaults.stableAfterMs,
  };
  let shuttingDown = false;
  const processes = new Map<ClusterProcessName, Supervised>();
  for (const { name, entry } of clusterProcesses) {
    const file = join(root, entry);
    if (!existsSync(file)) {
      await config.releaseAll();
      throw new Error(`${file} is missing: build first (npm run build)`);
    }
    const url = name === 'gateway' ? config.gatewayUrl : config.services[name];
    const healthy =
      name === 'gateway' ? () => gatewayReady(url) : name === 'voiceSandbox' ? () => voiceSandboxHealthy(url) : () => serviceHealthy(name, url);
    processes.set(name, new Supervised(name, file, config.childEnv[name], healthy, () => config.release(name), settings, logger, () => shuttingDown));
  }
  const get = (name: ClusterProcessName): Supervised => {
    const supervised = processes.get(name);
    if (!supervised) throw new Error(`no process ${name} in the cluster`);
    return supervised;
  };
  // If the supervisor itself goes down without stop(), the children do not outlive it.
  const abandonAll = () => processes.forEach((supervised) => supervised.abandon());
  process.once('exit', abandonAll);

  let stopped: Promise<void> | undefined;
  // Called twice (a signal during start, then the start's own clean-up), it is one stop.
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      shuttingDown = true;
      // The gateway first, so no request reaches a service that is already gone.
      for (const { name } of [...clusterProcesses].reverse()) await get(name).stop();
      await config.releaseAll();
      process.removeListener('exit', abandonAll);
      options.signal?.removeEventListener('abort', onAbort);
      logger.info('cluster stopped');
    })());
  const onAbort = () => {
    stop().catch((error: unknown) => logger.error('stopping the cluster failed', { error }));
  };
  if (options.signal?.aborted) {
    await config.releaseAll();
    throw new Error('the cluster was stopped before it started');
  }
  options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    // The services at once, as pods start in any order (none needs another up to start; each
    // retries its calls); the gateway last, so the cluster is ready when its front door opens.
    await Promise.all(clusterProcesses.filter(({ name }) => name !== 'gateway').map(({ name }) => get(name).start()));
    await get('gateway').start();
  } catch (error) {
    await stop();
    throw error;
  }
  logger.info('cluster ready', {
    url: config.gatewayUrl,
    services: config.services,
    data_dir: config.dataDir,
    pids: Object.fromEntries([...processes].map(([name, supervised]) => [name, supervised.child?.pid])),
  });

  return {
    url: config.gatewayUrl,
    port: config.gatewayPort,
    services: { ...config.services },
    dataDir: config.dataDir,
    secrets: { ...config.secrets },
    kill: (name, signal = 'SIGTERM') => get(name).kill(signal),
    restart: (name) => get(name).restart(),
    stopService: (name) => get(name).stop(),
    startService: (name) => get(name).start(),
    ready: (name, timeoutMs = settings.readyTimeoutMs) => get(name).ready(timeoutMs),
    status: () =>
      Object.fromEntries(
        [...processes].map(([name, supervised]) => [
          name,
          { pid: supervised.child?.pid, state: supervised.state, restarts: supervised.restarts, crashes: supervised.crashes },
        ]),
      ) as Record<ClusterProcessName, ProcessStatus>,
    stop,
    close: stop,
  };
}

if (require.main === module) {
  const logger = createLogger({ service: 'cluster', level: 'info' });
  // Listening from the start: a signal while the children are still starting stops those already up.
  const stopping = new AbortController();
  let cluster: RunningCluster | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping.signal.aborted) return;
    logger.info('shutting down', { signal });
    stopping.abort();
    if (!cluster) return;
    cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  startCluster(process.env, { signal: stopping.signal }).then(
    (started) => {
      cluster = started;
      logger.info('platform ready', { url: started.url, api: `${started.url}/api/v1` });
    },
    (error: unknown) => (stopping.signal.aborted ? process.exit(0) : failStart(error)),
  );
}
