// Every setting of the billing service, read and validated once at start.
import { readCommonConfig, readPort, readString, readUrl, type CommonConfig, type Env } from '@voice/runtime/config';

export interface BillingConfig {
  common: CommonConfig;
  host: string;
  port: number;
  /** Where the identity service answers which workspace is the root platform (the issuer). */
  identityUrl: string;
}

export function readBillingConfig(env: Env): BillingConfig {
  return {
    common: readCommonConfig(env),
    host: readString(env, 'VOICE_BILLING_HOST', '127.0.0.1'),
    port: readPort(env, 'VOICE_BILLING_PORT', 50054),
    identityUrl: readUrl(env, 'VOICE_IDENTITY_URL', 'http://127.0.0.1:50051', ['http:', 'https:'])!,
  };
}
