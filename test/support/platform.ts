// Starts the whole platform for a test file, the way `npm start` does (or, with
// VOICE_E2E_TOPOLOGY=cluster, as separate processes the way `npm run start:cluster` does), on
// free ports with a fresh data directory, and drives it through the gateway like a client would.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { passwordHashCost } from '@voice/identity';
import { startPlatform, type RunningCluster, type RunningPlatform } from '@voice/platform';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { canonicalScopes } from '@voice/runtime/access';
import { parseCredits, parseMinutes } from '@voice/runtime/amounts';
import { callHeaders, CallerSigner } from '@voice/runtime/caller';
import { randomBase62 } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { internalSessionManager } from '@voice/runtime/internal';
import { createLogger, logLevels, type LogLevel } from '@voice/runtime/logger';
import { ApiClient } from './api-client.js';
import { testStore } from './mongodb-store.js';

/** What the helpers need of a running platform: the one-process platform or the cluster (test/support/cluster.ts). */
export interface PlatformProcesses {
  url: string;
  services: Record<ServiceName, string>;
  /** Stops one service and keeps it down while the rest run (on the cluster: no restart by the supervisor). */
  stopService(name: ServiceName): Promise<void>;
  /** Starts it again on its address. */
  startService(name: ServiceName): Promise<void>;
  close(): Promise<void>;
}

type ServiceName = 'identity' | 'tools' | 'telephony' | 'billing' | 'platformUsers' | 'assistants' | 'webhooks' | 'webhooksDelivery' | 'calls' | 'campaigns';

/** Either topology: what a test uses of it beyond PlatformProcesses needs inProcess() or a look at which one it is. */
export type E2ePlatformProcesses = RunningPlatform | RunningCluster;

export interface TestPlatform<R extends PlatformProcesses = E2ePlatformProcesses> {
  running: R;
  /** The environment the platform was started with (shared secrets included). */
  env: Record<string, string>;
  api: ApiClient;
  rootKey: string;
  rootWorkspaceId: string;
  dataDir: string;
  signer: CallerSigner;
  /** A new workspace under the root platform and a key in it with the given scopes. */
  workspace(options?: { plan?: string; scopes?: readonly string[] }): Promise<{ id: string; key: string }>;
  /** Another key in an existing workspace. */
  key(workspaceId: string, scopes: readonly string[]): Promise<string>;
  /**
   * Every log line the platform wrote so far, oldest first (JSON objects, mostly): the processes'
   * output on the cluster, the services' loggers in one process. Empty at the default level of the
   * single process (silent): a test that reads logs sets LOG_LEVEL.
   */
  logs(): string[];
  /** Moves credits (and included minutes; decimal strings) from the root platform's wallet to a workspace's, through billing. */
  fund(workspaceId: string, credits: string, minutes?: string): Promise<void>;
  close(): Promise<void>;
}

export const newRootKey = (): string => `svc_${randomBase62(40)}`;

/**
 * VOICE_PASSWORD_HASH_COST for test platforms unless a test sets it: the lowest allowed, 2^14, so
 * suites that sign many users in stay quick on two shared cores. test/password-hashes.test.ts runs
 * the default cost (2^17) and its rehashing.
 */
export const testPasswordHashCost = String(passwordHashCost.min);

let emailCounter = 0;
/** An e-mail address no other test in this process uses. */
export const uniqueEmail = (label = 'user'): string => `${label}.${process.pid}.${++emailCounter}@customers.example`;

export type Topology = 'single' | 'cluster';

function readTopology(value: string | undefined): Topology {
  if (value === undefined || value === '' || value === 'single') return 'single';
  if (value === 'cluster') return 'cluster';
  throw new Error(`VOICE_E2E_TOPOLOGY must be single or cluster, not ${JSON.stringify(value)}`);
}

/** The topology startTestPlatform starts: VOICE_E2E_TOPOLOGY, `single` (one process, the default) or `cluster`. */
export const topology: Topology = readTopology(process.env.VOICE_E2E_TOPOLOGY);

/**
 * The platform for a test file, in the topology the run asks for. On the cluster the children get
 * exactly `env` (plus PATH), with NATS_URL (the test NATS server unless given) and an event
 * namespace of their own whose streams are removed on close.
 */
export async function startTestPlatform(givenEnv: Record<string, string> = {}, dataDir?: string): Promise<TestPlatform> {
  const store = testStore(givenEnv);
  const env = { ...store.env, ...givenEnv };
  const platform = await startTestPlatformOn(env, dataDir).catch(async (error: unknown) => {
    await store.drop().catch(() => undefined);
    throw error;
  });
  return {
    ...platform,
    close: async () => {
      try {
        await platform.close();
      } finally {
        await store.drop();
      }
    },
  };
}

