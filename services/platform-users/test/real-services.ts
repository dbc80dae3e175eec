// The real identity, billing and platform-users services for a test file, started in-process the
// way platform/src/platform.ts starts them: each on its own loopback port, SQLite files in a fresh
// data directory, one shared secret for signed callers, one in-process notifier and event stream.
// Test set-up goes through the services' own RPCs, as an internal caller.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { startBillingService } from '@voice/billing';
import { passwordHashCost, startIdentityService } from '@voice/identity';
import { BillingService, type Transaction } from '@voice/proto/voice/billing/v1/billing';
import { IdentityService, type Workspace } from '@voice/proto/voice/identity/v1/identity';
import type { Plan } from '@voice/runtime/access';
import { callHeaders, CallerSigner, type Principal } from '@voice/runtime/caller';
import { readCommonConfig, type Env } from '@voice/runtime/config';
import { randomBase62 } from '@voice/runtime/crypto';
import { openConfiguredEventStream } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { internalSessionManager } from '@voice/runtime/internal';
import { createLogger } from '@voice/runtime/logger';
import { openNotifier } from '@voice/runtime/nats';
import type { StartedService } from '@voice/runtime/server';
import { startPlatformUsersService } from '../src/main.js';

export type ServiceName = 'identity' | 'billing' | 'platformUsers';

export interface Customer {
  userId: string;
  email: string;
  /** Oldest first: the registered one, then one per further plan. */
  workspaceIds: string[];
}

export interface RealServices {
  env: Env;
  signer: CallerSigner;
  rootWorkspaceId: string;
  /** Loopback addresses of the running services (kept while one is stopped). */
  urls: Partial<Record<ServiceName, string>>;
  identity: Client<typeof IdentityService>;
  billing: Client<typeof BillingService>;
  /** Signed caller headers for a workspace: an internal principal unless another is given. */
  as(workspaceId: string, principal?: Principal): { headers: Record<string, string> };
  /** A new workspace, under the root platform unless a parent is given. */
  workspace(name: string, plan: Plan, parentWorkspaceId?: string): Promise<Workspace>;
  /**
   * A customer of the platform, registered through identity, owning one workspace per plan
   * (oldest first) with the statuses given.
   */
  customer(platformId: string, fields: { email: string; password?: string; plans?: Plan[]; statuses?: ('active' | 'suspended')[] }): Promise<Customer>;
  /** Moves credit units from the root platform's wallet (the issuer) to a workspace's, through billing. */
  fund(workspaceId: string, creditUnits: bigint): Promise<void>;
  /** The credit units of a workspace's wallet, as billing reports them. */
  balance(workspaceId: string): Promise<bigint>;
  /** A workspace's ledger, newest first. */
  ledger(workspaceId: string): Promise<Transaction[]>;
  stop(name: ServiceName): Promise<void>;
  /** Starts a stopped service again on the port it had, as RunningPlatform.startService does. */
  start(name: ServiceName): Promise<void>;
  close(): Promise<void>;
}

const silent = (service: string) => createLogger({ service, level: 'silent' });

const portVariables: Record<ServiceName, string> = {
  identity: 'VOICE_IDENTITY_PORT',
  billing: 'VOICE_BILLING_PORT',
  platformUsers: 'VOICE_PLATFORM_USERS_PORT',
};

