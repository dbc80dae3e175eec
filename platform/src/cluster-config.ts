// What the cluster supervisor hands each child: its port, the addresses of the services it
// calls, and the secrets every process must share (generated into DATA_DIR/keys on first start,
// the files the single-process mode uses, when not given).
import { holdFreePort, type HeldPort } from './held-port.js';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  ConfigError,
  mediaListeners,
  readEnum,
  readMediaListenAddress,
  readOptionalString,
  readPort,
  readString,
  readUrl,
  servicePorts,
  serviceVariablePrefix,
  type Env,
  type ServiceName,
} from '@voice/runtime/config';
import { loadKey } from '@voice/runtime/crypto';
import { readInternalTransport } from '@voice/runtime/internal';
import { logLevels, type LogLevel } from '@voice/runtime/logger';
import { reachableHost } from '@voice/runtime/server';
import { mediaUrlOf } from '@voice/voice-sandbox';

export type ClusterServiceName = 'identity' | 'tools' | 'billing' | 'telephony' | 'platformUsers' | 'assistants' | 'webhooks' | 'webhooksDelivery' | 'calls' | 'campaigns' | 'campaignsDialer' | 'voiceSandbox';
export type ClusterProcessName = ClusterServiceName | 'gateway';

interface ClusterProcess {
  name: ClusterProcessName;
  entry: string;
  prefix: string;
  defaultPort: number;
}

/** A service's process: its entry, and its variables' prefix and port from the runtime's one table. */
const serviceProcess = (name: ClusterServiceName, service: ServiceName, entry = `services/${service}/dist/src/main.js`): ClusterProcess => ({
  name,
  entry,
  prefix: serviceVariablePrefix(service),
  defaultPort: servicePorts[service],
});

/** The services start together and the gateway after them; they stop in the reverse of this order, the gateway first. */
export const clusterProcesses: readonly ClusterProcess[] = [
  serviceProcess('identity', 'identity'),
  serviceProcess('tools', 'tools'),
  serviceProcess('billing', 'billing'),
  serviceProcess('telephony', 'telephony'),
  serviceProcess('platformUsers', 'platform-users'),
  serviceProcess('assistants', 'assistants'),
  serviceProcess('webhooks', 'webhooks'),
  // The webhooks delivery worker: its own process, from the webhooks workspace.
  serviceProcess('webhooksDelivery', 'webhooks-delivery', 'services/webhooks/dist/src/delivery/main.js'),
  serviceProcess('calls', 'calls'),
  serviceProcess('campaigns', 'campaigns'),
  // The campaigns dialer: its own process, from the campaigns workspace.
  serviceProcess('campaignsDialer', 'campaigns-dialer', 'services/campaigns/dist/src/dialer/main.js'),
  // The sandbox voice runtime: the media stream endpoint telephony's carriers connect answered calls to.
  { name: 'voiceSandbox', entry: 'services/voice-sandbox/dist/src/main.js', prefix: mediaListeners.sandboxRuntime.prefix, defaultPort: mediaListeners.sandboxRuntime.port },
  { name: 'gateway', entry: 'gateway/dist/src/main.js', prefix: '', defaultPort: 8080 },
];

export interface ClusterConfig {
  dataDir: string;
  natsUrl: string;
  logLevel: LogLevel;
  gatewayPort: number;
  /** The gateway on loopback (the supervisor's readiness checks, tests). */
  gatewayUrl: string;
  services: Record<ClusterServiceName, string>;
  secrets: { internalSecret: string; encryptionKey: string };
  childEnv: Record<ClusterProcessName, Record<string, string>>;
  /**
   * Frees a port chosen here (for PORT=0 and the like), held until its child is about to listen
   * so nothing else on the machine takes it meanwhile; releasing twice changes nothing.
   */
  release(name: ClusterProcessName): Promise<void>;
  releaseAll(): Promise<void>;
}

const defined = (env: Env): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));

/**
 * Reads the cluster's settings from the environment. Ports set to 0 become free ports now; unset
 * ports are each process's default (50051-50059, the sandbox voice runtime on 50060, the gateway on 8080).
 */
