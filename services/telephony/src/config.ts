// Every setting of the telephony service, read and validated once at start.
import {
  ConfigError,
  readBool,
  readCommonConfig,
  readEncryptionKey,
  readEnum,
  readInt,
  readOptionalString,
  readPort,
  readPublicUrl,
  readString,
  readUrl,
  type CommonConfig,
  type Env,
} from '@voice/runtime';
import { readSmsPricing, type SmsPricing } from './pricing.js';

/** The carrier that sells marketplace numbers and carries their messages. */
export type PlatformCarrierConfig =
  | { provider: 'sandbox' }
  | { provider: 'twilio'; baseUrl: string; accountSid: string; authToken: string };

export interface TelephonyConfig {
  common: CommonConfig;
  host: string;
  port: number;
  encryptionKey: Buffer;
  /** Let carrier adapters reach private, loopback and link-local addresses (tests and closed networks only). */
  egressAllowPrivate: boolean;
  /** External base address of the gateway: carriers post status callbacks below it. */
  publicUrl: string;
  billingUrl: string;
  platformCarrier: PlatformCarrierConfig;
  pricing: SmsPricing;
  /** Per attempt of a request to an HTTP carrier. */
  carrierTimeoutMs: number;
}

function readPlatformCarrier(env: Env): PlatformCarrierConfig {
  const provider = readEnum(env, 'VOICE_CARRIER', 'sandbox', ['sandbox', 'twilio'] as const);
  if (provider === 'sandbox') return { provider };
  const required = (name: string): string => {
    const value = readOptionalString(env, name);
    if (!value) throw new ConfigError(name, 'is required when VOICE_CARRIER is twilio');
    return value;
  };
  return {
    provider,
    baseUrl: readUrl(env, 'VOICE_CARRIER_URL', 'https://api.twilio.com', ['http:', 'https:'])!.replace(/\/+$/, ''),
    accountSid: required('VOICE_CARRIER_ACCOUNT_SID'),
    authToken: required('VOICE_CARRIER_AUTH_TOKEN'),
  };
}

export function readTelephonyConfig(env: Env): TelephonyConfig {
  const common = readCommonConfig(env);
  return {
    common,
    host: readString(env, 'VOICE_TELEPHONY_HOST', '127.0.0.1'),
    port: readPort(env, 'VOICE_TELEPHONY_PORT', 50053),
    encryptionKey: readEncryptionKey(env, common),
    egressAllowPrivate: readBool(env, 'VOICE_EGRESS_ALLOW_PRIVATE', false),
    publicUrl: readPublicUrl(env),
    billingUrl: readUrl(env, 'VOICE_BILLING_URL', 'http://127.0.0.1:50054', ['http:', 'https:'])!,
    platformCarrier: readPlatformCarrier(env),
    pricing: readSmsPricing(env),
    carrierTimeoutMs: readInt(env, 'VOICE_CARRIER_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 }),
  };
}
