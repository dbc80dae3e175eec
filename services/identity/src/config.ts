// Every setting of the identity service, read and validated once at start.
import {
  ConfigError,
  readBool,
  readCommonConfig,
  readInt,
  readListenAddress,
  readOptionalString,
  type CommonConfig,
  type Env,
} from '@voice/runtime/config';
import { isValidRootKey } from './domain/credentials.js';
import { passwordHashCost } from './users/passwords.js';

export interface IdentityConfig {
  common: CommonConfig;
  host: string;
  port: number;
  /** Registered as the root key on first start; generated and printed once when unset. */
  rootApiKey: string | undefined;
  /** Let Client ID Metadata Documents be fetched from private, loopback and link-local addresses (tests and closed networks only). */
  egressAllowPrivate: boolean;
  /** scrypt's N as a power of two; hashes below it are replaced at the next sign-in. */
  passwordHashCost: number;
}

export function readIdentityConfig(env: Env): IdentityConfig {
  const rootApiKey = readOptionalString(env, 'VOICE_ROOT_API_KEY');
  if (rootApiKey !== undefined && !isValidRootKey(rootApiKey)) {
    throw new ConfigError('VOICE_ROOT_API_KEY', 'must start with svc_ and have at least 32 letters, digits, "_" or "-" after it');
  }
  return {
    common: readCommonConfig(env),
    ...readListenAddress(env, 'identity'),
    rootApiKey,
    egressAllowPrivate: readBool(env, 'VOICE_EGRESS_ALLOW_PRIVATE', false),
    passwordHashCost: readInt(env, 'VOICE_PASSWORD_HASH_COST', passwordHashCost.default, passwordHashCost),
  };
}
