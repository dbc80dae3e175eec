// Every setting of the gateway, read and validated once at start.
import { plans } from '@voice/runtime/access';
import {
  ConfigError,
  readCommonConfig,
  readInt,
  mediaListeners,
  readOptionalString,
  readPort,
  readServiceUrl,
  readString,
  readUrl,
  type CommonConfig,
  type Env,
} from '@voice/runtime/config';
import { readDrainDelayMs } from '@voice/runtime/shutdown';
import type { RateLimitPolicy } from './middleware/rate-limit.js';
import { readAllowedOrigins, type AllowedOrigins } from './cors/allowed-origins.js';
import { readTrustedProxies } from './proxies/trusted-proxies.js';

export interface GatewayConfig {
  common: CommonConfig;
  host: string;
  port: number;
  publicUrl: string | undefined;
  services: { identity: string; tools: string; telephony: string; billing: string; platformUsers: string; assistants: string; webhooks: string; calls: string; campaigns: string };
  /** Recording downloads: the calls service's media endpoint they stream from, and how long a signed address lasts. */
  recordings: { mediaUrl: string; urlTtlSeconds: number };
  rateLimit: RateLimitPolicy;
  /** Requests per minute and client address at the OAuth endpoints. */
  oauthRateLimits: Record<(typeof oauthEndpoints)[number], number>;
  /** The fixed window the OAuth limits count in. */
  oauthRateLimitWindowSeconds: number;
  platformName: string;
  /** Proxies whose X-Forwarded-For names the client (express's `trust proxy`); empty trusts nobody. */
  trustedProxies: string[];
  /** Browser origins that may call /api/v1 and the OAuth token, registration and revocation endpoints. */
  corsOrigins: AllowedOrigins;
  /** After SIGTERM, how long /readyz answers 503 while requests are still served, before the listener closes. */
  drainDelayMs: number;
}

/** A "name=count,name=count" variable where every allowed name must appear with a count of at least 1. */
function readCounts<N extends string>(env: Env, variable: string, fallback: string, names: readonly N[]): Record<N, number> {
  const value = readOptionalString(env, variable) ?? fallback;
  const counts: Partial<Record<N, number>> = {};
  for (const part of value.split(',')) {
    const [name, count] = part.split('=').map((s) => s.trim());
    if (!name || !(names as readonly string[]).includes(name) || !count || !/^\d+$/.test(count) || Number(count) < 1) {
      throw new ConfigError(variable, `must look like "${fallback}", got "${value}"`);
    }
    counts[name as N] = Number(count);
  }
  const missing = names.filter((name) => counts[name] === undefined);
  if (missing.length > 0) throw new ConfigError(variable, `has no count for ${missing.join(', ')}`);
  return counts as Record<N, number>;
}

const oauthEndpoints = ['register', 'authorize', 'token'] as const;

/** How long a recording's download address works unless VOICE_RECORDING_URL_TTL_SECONDS says otherwise. */
export const defaultRecordingUrlTtlSeconds = 15 * 60;

export function readGatewayConfig(env: Env): GatewayConfig {
  const port = readPort(env, 'PORT', 8080);
  return {
    common: readCommonConfig(env),
    host: readString(env, 'HOST', '0.0.0.0'),
    port,
    // Unset means "derive from the port actually bound" (PORT=0 picks one at start).
    publicUrl: readUrl(env, 'VOICE_PUBLIC_URL', undefined, ['http:', 'https:'])?.replace(/\/+$/, ''),
    services: {
      identity: readServiceUrl(env, 'identity'),
      tools: readServiceUrl(env, 'tools'),
      telephony: readServiceUrl(env, 'telephony'),
      billing: readServiceUrl(env, 'billing'),
      platformUsers: readServiceUrl(env, 'platform-users'),
      assistants: readServiceUrl(env, 'assistants'),
      calls: readServiceUrl(env, 'calls'),
      webhooks: readServiceUrl(env, 'webhooks'),
      campaigns: readServiceUrl(env, 'campaigns'),
    },
    recordings: {
      mediaUrl: readUrl(env, 'VOICE_CALLS_MEDIA_URL', `http://127.0.0.1:${mediaListeners.callsMedia.port}`, ['http:'])!.replace(/\/+$/, ''),
      urlTtlSeconds: readInt(env, 'VOICE_RECORDING_URL_TTL_SECONDS', defaultRecordingUrlTtlSeconds, { min: 1, max: 7 * 24 * 3600 }),
    },
    rateLimit: {
      perPlan: readCounts(env, 'VOICE_RATE_LIMITS', 'starter=600,pro=3000,enterprise=12000', plans),
      windowSeconds: readInt(env, 'VOICE_RATE_LIMIT_WINDOW_SECONDS', 60, { min: 1, max: 3600 }),
    },
    oauthRateLimits: readCounts(env, 'VOICE_OAUTH_RATE_LIMITS', 'register=20,authorize=60,token=120', oauthEndpoints),
    oauthRateLimitWindowSeconds: readInt(env, 'VOICE_OAUTH_RATE_LIMIT_WINDOW_SECONDS', 60, { min: 1, max: 3600 }),
    platformName: readString(env, 'VOICE_PLATFORM_NAME', 'Voice platform'),
    trustedProxies: readTrustedProxies(env),
    corsOrigins: readAllowedOrigins(env),
    drainDelayMs: readDrainDelayMs(env),
  };
}
