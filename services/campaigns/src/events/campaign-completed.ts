// The CampaignCompleted event the campaigns dialer publishes from its outbox (campaigns.campaigns.completed)
// when a running campaign has no lead left to call. Its id is derived from the campaign and the run it
// ends: a completion written twice (or relayed twice) is one event to its consumers.
import { create, toBinary } from '@bufbuild/protobuf';
import { campaignCompletedSubject, type NewOutboxEvent } from '@voice/runtime/events';
import { derivedId } from '@voice/runtime/ids';
import { toTimestamp } from '@voice/runtime/time';
import { CampaignCompletedSchema } from '@voice/proto/voice/campaigns/v1/events';
import { presentCampaign } from '../presenter.js';
import type { CampaignRecord, LeadCounts } from '../store/store.js';

export function campaignCompletedEvent(completed: CampaignRecord, counts: LeadCounts, at: string): NewOutboxEvent {
  const event = create(CampaignCompletedSchema, {
    eventId: derivedId('campaign.completed', completed.id, completed.startedAt ?? ''),
    workspaceId: completed.workspaceId,
    campaign: presentCampaign(completed, counts),
    occurredAt: toTimestamp(at),
  });
  return { id: event.eventId, subject: campaignCompletedSubject, payload: toBinary(CampaignCompletedSchema, event) };
}
