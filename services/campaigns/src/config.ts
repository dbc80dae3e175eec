// Every setting of the campaigns service, read and validated once at start.
import { readCommonConfig, readListenAddress, readServiceUrl, type CommonConfig, type Env } from '@voice/runtime/config';

export interface CampaignsConfig {
  common: CommonConfig;
  host: string;
  port: number;
  /** The assistants service: a campaign's assistant must be one of the workspace. */
  assistantsUrl: string;
  /** Telephony: the numbers a campaign calls from, and the suppression list its leads are checked against. */
  telephonyUrl: string;
  /** The calls service: the dialer places the campaigns' calls there, and a campaign's progress counts them there. */
  callsUrl: string;
}

export function readCampaignsConfig(env: Env): CampaignsConfig {
  return {
    common: readCommonConfig(env),
    ...readListenAddress(env, 'campaigns'),
    assistantsUrl: readServiceUrl(env, 'assistants'),
    telephonyUrl: readServiceUrl(env, 'telephony'),
    callsUrl: readServiceUrl(env, 'calls'),
  };
}