export async function resolveClusterConfig(env: Env): Promise<ClusterConfig> {
  const natsUrl = readUrl(env, 'NATS_URL', undefined, ['nats:', 'tls:', 'ws:', 'wss:']);
  if (natsUrl === undefined) {
    throw new ConfigError('NATS_URL', 'is required in cluster mode: usage and wallet events and revocation notices travel between the processes over NATS JetStream (e.g. NATS_URL=nats://127.0.0.1:4222)');
  }
  readUrl(env, 'MONGODB_URI', undefined, ['mongodb:', 'mongodb+srv:']);
  // Each child runs one part and reaches the others over HTTP/2: refused here rather than by every child.
  readInternalTransport(env, 'one-part');
  const dataDir = resolve(readString(env, 'DATA_DIR', './data'));
  const logLevel = readEnum(env, 'LOG_LEVEL', 'info', logLevels);
  // Generated once into the data directory (the files the single-process mode reads too), so
  // every child, and every later start, gets the same keys.
  const secret = (variable: string, file: string) =>
    loadKey({ variable, value: readOptionalString(env, variable), file: join(dataDir, 'keys', file), required: false }).toString('hex');
  const secrets = { internalSecret: secret('VOICE_INTERNAL_SECRET', 'internal.key'), encryptionKey: secret('VOICE_ENCRYPTION_KEY', 'encryption.key') };

  const listen: Partial<Record<ClusterProcessName, { host: string; port: number }>> = {};
  // Ports set to 0 are chosen now, once, so a restarted child comes back where its callers look.
  const held = new Map<ClusterProcessName, HeldPort>();
  const heldBeside = new Map<ClusterProcessName, HeldPort>();
  const release = async (name: ClusterProcessName) => {
    for (const ports of [held, heldBeside]) {
      const port = ports.get(name);
      ports.delete(name);
      await port?.release();
    }
  };
  const releaseAll = async () => {
    for (const name of new Set([...held.keys(), ...heldBeside.keys()])) await release(name);
  };
  try {
    for (const { name, prefix, defaultPort } of clusterProcesses) {
      const hostVariable = name === 'gateway' ? 'HOST' : `${prefix}_HOST`;
      const portVariable = name === 'gateway' ? 'PORT' : `${prefix}_PORT`;
      const host = readString(env, hostVariable, name === 'gateway' ? '0.0.0.0' : '127.0.0.1');
      let port = readPort(env, portVariable, defaultPort);
      if (port === 0) {
        const chosen = await holdFreePort(host);
        held.set(name, chosen);
        port = chosen.port;
      }
      listen[name] = { host, port };
    }
  } catch (error) {
    await releaseAll();
    throw error;
  }
  // The calls service's second listener, its media endpoint (recording downloads), held beside its port.
  const callsMedia = readMediaListenAddress(env, 'callsMedia');
  if (callsMedia.port === 0) {
    const chosen = await holdFreePort(callsMedia.host);
    heldBeside.set('calls', chosen);
    callsMedia.port = chosen.port;
  }
  const urlOf = (name: ClusterProcessName) => `http://${reachableHost(listen[name]!.host)}:${listen[name]!.port}`;
  const services = Object.fromEntries(
    clusterProcesses.filter(({ name }) => name !== 'gateway').map(({ name }) => [name, urlOf(name)]),
  ) as Record<ClusterServiceName, string>;
  const gatewayPort = listen.gateway!.port;

  const shared: Record<string, string> = {
    ...defined(env),
    DATA_DIR: dataDir,
    NATS_URL: natsUrl,
    VOICE_INTERNAL_SECRET: secrets.internalSecret,
    VOICE_ENCRYPTION_KEY: secrets.encryptionKey,
    // Services derive the public address (carrier callbacks, invitation links) from PORT unless VOICE_PUBLIC_URL is set.
    PORT: String(gatewayPort),
    VOICE_IDENTITY_URL: services.identity,
    VOICE_TOOLS_URL: services.tools,
    VOICE_BILLING_URL: services.billing,
    VOICE_TELEPHONY_URL: services.telephony,
    VOICE_PLATFORM_USERS_URL: services.platformUsers,
    VOICE_ASSISTANTS_URL: services.assistants,
    VOICE_CALLS_URL: services.calls,
    VOICE_CALLS_MEDIA_URL: `http://${reachableHost(callsMedia.host)}:${callsMedia.port}`,
    VOICE_WEBHOOKS_URL: services.webhooks,
    VOICE_CAMPAIGNS_URL: services.campaigns,
    // Carriers stream answered calls to the sandbox runtime unless another runtime is named.
    VOICE_MEDIA_URL: readOptionalString(env, 'VOICE_MEDIA_URL') ?? mediaUrlOf(services.voiceSandbox),
    // Each child's metrics on a port of its own choosing: one fixed port would collide on one machine.
    VOICE_METRICS_PORT: '0',
    // The children load the same built files at every start and restart: V8's code for them, kept on
    // disk where Node keeps it by default, saves a fifth of the CPU each start takes (mostly module
    // loading). NODE_COMPILE_CACHE names another directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
    NODE_COMPILE_CACHE: readOptionalString(env, 'NODE_COMPILE_CACHE') ?? join(tmpdir(), 'node-compile-cache'),
  };
  const childEnv = Object.fromEntries(
    clusterProcesses.map(({ name, prefix }) => [
      name,
      name === 'gateway'
        ? { ...shared, HOST: listen.gateway!.host }
        : {
            ...shared,
            [`${prefix}_HOST`]: listen[name]!.host,
            [`${prefix}_PORT`]: String(listen[name]!.port),
            ...(name === 'calls' ? { VOICE_CALLS_MEDIA_HOST: callsMedia.host, VOICE_CALLS_MEDIA_PORT: String(callsMedia.port) } : {}),
          },
    ]),
  ) as Record<ClusterProcessName, Record<string, string>>;

  return {
    dataDir,
    natsUrl,
    logLevel,
    gatewayPort,
    gatewayUrl: `http://${reachableHost(listen.gateway!.host)}:${gatewayPort}`,
    services,
    secrets,
    childEnv,
    release,
    releaseAll,
  };
}
