// Telephony's pruning job: usage events already published, Idempotency-Key claims past the window
// they bind, and caller IDs that failed or whose code expired unused. Messages, numbers and the rest stay.
import type { RetentionConfig } from '@voice/runtime/config';
import { pruningJob, publishedEventsStep, type PeriodicJob } from '@voice/runtime/jobs';
import type { CallerIdStore, OutboxStore, SendStore } from './store/store.js';

export const telephonyRetentionJob = (store: OutboxStore & SendStore & CallerIdStore, retention: RetentionConfig): PeriodicJob =>
  pruningJob({
    service: 'telephony',
    periodMs: retention.periodMs,
    steps: [
      publishedEventsStep(store.outbox, retention.publishedEventsMs),
      { kind: 'idempotency_claims', retentionMs: retention.idempotencyMs, prune: (before, limit) => store.pruneSendClaims(before, limit) },
      { kind: 'unverified_caller_ids', retentionMs: retention.unverifiedCallerIdsMs, prune: (before, limit) => store.pruneUnverifiedCallerIds(before, limit) },
    ],
  });
