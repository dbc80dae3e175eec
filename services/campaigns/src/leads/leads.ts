// The LeadsService: leads of a campaign, one at a time (a bad, suppressed or repeated number is
// refused) or a bulk import (each row gets its outcome; the suppression list is asked once for all
// rows), listed by campaign, status or segment, and removed (kept, with their history, as `removed`).
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import { normalisePage, validate } from '@voice/runtime/validation';
import type { AddLeadRequest, AddLeadsRequest, LeadsService, ListLeadsRequest, RemoveLeadRequest } from '@voice/proto/voice/campaigns/v1/campaigns';
import { addLeadBodySchema, addLeadsBodySchema, leadStatuses, type LeadRowOutcome, type LeadStatus } from '@voice/contracts/campaigns';
import { parseE164 } from '@voice/contracts/telephony';
import type { CampaignsDeps } from '../deps.js';
import { enqueueAddedLeads } from '../dialer/enqueue-leads.js';
import { completeIfDone } from '../dialer/running-campaign.js';
import { storedFilter } from '../domain/segment-filter.js';
import { loadCampaign, loadSegment } from '../lookups.js';
import { presentLead } from '../presenter.js';
import type { LeadRecord } from '../store/store.js';
import { leadBody } from './lead-input.js';
import { newLead } from './new-lead.js';

interface RowResult {
  index: number;
  outcome: LeadRowOutcome;
  leadId: string;
  phone: string;
}

export class Leads implements ServiceImpl<typeof LeadsService> {
  constructor(private readonly deps: CampaignsDeps) {}

  async addLead(request: AddLeadRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const campaign = await loadCampaign(this.deps.store, caller, request.campaignId);
    const input = validate(addLeadBodySchema, leadBody(request.lead));
    if (!input.ok) throw invalidRequest(input.issues);
    const phone = parseE164(input.value.phone)?.number;
    if (!phone) throw invalidRequest([{ field: 'phone', issue: 'must be a valid phone number in international format with a leading +' }]);
    if ((await this.deps.peers.suppressedAmong(caller, [phone])).has(phone)) {
      throw serviceError('destination_forbidden', "the number is on this workspace's suppression list");
    }
    const lead = newLead(caller.workspaceId, campaign.id, { ...input.value, phone }, this.deps.now().toISOString());
    const [outcome] = await this.deps.store.insertLeads([lead]);
    if (outcome?.kind === 'no_campaign') throw notFound('campaign');
    if (outcome?.kind === 'duplicate') throw serviceError('conflict', `${phone} is already a lead of this campaign (${outcome.leadId})`);
    // After the commit; a job lost here is enqueued by the dialer's recovery.
    await enqueueAddedLeads(this.deps.store, this.deps.dialQueue, caller.workspaceId, campaign.id, [lead]);
    return { lead: presentLead(lead) };
  }

  async addLeads(request: AddLeadsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const campaign = await loadCampaign(this.deps.store, caller, request.campaignId);
    const input = validate(addLeadsBodySchema, { leads: request.leads.map(leadBody) });
    if (!input.ok) throw invalidRequest(input.issues);
    const at = this.deps.now().toISOString();
    const results: RowResult[] = [];
    const candidates: { index: number; lead: LeadRecord }[] = [];
    input.value.leads.forEach((row, index) => {
      const phone = parseE164(row.phone)?.number;
      if (!phone) results[index] = { index, outcome: 'invalid_number', leadId: '', phone: row.phone };
      else candidates.push({ index, lead: newLead(caller.workspaceId, campaign.id, { ...row, phone }, at) });
    });
    const suppressed = await this.deps.peers.suppressedAmong(caller, [...new Set(candidates.map(({ lead }) => lead.phone))]);
    const allowed = candidates.filter(({ index, lead }) => {
      if (!suppressed.has(lead.phone)) return true;
      results[index] = { index, outcome: 'suppressed', leadId: '', phone: lead.phone };
      return false;
    });
    const outcomes = await this.deps.store.insertLeads(allowed.map(({ lead }) => lead));
    // The campaign was deleted during the import: nothing of it was kept.
    if (outcomes.some((outcome) => outcome.kind === 'no_campaign')) throw notFound('campaign');
    allowed.forEach(({ index, lead }, i) => {
      const outcome = outcomes[i]!;
      if (outcome.kind === 'no_campaign') return;
      results[index] = { index, outcome: outcome.kind, leadId: outcome.kind === 'created' ? lead.id : outcome.leadId, phone: lead.phone };
    });
    await enqueueAddedLeads(this.deps.store, this.deps.dialQueue, caller.workspaceId, campaign.id, allowed.filter((_, i) => outcomes[i]!.kind === 'created').map(({ lead }) => lead));
    return { results };
  }

  async listLeads(request: ListLeadsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    if (request.status && !(leadStatuses as readonly string[]).includes(request.status)) {
      throw invalidRequest([{ field: 'status', issue: `must be one of ${leadStatuses.join(', ')}` }]);
    }
    // A campaign or segment named in a filter must exist: an empty list would hide a typo.
    const campaign = request.campaignId ? await loadCampaign(this.deps.store, caller, request.campaignId) : undefined;
    const segment = request.segmentId ? await loadSegment(this.deps.store, caller, request.segmentId) : undefined;
    const { leads, total } = await this.deps.store.listLeads(
      caller.workspaceId,
      { campaignId: campaign?.id, status: (request.status || undefined) as LeadStatus | undefined, segment: segment && storedFilter(segment.filter) },
      normalisePage(request.page),
    );
    return { leads: leads.map(presentLead), total };
  }

  async removeLead(request: RemoveLeadRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const campaign = request.campaignId ? await loadCampaign(this.deps.store, caller, request.campaignId) : undefined;
    const removed = isUuid(request.id) ? await this.deps.store.removeLead(caller.workspaceId, request.id, campaign?.id, this.deps.now().toISOString()) : undefined;
    if (!removed) throw notFound('lead');
    // The last lead left to call of a running campaign is gone: nothing will end the campaign but this.
    // The dialer's outbox relay publishes the completion on its next pass.
    await completeIfDone({ store: this.deps.store, now: () => this.deps.now(), wakeRelay: () => {} }, caller.workspaceId, removed.campaignId);
    return {};
  }
}
