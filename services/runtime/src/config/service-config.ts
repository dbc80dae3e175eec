// Settings every service process shares; each service's own config.ts adds its own.
import { join, resolve } from 'node:path';
import { defaultConnectionAge, type ConnectionAge } from '../server/connect-server-age.js';
// The lease module alone: the jobs' runner would load the metrics registry into every config reader.
import { defaultLeaseMs } from '../jobs/lease-store.js';
import { loadKey } from '../crypto.js';
import { ConfigError, readEnum, readInt, readIntOrOff, readOptionalString, readPort, readString, readUrl, type Env } from './env.js';
import { eventNamespacePattern } from '../events/namespaced.js';
import { logLevels, type LogLevel } from '../logger.js';
import { readRetentionConfig, type RetentionConfig } from './retention.js';

export interface CommonConfig {
  dataDir: string;
  mongodbUri: string | undefined;
  mongoDatabasePrefix: string;
  natsUrl: string | undefined;
  /** Prefix of every stream, subject and durable name, for platforms sharing one NATS server. */
  eventNamespace: string | undefined;
  /** Copies of every JetStream stream and KV bucket the platform creates (3 on a three-node cluster). */
  natsReplicas: number;
  logLevel: LogLevel;
  /** HMAC key of signed internal callers, shared by the gateway and every service. */
  internalSecret: Buffer;
  /** When each service's server sends its callers GOAWAY, so they reconnect (and spread over new replicas). */
  connectionAge: ConnectionAge;
  /** How long records kept only for a while are kept, and how often each service prunes them. */
  retention: RetentionConfig;
  /** How long a periodic job's lease lasts unrenewed: how long a killed replica's jobs wait at most (VOICE_JOB_LEASE_SECONDS). */
  jobLeaseMs: number;
}

function readEventNamespace(env: Env): string | undefined {
  const namespace = readOptionalString(env, 'VOICE_EVENT_NAMESPACE');
  if (namespace !== undefined && !eventNamespacePattern.test(namespace)) {
    throw new ConfigError('VOICE_EVENT_NAMESPACE', 'must be 1 to 32 letters, digits, _ or -');
  }
  return namespace;
}

const maxAgeLimitSeconds = 86_400;

/** VOICE_GRPC_MAX_CONNECTION_AGE_SECONDS (`0` or `off` disables) and its _GRACE_SECONDS. */
function readConnectionAge(env: Env): ConnectionAge {
  // The grace is checked even when the age is off, so a bad value never waits for the age to be turned on.
  const graceSeconds = readInt(env, 'VOICE_GRPC_MAX_CONNECTION_AGE_GRACE_SECONDS', defaultConnectionAge.graceMs / 1000, { min: 0, max: maxAgeLimitSeconds });
  // gRPC's spelling of "no maximum" is 0; any other value must be a real age.
  if (readOptionalString(env, 'VOICE_GRPC_MAX_CONNECTION_AGE_SECONDS') === '0') return 'off';
  const maxAgeSeconds = readIntOrOff(
    env,
    'VOICE_GRPC_MAX_CONNECTION_AGE_SECONDS',
    defaultConnectionAge.maxAgeMs / 1000,
    { min: 1, max: maxAgeLimitSeconds },
    `seconds (1 to ${maxAgeLimitSeconds}), or 0 or off to keep connections`,
  );
  if (maxAgeSeconds === 'off') return 'off';
  return { maxAgeMs: maxAgeSeconds * 1000, graceMs: graceSeconds * 1000 };
}

export function readCommonConfig(env: Env): CommonConfig {
  const dataDir = resolve(readString(env, 'DATA_DIR', './data'));
  const mongodbUri = readUrl(env, 'MONGODB_URI', undefined, ['mongodb:', 'mongodb+srv:']);
  return {
    dataDir,
    mongodbUri,
    mongoDatabasePrefix: readString(env, 'MONGODB_DB_PREFIX', 'voice'),
    natsUrl: readUrl(env, 'NATS_URL', undefined, ['nats:', 'tls:', 'ws:', 'wss:']),
    eventNamespace: readEventNamespace(env),
    natsReplicas: readInt(env, 'VOICE_NATS_REPLICAS', 1, { min: 1, max: 5 }),
    logLevel: readEnum(env, 'LOG_LEVEL', 'info', logLevels),
    internalSecret: loadKey({
      variable: 'VOICE_INTERNAL_SECRET',
      value: readOptionalString(env, 'VOICE_INTERNAL_SECRET'),
      file: join(dataDir, 'keys', 'internal.key'),
      required: mongodbUri !== undefined,
    }),
    connectionAge: readConnectionAge(env),
    retention: readRetentionConfig(env),
    jobLeaseMs: readInt(env, 'VOICE_JOB_LEASE_SECONDS', defaultLeaseMs / 1000, { min: 2, max: 600 }) * 1000,
  };
}

/**
 * The gateway's external base address, for services that publish it (carrier callbacks, DNS
 * records): VOICE_PUBLIC_URL, or the gateway's own port on loopback. PORT is checked too, since
 * the default is built from it. No trailing slash.
 */
export function readPublicUrl(env: Env): string {
  const gatewayPort = readPort(env, 'PORT', 8080);
  return readUrl(env, 'VOICE_PUBLIC_URL', `http://127.0.0.1:${gatewayPort}`, ['http:', 'https:'])!.replace(/\/+$/, '');
}

/** The data-at-rest key: VOICE_ENCRYPTION_KEY, or a key generated into the data directory. */
export function readEncryptionKey(env: Env, common: CommonConfig): Buffer {
  return loadKey({
    variable: 'VOICE_ENCRYPTION_KEY',
    value: readOptionalString(env, 'VOICE_ENCRYPTION_KEY'),
    file: join(common.dataDir, 'keys', 'encryption.key'),
    required: common.mongodbUri !== undefined,
  });
}
