// Starts the webhooks delivery worker: the store, the consumers of the source events (telephony's
// and the calls and campaigns services' events, billing's wallet changes) that fan them out to endpoints, the periodic jobs (sending due
// deliveries, pruning the delivery log) on KV leases, and a server answering only health checks; its
// own process in the distributed mode (src/delivery/main.ts), a part of the platform's process when
// embedded. Stops in reverse.
import type { Env } from '@voice/runtime/config';
import { SecretBox } from '@voice/runtime/crypto';
import { egressPolicy } from '@voice/runtime/egress';
import { callStream, campaignStream, durableNames, openConfiguredEventStream, telephonyEventStream, type EventStream } from '@voice/runtime/events';
import { createClient } from '@connectrpc/connect';
import { CallerSigner } from '@voice/runtime/caller';
import { openInternalChannel, type InProcessServices } from '@voice/runtime/internal';
import { NoticeService } from '@voice/proto/voice/platform/v1/notices';
import { startPeriodicJobs } from '@voice/runtime/jobs';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { readListenAddress } from '@voice/runtime/config';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { readWebhooksConfig } from '../config.js';
import { EndpointSecrets } from '../endpoints/secrets.js';
import { webhooksRetentionJob } from '../retention.js';
import { openWebhooksStore } from '../store/open.js';
import { deliveryDispatchJob } from './dispatcher.js';
import { OwnerNotices } from './owner-notices.js';
import { consumeWalletChanges } from '../sources/balance-low.js';
import { FanOut } from '../sources/fan-out.js';
import { consumeSource } from '../sources/source-consumer.js';
import { callWebhookEvent, campaignWebhookEvent, telephonyWebhookEvent } from '../sources/sources.js';

export interface WebhookDeliveryOptions {
  logger?: Logger;
  /** The time attempts are made at and retries scheduled by; the system clock unless a test moves it. */
  clock?: () => Date;
  /** The process's in-process services (single-process mode): the health service is registered there. */
  local?: InProcessServices;
  /** The process's event stream in the single-process mode (left open on close); otherwise one is opened from NATS_URL. */
  events?: EventStream;
}

export async function startWebhookDelivery(env: Env, options: WebhookDeliveryOptions = {}): Promise<StartedService> {
  const config = readWebhooksConfig(env);
  const logger = options.logger ?? createLogger({ service: 'webhooks-delivery', level: config.common.logLevel });
  return startService(async (onClose) => {
    const store = await openWebhooksStore(config.common);
    onClose(() => store.close());
    let events = options.events;
    if (!events) {
      const own = await openConfiguredEventStream(config.common, 'webhooks-delivery', logger);
      onClose(() => own.close());
      events = own;
    }
    const clock = options.clock ?? (() => new Date());
    const signer = new CallerSigner(config.common.internalSecret);
    const platformUsers = openInternalChannel({ name: 'platform-users', url: config.platformUsersUrl }, options.local);
    onClose(() => platformUsers.close());
    const fanOut = new FanOut(store);
    for (const source of [
      { stream: telephonyEventStream, durable: durableNames.webhooksTelephony, decode: telephonyWebhookEvent },
      { stream: callStream, durable: durableNames.webhooksCalls, decode: callWebhookEvent },
      { stream: campaignStream, durable: durableNames.webhooksCampaigns, decode: campaignWebhookEvent },
    ]) {
      const consumption = await consumeSource(events, source, { fanOut, clock, logger: logger.child({ component: 'source-events', stream: source.stream.name }) });
      onClose(() => consumption.stop());
    }
    const wallets = await consumeWalletChanges(events, { store, fanOut, clock, logger: logger.child({ component: 'wallet-changes' }) });
    onClose(() => wallets.stop());
    const dispatch = deliveryDispatchJob({
      store,
      secrets: new EndpointSecrets(new SecretBox(config.encryptionKey)),
      send: { policy: egressPolicy({ allowPrivate: config.egressAllowPrivate }), timeoutMs: config.deliveryTimeoutMs, logger },
      notices: new OwnerNotices({ store, notices: createClient(NoticeService, platformUsers.transport), signer, logger: logger.child({ component: 'owner-notices' }) }),
      logger: logger.child({ component: 'dispatch' }),
      periodMs: config.dispatchIntervalMs,
    });
    const jobs = await startPeriodicJobs(config.common, 'webhooks-delivery', { logger, clock: options.clock }, [
      dispatch,
      webhooksRetentionJob(store, config.common.retention),
    ]);
    onClose(() => jobs.stop());
    return startConnectServer({
      ...serviceServerOptions('webhooks-delivery', { ...config, ...readListenAddress(env, 'webhooks-delivery') }, { logger, local: options.local, signer }),
      serviceNames: [],
      routes: () => {},
    });
  });
}
