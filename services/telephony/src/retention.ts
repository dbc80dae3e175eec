// Telephony's pruning job: usage events already published and Idempotency-Key claims past the
// window they bind. Messages, numbers and the rest stay.
import type { RetentionConfig } from '@voice/runtime/config';
import { pruningJob, publishedEventsStep, type PeriodicJob } from '@voice/runtime/jobs';
import type { OutboxStore, SendStore } from './store/store.js';

export const telephonyRetentionJob = (store: OutboxStore & SendStore, retention: RetentionConfig): PeriodicJob =>
  pruningJob({
    service: 'telephony',
    periodMs: retention.periodMs,
    steps: [
      publishedEventsStep(store.outbox, retention.publishedEventsMs),
      { kind: 'idempotency_claims', retentionMs: retention.idempotencyMs, prune: (before, limit) => store.pruneSendClaims(before, limit) },
    ],
  });
