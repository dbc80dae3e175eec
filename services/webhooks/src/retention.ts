// The webhooks pruning job: events (with their settled deliveries) past the delivery log's retention.
import { pruningJob, type PeriodicJob } from '@voice/runtime/jobs';
import type { RetentionConfig } from '@voice/runtime/config';
import type { DeliveryStore } from './store/store.js';

/** How long the delivery log keeps a settled event: longer than the three days of retries, as Stripe keeps 30 days. */
const deliveryLogMs = 30 * 24 * 3600_000;

export const webhooksRetentionJob = (store: DeliveryStore, retention: RetentionConfig): PeriodicJob =>
  pruningJob({
    service: 'webhooks',
    periodMs: retention.periodMs,
    steps: [{ kind: 'webhook_events', retentionMs: deliveryLogMs, prune: (before, limit) => store.pruneEvents(before, limit) }],
  });
