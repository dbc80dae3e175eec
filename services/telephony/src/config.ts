// Every setting of the telephony service, read and validated once at start.
import {
  ConfigError,
  readBool,
  readCommonConfig,
  readEncryptionKey,
  readEnum,
  readInt,
  readListenAddress,
  readOptionalString,
  readPublicUrl,
  readServiceUrl,
  readString,
  readUrl,
  mediaListeners,
  type CommonConfig,
  type Env,
} from '@voice/runtime/config';
import { defaultCodeSendLimits, parseE164, type CodeSendLimit } from '@voice/contracts/telephony';
import { longestSendMs } from './carriers/twilio.js';
import { holdTimeoutMs } from './billing/holds.js';
import { readSmsPricing, type SmsPricing } from './domain/pricing.js';

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
  /** The assistants service, asked whether a number's assistant exists. */
  assistantsUrl: string;
  platformCarrier: PlatformCarrierConfig;
  pricing: SmsPricing;
  /** The voice runtime's stream endpoint: where carriers connect answered calls' media (VOICE_MEDIA_URL). */
  mediaUrl: string;
  /** The calls service, which takes inbound calls and the carriers' recordings. */
  callsUrl: string;
  /** Per attempt of a request to an HTTP carrier. */
  carrierTimeoutMs: number;
  /** The platform carrier's sender number of caller ID verification codes (E.164). */
  callerIdSmsFrom: string;
  /** The platform carrier's caller of caller ID codes by call (VOICE_CALLER_ID_CALL_FROM, default the SMS sender). */
  callerIdCallFrom: string;
  /** Caller ID verification codes sent per destination number (across the platform) and per workspace. */
  codeSendLimits: { perNumber: CodeSendLimit; perWorkspace: CodeSendLimit };
  /** How long a SIP trunk check waits for the trunk's answer to its OPTIONS request. */
  sipCheckTimeoutMs: number;
  /** How long a bought number whose monthly fee was refused stays (past due) before it is released. */
  numberGraceMs: number;
  /** How often the renewal job looks for numbers whose fee is due. */
  numberRenewalCheckMs: number;
  /**
   * A message still waiting for its carrier's answer this long after it was created cannot be in
   * flight any more (it exceeds the longest send): its send was interrupted and gets recovered.
   */
  sendRecoveryAfterMs: number;
  /**
   * How long billing keeps an SMS's hold unless it is captured or released first. Every send's hold
   * is settled by the send or by its recovery; the expiry only frees holds a lost telephony
   * database would leave behind, so it outlives the recovery age by a day of billing or stream
   * outage, during which the capture may still be on its way.
   */
  smsHoldSeconds: number;
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

/** The longest a send can take from its start to the carrier's answer, rounded up to whole seconds. */
const longestSendSeconds = (carrierTimeoutMs: number) => Math.ceil((holdTimeoutMs + longestSendMs(carrierTimeoutMs)) / 1000);

/** A day, the outage of billing or the stream a capture still survives; billing's holds last 7 days at most. */
const holdSeconds = (recoveryAfterMs: number) => Math.min(7 * 24 * 3600, recoveryAfterMs / 1000 + 24 * 3600);

function readSendRecoveryAfterMs(env: Env, carrierTimeoutMs: number): number {
  const longest = longestSendSeconds(carrierTimeoutMs);
  const seconds = readInt(env, 'VOICE_SMS_RECOVERY_AFTER_SECONDS', Math.max(60, 2 * longest), { min: longest + 1, max: 86_400 });
  return seconds * 1000;
}

/** The sandbox voice runtime's stream endpoint on this machine unless set (the platform sets it to the one it runs). */
export const defaultMediaUrl = `ws://127.0.0.1:${mediaListeners.sandboxRuntime.port}/media`;

function readMediaUrl(env: Env): string {
  return readUrl(env, 'VOICE_MEDIA_URL', defaultMediaUrl, ['ws:', 'wss:'])!;
}

/** Twilio's test sender, which its test credentials and the sandbox accept; production sets a number of the carrier account. */
export const defaultCallerIdSmsFrom = '+15005550006';

function readCallerIdSender(env: Env, name: 'VOICE_CALLER_ID_SMS_FROM' | 'VOICE_CALLER_ID_CALL_FROM', fallback: string): string {
  const value = readString(env, name, fallback);
  const parsed = parseE164(value);
  if (!parsed) throw new ConfigError(name, 'must be a phone number in E.164 form, e.g. +14155550100');
  return parsed.number;
}

/** Up to a week, the longest window a KV bucket's entries are kept for comfortably (twice the window). */
function readCodeSendLimit(env: Env, name: 'VOICE_CALLER_ID_CODES_PER_NUMBER' | 'VOICE_CALLER_ID_CODES_PER_WORKSPACE', fallback: CodeSendLimit): CodeSendLimit {
  return {
    codes: readInt(env, name, fallback.codes, { min: 1, max: 100_000 }),
    windowSeconds: readInt(env, `${name}_WINDOW_SECONDS`, fallback.windowSeconds, { min: 60, max: 7 * 24 * 3600 }),
  };
}

export function readTelephonyConfig(env: Env): TelephonyConfig {
  const common = readCommonConfig(env);
  const carrierTimeoutMs = readInt(env, 'VOICE_CARRIER_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 });
  const sendRecoveryAfterMs = readSendRecoveryAfterMs(env, carrierTimeoutMs);
  const callerIdSmsFrom = readCallerIdSender(env, 'VOICE_CALLER_ID_SMS_FROM', defaultCallerIdSmsFrom);
  return {
    common,
    ...readListenAddress(env, 'telephony'),
    encryptionKey: readEncryptionKey(env, common),
    egressAllowPrivate: readBool(env, 'VOICE_EGRESS_ALLOW_PRIVATE', false),
    publicUrl: readPublicUrl(env),
    billingUrl: readServiceUrl(env, 'billing'),
    assistantsUrl: readServiceUrl(env, 'assistants'),
    platformCarrier: readPlatformCarrier(env),
    pricing: readSmsPricing(env),
    mediaUrl: readMediaUrl(env),
    callsUrl: readServiceUrl(env, 'calls'),
    carrierTimeoutMs,
    callerIdSmsFrom,
    // One number of the carrier account usually sends both.
    callerIdCallFrom: readCallerIdSender(env, 'VOICE_CALLER_ID_CALL_FROM', callerIdSmsFrom),
    codeSendLimits: {
      perNumber: readCodeSendLimit(env, 'VOICE_CALLER_ID_CODES_PER_NUMBER', defaultCodeSendLimits.perNumber),
      perWorkspace: readCodeSendLimit(env, 'VOICE_CALLER_ID_CODES_PER_WORKSPACE', defaultCodeSendLimits.perWorkspace),
    },
    sipCheckTimeoutMs: readInt(env, 'VOICE_SIP_CHECK_TIMEOUT_MS', 5_000, { min: 100, max: 30_000 }),
    // Shorter than any month, so a past-due month is released before the next one is due.
    numberGraceMs: readInt(env, 'VOICE_NUMBER_GRACE_DAYS', 7, { min: 0, max: 27 }) * 24 * 3600 * 1000,
    numberRenewalCheckMs: readInt(env, 'VOICE_NUMBER_RENEWAL_CHECK_SECONDS', 300, { min: 1, max: 86_400 }) * 1000,
    sendRecoveryAfterMs,
    smsHoldSeconds: holdSeconds(sendRecoveryAfterMs),
  };
}
