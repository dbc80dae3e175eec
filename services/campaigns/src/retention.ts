// The campaigns service's pruning job: outbox events already published. Campaigns and leads stay.
import type { RetentionConfig } from '@voice/runtime/config';
import { pruningJob, publishedEventsStep, type PeriodicJob } from '@voice/runtime/jobs';
import type { CampaignStore } from './store/store.js';

export const campaignsRetentionJob = (store: CampaignStore, retention: RetentionConfig): PeriodicJob =>
  pruningJob({ service: 'campaigns', periodMs: retention.periodMs, steps: [publishedEventsStep(store.outbox, retention.publishedEventsMs)] });
