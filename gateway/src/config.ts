// Every setting of the gateway, read and validated once at start.
import {
  ConfigError,
  plans,
  readCommonConfig,
  readInt,
  readOptionalString,
  readPort,
  readString,
  readUrl,
  type CommonConfig,
  type Env,
} from '@voice/runtime';
import type { RateLimitPolicy } from './middleware/rate-limit.js';

export interface GatewayConfig {
  common: CommonConfig;
  host: string;
  port: number;
  publicUrl: string | undefined;
  services: { identity: string; tools: string; telephony: string; billing: string; platformUsers: string };
  rateLimit: RateLimitPolicy;
  /** Requests per minute and client address at the OAuth endpoints. */
  oauthRateLimits: { register: number; authorize: number; token: number };
  platformName: string;
}

const defaultRateLimits = 'starter=600,pro=3000,enterprise=12000';

/** "starter=600,pro=3000,enterprise=12000": requests per window for each plan. */
function readRateLimits(env: Env): Record<string, number> {
  const value = readOptionalString(env, 'VOICE_RATE_LIMITS') ?? defaultRateLimits;
  const limits: Record<string, number> = {};
  for (const part of value.split(',')) {
    const [plan, count] = part.split('=').map((s) => s.trim());
    if (!plan || !(plans as readonly string[]).includes(plan) || !count || !/^\d+$/.test(count) || Number(count) < 1) {
      throw new ConfigError('VOICE_RATE_LIMITS', `must look like "${defaultRateLimits}", got "${value}"`);
    }
    limits[plan] = Number(count);
  }
  for (const plan of plans) if (limits[plan] === undefined) throw new ConfigError('VOICE_RATE_LIMITS', `has no limit for plan ${plan}`);
  return limits;
}

const defaultOAuthRateLimits = 'register=20,authorize=60,token=120';

/** "register=20,authorize=60,token=120": OAuth requests per minute and client address. */
function readOAuthRateLimits(env: Env): GatewayConfig['oauthRateLimits'] {
  const value = readOptionalString(env, 'VOICE_OAUTH_RATE_LIMITS') ?? defaultOAuthRateLimits;
  const limits: Record<string, number> = {};
  for (const part of value.split(',')) {
    const [endpoint, count] = part.split('=').map((s) => s.trim());
    if (!endpoint || !['register', 'authorize', 'token'].includes(endpoint) || !count || !/^\d+$/.test(count) || Number(count) < 1) {
      throw new ConfigError('VOICE_OAUTH_RATE_LIMITS', `must look like "${defaultOAuthRateLimits}", got "${value}"`);
    }
    limits[endpoint] = Number(count);
  }
  const { register, authorize, token } = limits;
  if (register === undefined || authorize === undefined || token === undefined) {
    throw new ConfigError('VOICE_OAUTH_RATE_LIMITS', 'needs register, authorize and token');
  }
  return { register, authorize, token };
}

const serviceUrl = (env: Env, variable: string, port: number): string =>
  readUrl(env, variable, `http://127.0.0.1:${port}`, ['http:', 'https:'])!;

export function readGatewayConfig(env: Env): GatewayConfig {
  const port = readPort(env, 'PORT', 8080);
  return {
    common: readCommonConfig(env),
    host: readString(env, 'HOST', '0.0.0.0'),
    port,
    // Unset means "derive from the port actually bound" (PORT=0 picks one at start).
    publicUrl: readUrl(env, 'VOICE_PUBLIC_URL', undefined, ['http:', 'https:'])?.replace(/\/+$/, ''),
    services: {
      identity: serviceUrl(env, 'VOICE_IDENTITY_URL', 50051),
      tools: serviceUrl(env, 'VOICE_TOOLS_URL', 50052),
      telephony: serviceUrl(env, 'VOICE_TELEPHONY_URL', 50053),
      billing: serviceUrl(env, 'VOICE_BILLING_URL', 50054),
      platformUsers: serviceUrl(env, 'VOICE_PLATFORM_USERS_URL', 50055),
    },
    rateLimit: {
      perPlan: readRateLimits(env),
      windowSeconds: readInt(env, 'VOICE_RATE_LIMIT_WINDOW_SECONDS', 60, { min: 1, max: 3600 }),
    },
    oauthRateLimits: readOAuthRateLimits(env),
    platformName: readString(env, 'VOICE_PLATFORM_NAME', 'Voice platform'),
  };
}
