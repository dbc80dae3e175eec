// The calls service's pruning job: outbox events already published and Idempotency-Key claims past
// the window they bind. Calls and their reports stay.
import type { RetentionConfig } from '@voice/runtime/config';
import { pruningJob, publishedEventsStep, type PeriodicJob } from '@voice/runtime/jobs';
import type { CallStore } from './store/store.js';

export const callsRetentionJob = (store: CallStore, retention: RetentionConfig): PeriodicJob =>
  pruningJob({
    service: 'calls',
    periodMs: retention.periodMs,
    steps: [
      publishedEventsStep(store.outbox, retention.publishedEventsMs),
      { kind: 'idempotency_claims', retentionMs: retention.idempotencyMs, prune: (before, limit) => store.pruneIdempotencyClaims(before, limit) },
    ],
  });
