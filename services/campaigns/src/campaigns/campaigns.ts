// The CampaignsService: campaigns of the caller's workspace, their settings checked against the
// workspace's assistants, numbers and segments, revision-checked updates (a schedule set or removed
// moves a draft to scheduled and back, and its next time with it; a running campaign's new window
// enqueues its waiting leads again), and start and stop with every refusal of the state machine. The workspace always comes from the signed caller.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf, type WorkspaceCaller } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError, type FieldIssue } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { unknownAssistantIssue } from '@voice/runtime/internal';
import { retryOnConflict } from '@voice/runtime/retry-on-conflict';
import { normalisePage, validate } from '@voice/runtime/validation';
import type {
  CampaignsService,
  CreateCampaignRequest,
  DeleteCampaignRequest,
  GetCampaignRequest,
  ListCampaignsRequest,
  StartCampaignRequest,
  StopCampaignRequest,
  UpdateCampaignRequest,
} from '@voice/proto/voice/campaigns/v1/campaigns';
import { campaignStatuses, createCampaignBodySchema, updateCampaignBodySchema, type CampaignSettings, type CampaignStatus } from '@voice/contracts/campaigns';
import type { CampaignsDeps } from '../deps.js';
import { nextRunAt } from '../domain/schedule.js';
import { dueTimesChanged, newSettings, unsafeWhileRunning } from '../domain/settings.js';
import { enqueueCallableLeads } from '../dialer/enqueue-leads.js';
import { statusWithSchedule, stopRefusal } from '../domain/states.js';
import { loadCampaign, revisionConflict } from '../lookups.js';
import { presentCampaign } from '../presenter.js';
import type { CampaignChanges, CampaignRecord } from '../store/store.js';
import { startCampaign } from './start-campaign.js';

export class Campaigns implements ServiceImpl<typeof CampaignsService> {
  constructor(private readonly deps: CampaignsDeps) {}

  async createCampaign(request: CreateCampaignRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const input = validate(createCampaignBodySchema, request.settings ?? {});
    if (!input.ok) throw invalidRequest(input.issues);
    const settings = newSettings(input.value);
    await this.checkReferences(caller, settings, Object.keys(input.value));
    const now = this.deps.now();
    const at = now.toISOString();
    const campaign: CampaignRecord = {
      id: newId(),
      workspaceId: caller.workspaceId,
      status: statusWithSchedule('draft', settings.schedule !== null),
      pausedReason: null,
      settings,
      revision: 1,
      startedAt: null,
      stoppedAt: null,
      nextRunAt: nextRunAt(settings.schedule, now),
      createdAt: at,
      updatedAt: at,
    };
    await this.deps.store.insertCampaign(campaign);
    return { campaign: presentCampaign(campaign) };
  }

  async getCampaign(request: GetCampaignRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const record = await loadCampaign(this.deps.store, caller, request.id);
    // Its leads and its calls are counted apart (this store, the calls service): both asked at once.
    const [campaign, calls] = await Promise.all([this.present(caller, record), this.deps.campaignCalls.summarize(caller, record.id)]);
    campaign.calls = calls;
    return { campaign };
  }

  async listCampaigns(request: ListCampaignsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    if (request.status && !(campaignStatuses as readonly string[]).includes(request.status)) {
      throw invalidRequest([{ field: 'status', issue: `must be one of ${campaignStatuses.join(', ')}` }]);
    }
    const status = (request.status || undefined) as CampaignStatus | undefined;
    const { campaigns, total } = await this.deps.store.listCampaigns(caller.workspaceId, { status }, normalisePage(request.page));
    const counts = await this.deps.store.countLeads(caller.workspaceId, campaigns.map((campaign) => campaign.id));
    return { campaigns: campaigns.map((campaign) => presentCampaign(campaign, counts.get(campaign.id))), total };
  }

