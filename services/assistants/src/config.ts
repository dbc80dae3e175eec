// Every setting of the assistants service, read and validated once at start.
import { readBool, readCommonConfig, readEncryptionKey, readListenAddress, readServiceUrl, readUrl, type CommonConfig, type Env } from '@voice/runtime/config';
import type { InferenceProvider } from '@voice/contracts/settings';

export interface AssistantsConfig {
  common: CommonConfig;
  host: string;
  port: number;
  encryptionKey: Buffer;
  /** The tools service: an assistant's tool_ids, and the builtin tools that name an assistant. */
  toolsUrl: string;
  /** The telephony service: the numbers that name an assistant. */
  telephonyUrl: string;
  /** Platform-users: the verified e-mail sender an analysis plan's summary e-mail names. */
  platformUsersUrl: string;
  /** Each model provider's API origin, where a workspace's key is tested. */
  providerUrls: Record<InferenceProvider, string>;
  /** Let key tests and document fetches reach private, loopback and link-local addresses (tests and closed networks only). */
  egressAllowPrivate: boolean;
}

export function readAssistantsConfig(env: Env): AssistantsConfig {
  const common = readCommonConfig(env);
  return {
    common,
    ...readListenAddress(env, 'assistants'),
    encryptionKey: readEncryptionKey(env, common),
    toolsUrl: readServiceUrl(env, 'tools'),
    telephonyUrl: readServiceUrl(env, 'telephony'),
    platformUsersUrl: readServiceUrl(env, 'platform-users'),
    providerUrls: {
      openai: readUrl(env, 'VOICE_OPENAI_API_URL', 'https://api.openai.com', ['http:', 'https:'])!,
      anthropic: readUrl(env, 'VOICE_ANTHROPIC_API_URL', 'https://api.anthropic.com', ['http:', 'https:'])!,
      google: readUrl(env, 'VOICE_GOOGLE_AI_API_URL', 'https://generativelanguage.googleapis.com', ['http:', 'https:'])!,
    },
    egressAllowPrivate: readBool(env, 'VOICE_EGRESS_ALLOW_PRIVATE', false),
  };
}
