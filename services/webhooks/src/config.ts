// Every setting of the webhooks service and its delivery worker, read and validated once at start.
import { defaultWebhookTimeoutMs } from '@voice/contracts/webhooks';
import { readBool, readCommonConfig, readEncryptionKey, readInt, readListenAddress, readServiceUrl, type CommonConfig, type Env } from '@voice/runtime/config';

export interface WebhooksConfig {
  common: CommonConfig;
  host: string;
  port: number;
  /** Seals the endpoints' signing secrets. */
  encryptionKey: Buffer;
  /** Let endpoints be private, loopback or plain-http addresses (tests and closed networks only). */
  egressAllowPrivate: boolean;
  /** How long one delivery attempt may take, the receiver's answer included. */
  deliveryTimeoutMs: number;
  /** How often the delivery worker looks for due deliveries. */
  dispatchIntervalMs: number;
  /** platform-users, which mails the owners of a workspace whose endpoint was disabled. */
  platformUsersUrl: string;
}

export function readWebhooksConfig(env: Env): WebhooksConfig {
  const common = readCommonConfig(env);
  return {
    common,
    ...readListenAddress(env, 'webhooks'),
    encryptionKey: readEncryptionKey(env, common),
    egressAllowPrivate: readBool(env, 'VOICE_EGRESS_ALLOW_PRIVATE', false),
    deliveryTimeoutMs: readInt(env, 'VOICE_WEBHOOK_TIMEOUT_MS', defaultWebhookTimeoutMs, { min: 100, max: 60_000 }),
    dispatchIntervalMs: readInt(env, 'VOICE_WEBHOOK_DISPATCH_INTERVAL_MS', 250, { min: 10, max: 60_000 }),
    platformUsersUrl: readServiceUrl(env, 'platform-users'),
  };
}
