// Records to the proto messages every caller sees: times as Timestamps, settings and filters as the
// Structs the public API names them by.
import { create, type JsonObject } from '@bufbuild/protobuf';
import { toTimestamp } from '@voice/runtime/time';
import { CampaignSchema, LeadSchema, SegmentSchema, type Campaign, type Lead, type Segment } from '@voice/proto/voice/campaigns/v1/campaigns';
import { emptyLeadCounts, type CampaignRecord, type LeadCounts, type LeadRecord, type SegmentRecord } from './store/store.js';

const optionalTime = (at: string | null) => (at ? toTimestamp(at) : undefined);

export const presentCampaign = (record: CampaignRecord, counts: LeadCounts = emptyLeadCounts()): Campaign =>
  create(CampaignSchema, {
    id: record.id,
    status: record.status,
    pausedReason: record.pausedReason ?? '',
    settings: record.settings as unknown as JsonObject,
    revision: record.revision,
    leads: {
      total: counts.total,
      pending: counts.pending,
      calling: counts.calling,
      completed: counts.completed,
      failed: counts.failed,
      retryScheduled: counts.retry_scheduled,
      doNotCall: counts.do_not_call,
      removed: counts.removed,
    },
    createdAt: toTimestamp(record.createdAt),
    updatedAt: toTimestamp(record.updatedAt),
    startedAt: optionalTime(record.startedAt),
    stoppedAt: optionalTime(record.stoppedAt),
    nextRunAt: optionalTime(record.nextRunAt),
  });

export const presentLead = (record: LeadRecord): Lead =>
  create(LeadSchema, {
    id: record.id,
    campaignId: record.campaignId,
    phone: record.phone,
    name: record.name,
    variables: record.variables,
    timeZone: record.timeZone ?? '',
    timeZoneSource: record.timeZoneSource ?? '',
    status: record.status,
    attempts: record.attempts,
    callIds: record.callIds,
    createdAt: toTimestamp(record.createdAt),
    updatedAt: toTimestamp(record.updatedAt),
  });

export const presentSegment = (record: SegmentRecord): Segment =>
  create(SegmentSchema, {
    id: record.id,
    name: record.name,
    description: record.description,
    filter: record.filter as JsonObject,
    revision: record.revision,
    createdAt: toTimestamp(record.createdAt),
    updatedAt: toTimestamp(record.updatedAt),
  });