async function startTestPlatformOn(env: Record<string, string>, dataDir: string | undefined): Promise<TestPlatform> {
  if (topology === 'cluster') {
    // Imported on demand: cluster.ts builds on this file.
    const { startTestCluster } = await import('./cluster.js');
    const cluster = await startTestCluster(env, dataDir);
    return {
      ...cluster,
      close: async () => {
        // The supervisor restarts a child that dies, which would hide the crash from the tests: none may die.
        const crashed = Object.entries(cluster.running.status()).filter(([, status]) => status.crashes > 0);
        await cluster.close();
        if (crashed.length > 0) {
          const counts = crashed.map(([name, status]) => `${name} ${status.crashes}x`).join(', ');
          throw new Error(`cluster processes crashed during the tests (${counts}); the last output:\n${cluster.output().slice(-30).join('\n')}`);
        }
      },
    };
  }
  // A directory the test names (the argument or DATA_DIR) is the test's to keep.
  const given = dataDir ?? env.DATA_DIR;
  const dir = given ?? mkdtempSync(join(tmpdir(), 'voice-e2e-'));
  const rootKey = env.VOICE_ROOT_API_KEY ?? newRootKey();
  const internalSecret = env.VOICE_INTERNAL_SECRET ?? randomBytes(32).toString('hex');
  // Many platforms share a test process: none serves metrics on the fixed default port unless the test asks.
  const platformEnv = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    VOICE_METRICS_PORT: 'off',
    VOICE_PASSWORD_HASH_COST: testPasswordHashCost,
    ...env,
    VOICE_ROOT_API_KEY: rootKey,
    VOICE_INTERNAL_SECRET: internalSecret,
  };
  const lines: string[] = [];
  const level = platformEnv.LOG_LEVEL as LogLevel;
  // A level the platform refuses is left to its own start check, which names the variable.
  const logger = logLevels.includes(level) ? (service: string) => createLogger({ service, level, write: (line) => lines.push(line) }) : undefined;
  const running = await startPlatform(platformEnv, { announce: () => {}, logger });
  return testPlatformOn(running, { env: platformEnv, rootKey, internalSecret, dataDir: dir, removeDataDir: !given, logs: () => [...lines] });
}

/** The in-process platform behind `platform`, for a test that reaches into it (such tests do not run on the cluster). */
export function inProcess(platform: TestPlatform): RunningPlatform {
  const { running } = platform;
  if (!('gatewayApp' in running)) throw new Error('this test needs the single-process platform, and VOICE_E2E_TOPOLOGY=cluster started the cluster');
  return running;
}

/** The test helpers around platform processes already started with the given root key and internal secret (hex). */
export async function testPlatformOn<R extends PlatformProcesses>(
  running: R,
  setup: { env: Record<string, string>; rootKey: string; internalSecret: string; dataDir: string; removeDataDir: boolean; logs: () => string[] },
): Promise<TestPlatform<R>> {
  const { rootKey, dataDir: dir } = setup;
  const api = new ApiClient(running.url);
  const me = await api.get('/me', rootKey);
  const rootWorkspaceId = (me.body as { data: { workspace: { id: string } } }).data.workspace.id;
  const signer = new CallerSigner(Buffer.from(setup.internalSecret, 'hex'));
  const sessions = internalSessionManager(running.services.identity);
  const identity = createClient(
    IdentityService,
    createConnectTransport({ baseUrl: running.services.identity, httpVersion: '2', sessionManager: sessions }),
  );
  const billingSessions = internalSessionManager(running.services.billing);
  const billing = createClient(
    BillingService,
    createConnectTransport({ baseUrl: running.services.billing, httpVersion: '2', sessionManager: billingSessions }),
  );
  const internal = (workspaceId: string) => ({
    headers: callHeaders(signer, { workspaceId, principal: { type: 'internal', id: 'e2e', name: 'e2e' }, scopes: null, requestId: 'e2e' }),
  });

  const key = async (workspaceId: string, scopes: readonly string[]) =>
    (await identity.createApiKey({ name: 'e2e', scopes: [...scopes] }, internal(workspaceId))).key;

  return {
    running,
    env: setup.env,
    api,
    rootKey,
    rootWorkspaceId,
    dataDir: dir,
    signer,
    key,
    logs: setup.logs,
    workspace: async ({ plan = 'starter', scopes = canonicalScopes } = {}) => {
      const { workspace } = await identity.createWorkspace({ name: 'Customer', plan, parentWorkspaceId: rootWorkspaceId }, internal(''));
      return { id: workspace!.id, key: await key(workspace!.id, scopes) };
    },
    fund: async (workspaceId: string, credits: string, minutes = '0') => {
      const creditUnits = parseCredits(credits);
      const minuteUnits = parseMinutes(minutes);
      if (creditUnits === undefined || minuteUnits === undefined) throw new Error(`not an amount: ${credits} credits, ${minutes} minutes`);
      await billing.transfer(
        {
          fromWorkspaceId: rootWorkspaceId,
          toWorkspaceId: workspaceId,
          amount: { creditUnits: BigInt(creditUnits), minuteUnits: BigInt(minuteUnits) },
          transferId: newId(),
          description: 'e2e top-up',
        },
        internal(rootWorkspaceId),
      );
    },
    close: async () => {
      sessions.abort();
      billingSessions.abort();
      await running.close();
      if (setup.removeDataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
