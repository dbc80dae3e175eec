// A campaign's progress from the services' messages to the public JSON: its leads counted by status
// (what GET /campaigns/{id} shows as progress.leads and the campaign.completed webhook event carries,
// written once for both) and its calls as the calls service counts them (progress.calls).
import type { z } from 'zod';
import { formatCredits, formatMinutes } from '@voice/runtime/amounts';
import type { CampaignCallSummary } from '@voice/proto/voice/calls/v1/calls';
import type { LeadCounts } from '@voice/proto/voice/campaigns/v1/campaigns';
import type { campaignCallsSchema, leadCountsSchema } from './campaigns.js';

export const presentLeadCounts = (leads: LeadCounts | undefined): z.infer<typeof leadCountsSchema> => ({
  total: leads?.total ?? 0,
  pending: leads?.pending ?? 0,
  calling: leads?.calling ?? 0,
  completed: leads?.completed ?? 0,
  failed: leads?.failed ?? 0,
  retry_scheduled: leads?.retryScheduled ?? 0,
  do_not_call: leads?.doNotCall ?? 0,
  removed: leads?.removed ?? 0,
});

export const presentCampaignCalls = (calls: CampaignCallSummary): z.infer<typeof campaignCallsSchema> => ({
  placed: calls.placed,
  connected: calls.connected,
  active: calls.active,
  completed: calls.completed,
  voicemail: calls.voicemail,
  no_answer: calls.noAnswer,
  busy: calls.busy,
  failed: calls.failed,
  canceled: calls.canceled,
  minutes: formatMinutes(Number(calls.billedMinuteUnits)),
  minutes_charged: formatMinutes(Number(calls.minuteUnitsCharged)),
  credits_charged: formatCredits(Number(calls.creditUnitsCharged)),
});
