// Every setting of the billing service, read and validated once at start.
import { readCommonConfig, readListenAddress, readServiceUrl, type CommonConfig, type Env } from '@voice/runtime/config';

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
    ...readListenAddress(env, 'billing'),
    identityUrl: readServiceUrl(env, 'identity'),
  };
}
