// Every setting of the assistants service, read and validated once at start.
import { readCommonConfig, readEncryptionKey, readPort, readString, readUrl, type CommonConfig, type Env } from '@voice/runtime/config';

export interface AssistantsConfig {
  common: CommonConfig;
  host: string;
  port: number;
  encryptionKey: Buffer;
  /** The tools service: an assistant's tool_ids, and the builtin tools that name an assistant. */
  toolsUrl: string;
  /** The telephony service: the numbers that name an assistant. */
  telephonyUrl: string;
}

export function readAssistantsConfig(env: Env): AssistantsConfig {
  const common = readCommonConfig(env);
  return {
    common,
    host: readString(env, 'VOICE_ASSISTANTS_HOST', '127.0.0.1'),
    port: readPort(env, 'VOICE_ASSISTANTS_PORT', 50056),
    encryptionKey: readEncryptionKey(env, common),
    toolsUrl: readUrl(env, 'VOICE_TOOLS_URL', 'http://127.0.0.1:50052', ['http:', 'https:'])!,
    telephonyUrl: readUrl(env, 'VOICE_TELEPHONY_URL', 'http://127.0.0.1:50053', ['http:', 'https:'])!,
  };
}
