// Settings every service process shares; each service's own config.ts adds its own.
import { join, resolve } from 'node:path';
import { loadKey } from './crypto.js';
import { readEnum, readOptionalString, readString, readUrl, type Env } from './config.js';
import { logLevels, type LogLevel } from './logger.js';

export interface CommonConfig {
  dataDir: string;
  mongodbUri: string | undefined;
  mongoDatabasePrefix: string;
  natsUrl: string | undefined;
  logLevel: LogLevel;
  /** HMAC key of signed internal callers, shared by the gateway and every service. */
  internalSecret: Buffer;
}

export function readCommonConfig(env: Env): CommonConfig {
  const dataDir = resolve(readString(env, 'DATA_DIR', './data'));
  const mongodbUri = readUrl(env, 'MONGODB_URI', undefined, ['mongodb:', 'mongodb+srv:']);
  return {
    dataDir,
    mongodbUri,
    mongoDatabasePrefix: readString(env, 'MONGODB_DB_PREFIX', 'voice'),
    natsUrl: readUrl(env, 'NATS_URL', undefined, ['nats:', 'tls:', 'ws:', 'wss:']),
    logLevel: readEnum(env, 'LOG_LEVEL', 'info', logLevels),
    internalSecret: loadKey({
      variable: 'VOICE_INTERNAL_SECRET',
      value: readOptionalString(env, 'VOICE_INTERNAL_SECRET'),
      file: join(dataDir, 'keys', 'internal.key'),
      required: mongodbUri !== undefined,
    }),
  };
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
