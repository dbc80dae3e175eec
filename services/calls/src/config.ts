// Every setting of the calls service, read and validated once at start.
import { defaultCallCreditsPerMinute } from '@voice/contracts/calls';
import { creditScale, parseCredits } from '@voice/runtime/amounts';
import { ConfigError, readCommonConfig, readEnum, readInt, readListenAddress, readMediaListenAddress, readOptionalString, readServiceUrl, type CommonConfig, type Env } from '@voice/runtime/config';
import { minuteRoundings, type MinuteRounding } from './domain/minutes.js';

export interface CallsConfig {
  common: CommonConfig;
  host: string;
  port: number;
  /** The internal media endpoint (VOICE_CALLS_MEDIA_HOST/_PORT, HTTP/1.1): recordings for the gateway's downloads. */
  media: { host: string; port: number };
  assistantsUrl: string;
  telephonyUrl: string;
  billingUrl: string;
  /** Identity: an inbound call's workspace and its plan. */
  identityUrl: string;
  /** The tools service: an assistant's api tools run through it during calls. */
  toolsUrl: string;
  /** Platform-users: the workspace's e-mails (history) and the post-call summaries sent through its mail outbox. */
  platformUsersUrl: string;
  /** The largest call recording kept, in bytes (VOICE_CALL_RECORDING_MAX_MB). */
  recordingMaxBytes: number;
  /** What a call minute beyond the wallet's included minutes costs, in credit sub-units. */
  creditUnitsPerMinute: number;
  /** How a call's length becomes billed minutes (VOICE_CALL_MINUTE_ROUNDING). */
  minuteRounding: MinuteRounding;
  /** How long a call's hold outlives its longest possible length: ringing, and the charge after the end. */
  holdMarginSeconds: number;
}

function readCreditsPerMinute(env: Env): number {
  const text = readOptionalString(env, 'VOICE_CALL_CREDITS_PER_MINUTE') ?? defaultCallCreditsPerMinute;
  const units = parseCredits(text);
  if (units === undefined || units <= 0) {
    const places = Math.round(Math.log10(creditScale));
    throw new ConfigError('VOICE_CALL_CREDITS_PER_MINUTE', `must be a positive decimal amount of credits with at most ${places} decimal places, got "${text}"`);
  }
  return units;
}

export function readCallsConfig(env: Env): CallsConfig {
  return {
    common: readCommonConfig(env),
    ...readListenAddress(env, 'calls'),
    media: readMediaListenAddress(env, 'callsMedia'),
    assistantsUrl: readServiceUrl(env, 'assistants'),
    telephonyUrl: readServiceUrl(env, 'telephony'),
    billingUrl: readServiceUrl(env, 'billing'),
    toolsUrl: readServiceUrl(env, 'tools'),
    identityUrl: readServiceUrl(env, 'identity'),
    platformUsersUrl: readServiceUrl(env, 'platform-users'),
    recordingMaxBytes: readInt(env, 'VOICE_CALL_RECORDING_MAX_MB', 256, { min: 1, max: 4096 }) * 1024 * 1024,
    creditUnitsPerMinute: readCreditsPerMinute(env),
    minuteRounding: readEnum(env, 'VOICE_CALL_MINUTE_ROUNDING', 'minute', minuteRoundings),
    holdMarginSeconds: readInt(env, 'VOICE_CALL_HOLD_MARGIN_SECONDS', 3_600, { min: 60, max: 86_400 }),
  };
}
