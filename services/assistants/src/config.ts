// Every setting of the assistants service, read and validated once at start.
import { readCommonConfig, readEncryptionKey, readListenAddress, type CommonConfig, type Env } from '@voice/runtime/config';

export interface AssistantsConfig {
  common: CommonConfig;
  host: string;
  port: number;
  encryptionKey: Buffer;
}

export function readAssistantsConfig(env: Env): AssistantsConfig {
  const common = readCommonConfig(env);
  return {
    common,
    ...readListenAddress(env, 'assistants'),
    encryptionKey: readEncryptionKey(env, common),
  };
}
