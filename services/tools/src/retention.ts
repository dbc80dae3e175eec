// The tools service's pruning job: Idempotency-Key claims of tool creations past the window they bind.
import type { RetentionConfig } from '@voice/runtime/config';
import { pruningJob, type PeriodicJob } from '@voice/runtime/jobs';
import type { ToolStore } from './store/store.js';

export const toolsRetentionJob = (store: ToolStore, retention: RetentionConfig): PeriodicJob =>
  pruningJob({
    service: 'tools',
    periodMs: retention.periodMs,
    steps: [{ kind: 'idempotency_claims', retentionMs: retention.idempotencyMs, prune: (before, limit) => store.pruneIdempotencyClaims(before, limit) }],
  });
