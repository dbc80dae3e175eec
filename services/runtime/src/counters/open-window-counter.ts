// Window counters as the configuration asks for them: with NATS_URL, in JetStream key-value
// buckets shared by every replica of one platform and named in its event
// namespace like its streams (two platforms on one NATS server never share counts); otherwise
// in this process's memory (also the stand-in while NATS cannot be reached).
import type { CommonConfig } from '../config/service-config.js';
import { namespacedName } from '../events/namespaced.js';
import { FallbackWindowCounter } from './fallback-window-counter.js';
import { NatsWindowCounter } from './nats-window-counter.js';
import { MemoryWindowCounter, type WindowCounter } from './window-counter.js';

/** The buckets' names before the namespace: OAuth requests per client address, API requests per account. */
export const rateLimitBuckets = { oauth: 'voice_oauth_rate_limits', api: 'voice_api_rate_limits' } as const;

/** Calls the campaigns dialer started per campaign and minute (a campaign's calls_per_minute), across its replicas. */
export const campaignDialBucket = 'voice_campaign_dial_rates';

/** Caller ID verification codes sent per destination number (platform-wide) and per workspace. */
export const callerIdCodeBuckets = { number: 'voice_caller_id_codes_per_number', workspace: 'voice_caller_id_codes_per_workspace' } as const;

export type WindowCounterBucket =
  | (typeof rateLimitBuckets)[keyof typeof rateLimitBuckets]
  | typeof campaignDialBucket
  | (typeof callerIdCodeBuckets)[keyof typeof callerIdCodeBuckets];

/** With NATS, hits count in this replica's memory while the bucket cannot be reached; `onFailure` hears of each outage. */
export async function openWindowCounter(
  common: Pick<CommonConfig, 'natsUrl' | 'eventNamespace' | 'natsReplicas'>,
  bucket: WindowCounterBucket,
  windowMs: number,
  onFailure: (error: unknown) => void = () => {},
): Promise<WindowCounter> {
  const local = new MemoryWindowCounter(windowMs);
  if (!common.natsUrl) return local;
  const shared = await NatsWindowCounter.connect(common.natsUrl, namespacedName(common.eventNamespace, bucket), windowMs, Date.now, common.natsReplicas);
  return new FallbackWindowCounter(shared, local, { onFailure });
}