/** Starts `services` (in the order identity, billing, platform-users) with `env` over the defaults. */
export async function startRealServices(services: ServiceName[], env: Env = {}): Promise<RealServices> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-users-real-'));
  const rootKey = `svc_${randomBase62(40)}`;
  const secret = randomBytes(32).toString('hex');
  const serviceEnv: Env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // The lowest cost VOICE_PASSWORD_HASH_COST allows (the default, 2^17, takes 128 MiB and most of a
    // second per hash on two busy cores): these tests sign users in for their rules, not their hashes.
    VOICE_PASSWORD_HASH_COST: String(passwordHashCost.min),
    VOICE_IDENTITY_HOST: '127.0.0.1',
    VOICE_BILLING_HOST: '127.0.0.1',
    VOICE_PLATFORM_USERS_HOST: '127.0.0.1',
    VOICE_IDENTITY_PORT: '0',
    VOICE_BILLING_PORT: '0',
    VOICE_PLATFORM_USERS_PORT: '0',
    ...env,
    VOICE_ROOT_API_KEY: rootKey,
    VOICE_INTERNAL_SECRET: secret,
  };
  const common = readCommonConfig(serviceEnv);
  const notifier = await openNotifier(common.natsUrl, 'platform');
  const events = await openConfiguredEventStream(common, 'platform', silent('events'));
  const urls: Partial<Record<ServiceName, string>> = {};
  const running = new Map<ServiceName, StartedService>();
  // As platform.ts wires them: each service is told the addresses of those started before it.
  const starters: Record<ServiceName, (env: Env) => Promise<StartedService>> = {
    identity: (env) => startIdentityService(env, { logger: silent('identity'), notifier, announce: () => {} }),
    billing: (env) => startBillingService({ ...env, VOICE_IDENTITY_URL: urls.identity }, { logger: silent('billing'), events }),
    platformUsers: (env) =>
      startPlatformUsersService({ ...env, VOICE_IDENTITY_URL: urls.identity, VOICE_BILLING_URL: urls.billing }, { logger: silent('platform-users') }),
  };
  const start = async (name: ServiceName) => {
    if (running.has(name)) return;
    const port = urls[name] ? new URL(urls[name]!).port : undefined;
    const service = await starters[name](port ? { ...serviceEnv, [portVariables[name]]: port } : serviceEnv);
    running.set(name, service);
    urls[name] = service.server.url;
  };
  const stop = async (name: ServiceName) => {
    const service = running.get(name);
    running.delete(name);
    await service?.close();
  };
  const order: ServiceName[] = (['identity', 'billing', 'platformUsers'] as const).filter((name) => services.includes(name));
  const sessions: { abort(): void }[] = [];
  const shutdown = async () => {
    sessions.forEach((session) => session.abort());
    for (const name of [...order].reverse()) await stop(name);
    await events.close();
    await notifier.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    for (const name of order) await start(name);
    const signer = new CallerSigner(Buffer.from(secret, 'hex'));
    const clientOf = <S extends typeof IdentityService | typeof BillingService>(service: S, url: string | undefined): Client<S> => {
      // A client of a service not started fails its calls like a service that is down.
      const baseUrl = url ?? 'http://127.0.0.1:1';
      const sessionManager = internalSessionManager(baseUrl);
      sessions.push(sessionManager);
      return createClient(service, createConnectTransport({ baseUrl, httpVersion: '2', sessionManager }));
    };
    const identity = clientOf(IdentityService, urls.identity);
    const billing = clientOf(BillingService, urls.billing);
    const as = (workspaceId: string, principal: Principal = { type: 'internal', id: 'test', name: 'test' }) => ({
      headers: callHeaders(signer, { workspaceId, principal, scopes: null, requestId: `t-${newId()}` }),
    });
    const { workspace: root } = await identity.authenticate({ credential: rootKey }, as(''));
    const rootWorkspaceId = root!.id;

    const workspace = async (name: string, plan: Plan, parentWorkspaceId = rootWorkspaceId) =>
      (await identity.createWorkspace({ name, plan, parentWorkspaceId }, as(''))).workspace!;

    return {
      env: serviceEnv,
      signer,
      rootWorkspaceId,
      urls,
      identity,
      billing,
      as,
      workspace,
      customer: async (platformId, { email, password = '', plans = ['starter'], statuses = [] }) => {
        const [first, ...more] = plans;
        const name = email.split('@')[0]!;
        const { customer } = await identity.registerCustomer(
          { platformWorkspaceId: platformId, email, name, password, plan: first ?? 'starter', workspaceName: `${name} 0` },
          as(platformId),
        );
        const workspaceIds = [customer!.workspaces[0]!.workspace!.id];
        for (const [index, plan] of more.entries()) {
          const owned = await workspace(`${name} ${index + 1}`, plan, platformId);
          // A member joins by accepting (a user without a password chooses one doing so).
          await identity.addMember({ email, role: 'owner', name }, as(owned.id));
          await identity.acceptMembership({ workspaceId: owned.id, userId: customer!.userId, password: password || 'a long enough password' }, as(''));
          workspaceIds.push(owned.id);
        }
        for (const [index, status] of statuses.entries()) {
          if (status !== 'active') await identity.setWorkspaceStatus({ workspaceId: workspaceIds[index]!, status }, as(''));
        }
        return { userId: customer!.userId, email: customer!.email, workspaceIds };
      },
      fund: async (workspaceId, creditUnits) => {
        await billing.transfer(
          { fromWorkspaceId: rootWorkspaceId, toWorkspaceId: workspaceId, amount: { creditUnits, minuteUnits: 0n }, transferId: newId(), description: 'test top-up' },
          as(rootWorkspaceId),
        );
      },
      balance: async (workspaceId) => (await billing.getBalance({}, as(workspaceId))).wallet?.balance?.creditUnits ?? 0n,
      ledger: async (workspaceId) => (await billing.listTransactions({ page: { limit: 100 } }, as(workspaceId))).transactions,
      stop,
      start,
      close: shutdown,
    };
  } catch (error) {
    await shutdown();
    throw error;
  }
}
