// Telephony's pruning job: usage events already published, Idempotency-Key claims past the window
// they bind, delivery reports kept for a message that was never recorded, and caller IDs that failed or whose code expired unused. Messages, numbers and the rest stay.
import type { RetentionConfig } from '@voice/runtime/config';
import { pruningJob, publishedEventsStep, type PeriodicJob } from '@voice/runtime/jobs';
import type { CallerIdStore, DeliveryStore, OutboxStore, SendStore } from './store/store.js';

/** A report kept for a carrier id waits at most this long for its send's acceptance, which comes within seconds when it comes at all. */
const earlyDeliveryReportsMs = 24 * 60 * 60 * 1000;

export const telephonyRetentionJob = (store: OutboxStore & SendStore & DeliveryStore & CallerIdStore, retention: RetentionConfig): PeriodicJob =>
  pruningJob({
    service: 'telephony',
    periodMs: retention.periodMs,
    steps: [
      publishedEventsStep(store.outbox, retention.publishedEventsMs),
      { kind: 'idempotency_claims', retentionMs: retention.idempotencyMs, prune: (before, limit) => store.pruneSendClaims(before, limit) },
      { kind: 'early_delivery_reports', retentionMs: earlyDeliveryReportsMs, prune: (before, limit) => store.pruneEarlyReports(before, limit) },
      { kind: 'unverified_caller_ids', retentionMs: retention.unverifiedCallerIdsMs, prune: (before, limit) => store.pruneUnverifiedCallerIds(before, limit) },
    ],
  });
