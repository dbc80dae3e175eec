// Telephony's pruning job: usage events already published and Idempotency-Key claims past the
// window they bind. Messages, numbers and the rest stay.
import { pruningJob, publishedEventsStep, type PeriodicJob, type RetentionConfig } from '@voice/runtime';
import type { TelephonyStore } from './store/store.js';

export const telephonyRetentionJob = (store: TelephonyStore, retention: RetentionConfig): PeriodicJob =>
  pruningJob({
    service: 'telephony',
    periodMs: retention.periodMs,
    steps: [
      publishedEventsStep(store.outbox, retention.publishedEventsMs),
      { kind: 'idempotency_claims', retentionMs: retention.idempotencyMs, prune: (before, limit) => store.pruneSendClaims(before, limit) },
    ],
  });
