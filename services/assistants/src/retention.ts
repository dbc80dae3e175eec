// The assistants service's pruning job: Idempotency-Key claims of assistant creations past the window they bind.
import type { RetentionConfig } from '@voice/runtime/config';
import { pruningJob, type PeriodicJob } from '@voice/runtime/jobs';
import type { AssistantStore } from './store/store.js';

export const assistantsRetentionJob = (store: Pick<AssistantStore, 'pruneIdempotencyClaims'>, retention: RetentionConfig): PeriodicJob =>
  pruningJob({
    service: 'assistants',
    periodMs: retention.periodMs,
    steps: [{ kind: 'idempotency_claims', retentionMs: retention.idempotencyMs, prune: (before, limit) => store.pruneIdempotencyClaims(before, limit) }],
  });