  async updateCampaign(request: UpdateCampaignRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const input = validate(updateCampaignBodySchema, { ...(request.changes ?? {}), expected_revision: request.expectedRevision || undefined });
    if (!input.ok) throw invalidRequest(input.issues);
    const { expected_revision: expectedRevision, ...changes } = input.value;
    const current = await loadCampaign(this.deps.store, caller, request.id);
    if (expectedRevision !== current.revision) throw serviceError('revision_conflict', revisionConflict('campaign', current.revision));
    if (current.status === 'running') {
      const refused = unsafeWhileRunning(changes);
      if (refused.length > 0) {
        throw serviceError('conflict', `a running campaign takes changes of name, pacing and window only; stop it to change ${refused.join(', ')}`);
      }
    }
    const settings: CampaignSettings = { ...current.settings, ...changes };
    await this.checkReferences(caller, settings, Object.keys(changes));
    const now = this.deps.now();
    const update: CampaignChanges = { settings };
    if (changes.schedule !== undefined) {
      update.status = statusWithSchedule(current.status, settings.schedule !== null);
      update.nextRunAt = nextRunAt(settings.schedule, now);
    }
    const outcome = await this.deps.store.updateCampaign(caller.workspaceId, current.id, expectedRevision, update, now.toISOString());
    switch (outcome.kind) {
      case 'updated':
        // After the commit: jobs put off until the old window opens would call no earlier (one lost here is enqueued by the dialer's recovery, which sweeps a run again under a new window).
        if (outcome.record.status === 'running' && dueTimesChanged(current.settings, settings)) await enqueueCallableLeads(this.deps.store, this.deps.dialQueue, outcome.record);
        return { campaign: await this.present(caller, outcome.record) };
      case 'not_found':
        throw notFound('campaign');
      case 'revision_conflict':
        throw serviceError('revision_conflict', revisionConflict('campaign'));
    }
  }

  async deleteCampaign(request: DeleteCampaignRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const campaign = await loadCampaign(this.deps.store, caller, request.id);
    const outcome = await this.deps.store.deleteCampaign(caller.workspaceId, campaign.id);
    if (outcome === 'not_found') throw notFound('campaign');
    if (outcome === 'running') throw serviceError('conflict', 'the campaign is running; stop it before deleting it');
    return {};
  }

  async startCampaign(request: StartCampaignRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const campaign = await loadCampaign(this.deps.store, caller, request.id);
    const started = await startCampaign(this.deps, caller.workspaceId, campaign.id);
    return { campaign: presentCampaign(started.campaign, started.counts) };
  }

  async stopCampaign(request: StopCampaignRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const stopped = await retryOnConflict(`stop of campaign ${request.id}`, async () => {
      const campaign = await loadCampaign(this.deps.store, caller, request.id);
      const refusal = stopRefusal(campaign.status);
      if (refusal) throw serviceError('conflict', refusal);
      const now = this.deps.now().toISOString();
      const outcome = await this.deps.store.updateCampaign(caller.workspaceId, campaign.id, campaign.revision, { status: 'stopped', stoppedAt: now }, now);
      if (outcome.kind === 'not_found') throw notFound('campaign');
      return outcome.kind === 'updated' ? { done: outcome.record } : undefined;
    });
    return { campaign: await this.present(caller, stopped) };
  }

  private async present(caller: WorkspaceCaller, campaign: CampaignRecord) {
    const counts = await this.deps.store.countLeads(caller.workspaceId, [campaign.id]);
    return presentCampaign(campaign, counts.get(campaign.id));
  }

  /** The assistant, numbers and segment the settings name must be the workspace's; only the `sent` fields are asked about. */
  private async checkReferences(caller: WorkspaceCaller, settings: CampaignSettings, sent: readonly string[]): Promise<void> {
    const issues: FieldIssue[] = [];
    const [assistantExists, numbers, segment] = await Promise.all([
      sent.includes('assistant_id') ? this.deps.peers.assistantExists(caller, settings.assistant_id) : true,
      sent.includes('from_number_ids') ? this.deps.peers.callingNumbers(caller, settings.from_number_ids) : new Map<string, string>(),
      sent.includes('segment_id') && settings.segment_id ? this.deps.store.getSegment(caller.workspaceId, settings.segment_id) : null,
    ]);
    if (!assistantExists) issues.push({ field: 'assistant_id', issue: unknownAssistantIssue });
    settings.from_number_ids.forEach((id, index) => {
      const number = numbers.get(id);
      if (number === 'missing') issues.push({ field: `from_number_ids.${index}`, issue: 'is not a phone number of this workspace' });
      if (number === 'no_voice') issues.push({ field: `from_number_ids.${index}`, issue: 'is a number that cannot place voice calls' });
    });
    if (segment === undefined) issues.push({ field: 'segment_id', issue: 'is not a segment of this workspace' });
    if (issues.length > 0) throw invalidRequest(issues);
  }
}
