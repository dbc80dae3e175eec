// Every setting of the assistants service, read and validated once at start.
import { readCommonConfig, readEncryptionKey, readPort, readString, type CommonConfig, type Env } from '@voice/runtime/config';

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
    host: readString(env, 'VOICE_ASSISTANTS_HOST', '127.0.0.1'),
    port: readPort(env, 'VOICE_ASSISTANTS_PORT', 50056),
    encryptionKey: readEncryptionKey(env, common),
  };
}
