// A campaign's leads counted by status, from the campaigns service's message to the public JSON: what
// GET /campaigns/{id} shows as progress.leads and what the campaign.completed webhook event carries,
// written once for both.
import type { z } from 'zod';
import type { LeadCounts } from '@voice/proto/voice/campaigns/v1/campaigns';
import type { leadCountsSchema } from './campaigns.js';

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
