// Presenters of campaigns, leads, bulk-import results and segments: proto messages to the public JSON
// the contracts' answer schemas describe. Settings and filters come as the Structs the service
// validated with the same contract before it stored them.
import type { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import {
  campaignPausedReasons,
  campaignStatuses,
  leadRowOutcomes,
  leadStatuses,
  leadTimeZoneSources,
  type bulkLeadsResultSchema,
  type campaignSchema,
  type campaignStatsSchema,
  type CampaignSettings,
  type leadSchema,
  type segmentSchema,
  type SegmentFilter,
} from '@voice/contracts/campaigns';
import { presentCampaignCalls, presentLeadCounts } from '@voice/contracts/campaigns-presenters';
import { oneOf } from '@voice/contracts/responses';
import type { Campaign, Lead, LeadRowResult, Segment } from '@voice/proto/voice/campaigns/v1/campaigns';

/** A time the service always sets. */
const timeOf = (at: Parameters<typeof toIso>[0]): string => toIso(at) ?? '';

export const presentCampaign = (campaign: Campaign): z.infer<typeof campaignSchema> => {
  const settings = (campaign.settings ?? {}) as unknown as CampaignSettings;
  return {
    id: campaign.id,
    name: settings.name,
    status: oneOf(campaignStatuses, campaign.status),
    paused_reason: campaign.pausedReason ? oneOf(campaignPausedReasons, campaign.pausedReason) : null,
    assistant_id: settings.assistant_id,
    from_number_ids: settings.from_number_ids,
    segment_id: settings.segment_id ?? null,
    window: settings.window,
    pacing: settings.pacing,
    retry: settings.retry,
    schedule: settings.schedule ?? null,
    next_run_at: toIso(campaign.nextRunAt),
    progress: { leads: presentLeadCounts(campaign.leads), calls: campaign.calls ? presentCampaignCalls(campaign.calls) : null },
    revision: campaign.revision,
    started_at: toIso(campaign.startedAt),
    stopped_at: toIso(campaign.stoppedAt),
    created_at: timeOf(campaign.createdAt),
    updated_at: timeOf(campaign.updatedAt),
  };
};

/** A campaign's progress alone (GET /campaigns/{id}/stats), from GetCampaign's answer, which always counts its calls. */
export const presentCampaignStats = (campaign: Campaign): z.infer<typeof campaignStatsSchema> => ({
  campaign_id: campaign.id,
  status: oneOf(campaignStatuses, campaign.status),
  progress: { leads: presentLeadCounts(campaign.leads), calls: presentCampaignCalls(campaign.calls!) },
});

export const presentLead = (lead: Lead): z.infer<typeof leadSchema> => ({
  id: lead.id,
  campaign_id: lead.campaignId,
  phone: lead.phone,
  name: lead.name,
  variables: (lead.variables ?? {}) as Record<string, string | number | boolean>,
  time_zone: lead.timeZone || null,
  time_zone_source: lead.timeZoneSource ? oneOf(leadTimeZoneSources, lead.timeZoneSource) : null,
  status: oneOf(leadStatuses, lead.status),
  attempts: lead.attempts,
  call_ids: lead.callIds,
  created_at: timeOf(lead.createdAt),
  updated_at: timeOf(lead.updatedAt),
});

export function presentBulkResults(results: readonly LeadRowResult[]): z.infer<typeof bulkLeadsResultSchema> {
  const summary = Object.fromEntries(leadRowOutcomes.map((outcome) => [outcome, 0])) as Record<(typeof leadRowOutcomes)[number], number>;
  const rows = results.map((row) => {
    const outcome = oneOf(leadRowOutcomes, row.outcome);
    summary[outcome] += 1;
    return { index: row.index, outcome, lead_id: row.leadId || null, phone: row.phone };
  });
  return { summary, results: rows };
}

export const presentSegment = (segment: Segment): z.infer<typeof segmentSchema> => ({
  id: segment.id,
  name: segment.name,
  description: segment.description,
  filter: (segment.filter ?? {}) as SegmentFilter,
  revision: segment.revision,
  created_at: timeOf(segment.createdAt),
  updated_at: timeOf(segment.updatedAt),
});
