// Every setting of the tools service, read and validated once at start.
import { readBool, readCommonConfig, readEncryptionKey, readListenAddress, readServiceUrl, type CommonConfig, type Env } from '@voice/runtime/config';

export interface ToolsConfig {
  common: CommonConfig;
  host: string;
  port: number;
  encryptionKey: Buffer;
  /** Let tool tests reach private, loopback and link-local addresses (tests and closed networks only). */
  egressAllowPrivate: boolean;
  /** The assistants service, asked whether a builtin tool's assistant exists. */
  assistantsUrl: string;
}

export function readToolsConfig(env: Env): ToolsConfig {
  const common = readCommonConfig(env);
  return {
    common,
    ...readListenAddress(env, 'tools'),
    encryptionKey: readEncryptionKey(env, common),
    egressAllowPrivate: readBool(env, 'VOICE_EGRESS_ALLOW_PRIVATE', false),
    assistantsUrl: readServiceUrl(env, 'assistants'),
  };
}
