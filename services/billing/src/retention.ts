// Billing's pruning job: wallet events already published, usage-event ids and settled holds once
// no redelivery of their event can come any more. Wallets, the ledger and transfers stay.
import type { RetentionConfig } from '@voice/runtime/config';
import { pruningJob, publishedEventsStep, type PeriodicJob } from '@voice/runtime/jobs';
import type { OutboxStore, PrunableBillingRecords } from './store/store.js';

export const billingRetentionJob = (store: PrunableBillingRecords & OutboxStore, retention: RetentionConfig): PeriodicJob =>
  pruningJob({
    service: 'billing',
    periodMs: retention.periodMs,
    steps: [
      publishedEventsStep(store.outbox, retention.publishedEventsMs),
      { kind: 'processed_events', retentionMs: retention.deduplicationMs, prune: (before, limit) => store.pruneProcessedEvents(before, limit) },
      { kind: 'settled_holds', retentionMs: retention.deduplicationMs, prune: (before, limit) => store.pruneSettledHolds(before, limit) },
    ],
  });
