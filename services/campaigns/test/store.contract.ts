// The behaviour every CampaignStore must have, written once and run against each adapter.
import { newId } from '@voice/runtime/ids';
import type { CampaignRecord, CampaignStore, LeadRecord, SegmentRecord } from '../src/store/store.js';
import type { OpenStore } from '../../runtime/test/store-contract.js';
import { callbackStoreContract } from './callbacks.contract.js';
import { campaignScheduleContract } from './store-schedules.contract.js';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const tick = (): string => new Date((clock += 1000)).toISOString();
let phones = 0;
const freshPhone = (): string => `+1415555${String((phones += 1) % 10_000).padStart(4, '0')}`;
const all = { limit: 200, offset: 0 };

export function campaignRecord(workspaceId: string, overrides: Partial<CampaignRecord> = {}): CampaignRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    status: 'draft',
    pausedReason: null,
    settings: {
      name: 'Renewals',
      assistant_id: newId(),
      from_number_ids: [newId(), newId()],
      segment_id: null,
      window: { days: ['mon', 'fri'], start: '09:00', end: '17:30', time_zone: 'Europe/Berlin' },
      pacing: { max_concurrent: 3, calls_per_minute: 20 },
      retry: { max_attempts: 2, delay_minutes: 30, on: ['busy', 'voicemail'] },
      schedule: null,
    },
    revision: 1,
    startedAt: null,
    stoppedAt: null,
    nextRunAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function leadRecord(campaign: CampaignRecord, overrides: Partial<LeadRecord> = {}): LeadRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId: campaign.workspaceId,
    campaignId: campaign.id,
    phone: freshPhone(),
    name: 'Ada',
    variables: { tier: 'gold', visits: 3, vip: true },
    timeZone: 'America/New_York',
    timeZoneSource: 'given',
    status: 'pending',
    attempts: 0,
    callIds: [],
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function segmentRecord(workspaceId: string, overrides: Partial<SegmentRecord> = {}): SegmentRecord {
  const at = tick();
  return { id: newId(), workspaceId, name: `segment ${newId().slice(0, 8)}`, description: '', filter: {}, revision: 1, createdAt: at, updatedAt: at, ...overrides };
}

export function campaignStoreContract(open: OpenStore<CampaignStore>): void {
  let store: CampaignStore;
  let workspace: string;
  let otherWorkspace: string;

  beforeEach(async () => {
    store = await open();
    workspace = newId();
    otherWorkspace = newId();
  });
  afterEach(async () => {
    await store.close();
  });

  callbackStoreContract(() => ({ store, workspace, otherWorkspace }));
  campaignScheduleContract(() => ({ store, workspace, otherWorkspace }));

  describe('campaigns', () => {
    test('a campaign reads back whole, only in its workspace, and lists newest first by status', async () => {
      const first = campaignRecord(workspace);
      const second = campaignRecord(workspace, { status: 'running', startedAt: tick() });
      for (const campaign of [first, second, campaignRecord(otherWorkspace)]) await store.insertCampaign(campaign);
      expect(await store.getCampaign(workspace, first.id)).toEqual(first);
      expect(await store.getCampaign(otherWorkspace, first.id)).toBeUndefined();
      expect(await store.listCampaigns(workspace, {}, all)).toEqual({ campaigns: [second, first], total: 2 });
      expect(await store.listCampaigns(workspace, { status: 'running' }, all)).toEqual({ campaigns: [second], total: 1 });
      expect(await store.listCampaigns(workspace, {}, { limit: 1, offset: 1 })).toEqual({ campaigns: [first], total: 2 });
    });

    test('updates are revision-checked and bump the revision; a missing campaign is not_found', async () => {
      const campaign = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      const settings = { ...campaign.settings, name: 'Renamed', segment_id: newId() };
      const now = tick();
      const updated = await store.updateCampaign(workspace, campaign.id, 1, { settings, status: 'running', startedAt: now }, now);
      expect(updated).toEqual({ kind: 'updated', record: { ...campaign, settings, status: 'running', startedAt: now, revision: 2, updatedAt: now } });
      expect(await store.updateCampaign(workspace, campaign.id, 1, { status: 'stopped' }, tick())).toEqual({ kind: 'revision_conflict' });
      expect(await store.updateCampaign(otherWorkspace, campaign.id, 2, { status: 'stopped' }, tick())).toEqual({ kind: 'not_found' });
      expect((await store.getCampaign(workspace, campaign.id))?.status).toBe('running');
    });

    test('a paused campaign keeps its reason; an update that names none keeps it, null clears it', async () => {
      const campaign = campaignRecord(workspace, { status: 'running', startedAt: tick() });
      await store.insertCampaign(campaign);
      await store.updateCampaign(workspace, campaign.id, 1, { status: 'paused', pausedReason: 'insufficient_funds' }, tick());
      expect(await store.getCampaign(workspace, campaign.id)).toMatchObject({ status: 'paused', pausedReason: 'insufficient_funds', revision: 2 });
      await store.updateCampaign(workspace, campaign.id, 2, { settings: { ...campaign.settings, name: 'Renamed' } }, tick());
      expect((await store.getCampaign(workspace, campaign.id))?.pausedReason).toBe('insufficient_funds');
      const resumed = await store.updateCampaign(workspace, campaign.id, 3, { status: 'running', pausedReason: null }, tick());
      expect(resumed).toMatchObject({ kind: 'updated', record: { status: 'running', pausedReason: null } });
      expect((await store.listCampaigns(workspace, { status: 'running' }, { limit: 10, offset: 0 })).campaigns.find((listed) => listed.id === campaign.id)?.pausedReason).toBeNull();
    });

    test('an update’s events enter the outbox with it, and only when it applies', async () => {
      const campaign = campaignRecord(workspace, { status: 'running', startedAt: tick() });
      await store.insertCampaign(campaign);
      const event = (label: string) => ({ id: newId(), subject: 'campaigns.campaigns.completed', payload: new TextEncoder().encode(label) });
      const refused = event('refused');
      expect(await store.updateCampaign(workspace, campaign.id, 7, { status: 'completed' }, tick(), [refused])).toEqual({ kind: 'revision_conflict' });
      expect(await store.updateCampaign(otherWorkspace, campaign.id, 1, { status: 'completed' }, tick(), [event('elsewhere')])).toEqual({ kind: 'not_found' });
      const completed = event('completed');
      const now = tick();
      expect((await store.updateCampaign(workspace, campaign.id, 1, { status: 'completed', stoppedAt: now }, now, [completed])).kind).toBe('updated');
      const pending = await store.outbox.pending(1000);
      expect(pending.map(({ id, subject, payload }) => ({ id, subject, payload: Buffer.from(payload).toString() }))).toEqual([{ id: completed.id, subject: completed.subject, payload: 'completed' }]);
      await store.outbox.markPublished([completed.id], now);
      expect(await store.outbox.pending(1000)).toEqual([]);
    });

    test('concurrent updates at one revision: exactly one applies', async () => {
      const campaign = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      const outcomes = await Promise.all(Array.from({ length: 5 }, (_, i) => store.updateCampaign(workspace, campaign.id, 1, { settings: { ...campaign.settings, name: `n${i}` } }, tick())));
      expect(outcomes.filter((outcome) => outcome.kind === 'updated')).toHaveLength(1);
      expect((await store.getCampaign(workspace, campaign.id))?.revision).toBe(2);
    });

    test('running campaigns of every workspace list oldest start first, paged', async () => {
      const before = await store.listRunningCampaigns({ limit: 10_000, offset: 0 });
      const first = campaignRecord(workspace, { status: 'running', startedAt: tick() });
      const second = campaignRecord(otherWorkspace, { status: 'running', startedAt: tick() });
      await store.insertCampaign(campaignRecord(workspace, { status: 'stopped', startedAt: tick() }));
      await store.insertCampaign(campaignRecord(workspace));
      await store.insertCampaign(second);
      await store.insertCampaign(first);
      const mine = (await store.listRunningCampaigns({ limit: 10_000, offset: 0 })).filter((campaign) => [first.id, second.id].includes(campaign.id));
      expect(mine).toEqual([first, second]);
      const all = await store.listRunningCampaigns({ limit: 10_000, offset: 0 });
      expect(all).toHaveLength(before.length + 2);
      expect(await store.listRunningCampaigns({ limit: 1, offset: all.length - 1 })).toEqual([all[all.length - 1]]);
    });

    test('delete takes the leads with it and refuses a running campaign', async () => {
      const campaign = campaignRecord(workspace);
      const running = campaignRecord(workspace, { status: 'running' });
      await store.insertCampaign(campaign);
      await store.insertCampaign(running);
      await store.insertLeads([leadRecord(campaign), leadRecord(running)]);
      expect(await store.deleteCampaign(workspace, running.id)).toBe('running');
      expect(await store.deleteCampaign(otherWorkspace, campaign.id)).toBe('not_found');
      expect(await store.deleteCampaign(workspace, campaign.id)).toBe('deleted');
      expect(await store.getCampaign(workspace, campaign.id)).toBeUndefined();
      expect((await store.listLeads(workspace, {}, all)).leads.map((lead) => lead.campaignId)).toEqual([running.id]);
    });
  });

  describe('leads', () => {
    test('leads read back whole; a number is in a campaign once, also within one insert, and another campaign may have it', async () => {
      const campaign = campaignRecord(workspace);
      const other = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      await store.insertCampaign(other);
      const lead = leadRecord(campaign, { callIds: [newId()], attempts: 1, timeZone: null });
      expect(await store.insertLeads([lead])).toEqual([{ kind: 'created' }]);
      const again = leadRecord(campaign, { phone: lead.phone });
      const fresh = leadRecord(campaign);
      const twin = leadRecord(campaign, { phone: fresh.phone });
      const elsewhere = leadRecord(other, { phone: lead.phone });
      expect(await store.insertLeads([again, fresh, twin, elsewhere])).toEqual([
        { kind: 'duplicate', leadId: lead.id },
        { kind: 'created' },
        { kind: 'duplicate', leadId: fresh.id },
        { kind: 'created' },
      ]);
      expect(await store.listLeads(workspace, { campaignId: campaign.id }, all)).toEqual({ leads: [fresh, lead], total: 2 });
      expect(await store.listLeads(otherWorkspace, {}, all)).toEqual({ leads: [], total: 0 });
    });

    test('leads of a campaign that does not exist (or is another workspace’s) are not kept', async () => {
      const campaign = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      const gone = campaignRecord(workspace);
      const kept = leadRecord(campaign);
      expect(await store.insertLeads([leadRecord(gone), kept, leadRecord({ ...campaign, workspaceId: otherWorkspace })])).toEqual([
        { kind: 'no_campaign' },
        { kind: 'created' },
        { kind: 'no_campaign' },
      ]);
      expect(await store.listLeads(workspace, {}, all)).toEqual({ leads: [kept], total: 1 });
      expect(await store.listLeads(otherWorkspace, {}, all)).toEqual({ leads: [], total: 0 });
      expect(await store.copySegmentLeads(workspace, gone.id, {}, newId, tick())).toBe(0);
    });

    test('a campaign deleted while leads are added keeps none of them', async () => {
      const campaign = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      const leads = Array.from({ length: 300 }, () => leadRecord(campaign));
      const [outcomes] = await Promise.all([store.insertLeads(leads), store.deleteCampaign(workspace, campaign.id)]);
      expect(await store.getCampaign(workspace, campaign.id)).toBeUndefined();
      expect((await store.listLeads(workspace, {}, all)).total).toBe(0);
      const kinds = new Set(outcomes.map((outcome) => outcome.kind));
      // Either the insert came first (and the delete took its leads) or the delete did.
      expect([...kinds].every((kind) => kind === 'created' || kind === 'no_campaign')).toBe(true);
    });

    test('a bulk insert of thousands of rows keeps every outcome in order', async () => {
      const campaign = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      const first = Array.from({ length: 1500 }, () => leadRecord(campaign));
      await store.insertLeads(first.slice(0, 700));
      const outcomes = await store.insertLeads(first);
      expect(outcomes.slice(0, 700).every((outcome, i) => outcome.kind === 'duplicate' && outcome.leadId === first[i]!.id)).toBe(true);
      expect(outcomes.slice(700).every((outcome) => outcome.kind === 'created')).toBe(true);
      expect((await store.listLeads(workspace, {}, { limit: 1, offset: 0 })).total).toBe(1500);
    });

    test('concurrent inserts of one number: one lead, the other insert a duplicate of it', async () => {
      const campaign = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      const phone = freshPhone();
      const outcomes = await Promise.all(Array.from({ length: 4 }, () => store.insertLeads([leadRecord(campaign, { phone })])));
      const created = outcomes.flat().filter((outcome) => outcome.kind === 'created');
      expect(created).toHaveLength(1);
      const [only] = (await store.listLeads(workspace, {}, all)).leads;
      expect(outcomes.flat().filter((outcome) => outcome.kind === 'duplicate')).toEqual(Array.from({ length: 3 }, () => ({ kind: 'duplicate', leadId: only!.id })));
    });

    test('removal marks the lead removed once, only within its workspace and campaign', async () => {
      const campaign = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      const lead = leadRecord(campaign);
      await store.insertLeads([lead]);
      expect(await store.removeLead(otherWorkspace, lead.id, undefined, tick())).toBeUndefined();
      expect(await store.removeLead(workspace, lead.id, newId(), tick())).toBeUndefined();
      const at = tick();
      expect(await store.removeLead(workspace, lead.id, campaign.id, at)).toEqual({ ...lead, status: 'removed', updatedAt: at });
      expect(await store.removeLead(workspace, lead.id, undefined, tick())).toEqual({ ...lead, status: 'removed', updatedAt: at });
      expect((await store.listLeads(workspace, { status: 'removed' }, all)).total).toBe(1);
      expect((await store.listLeads(workspace, { status: 'pending' }, all)).total).toBe(0);
    });

    test('a conditional transition applies only while the lead meets its condition, only in its workspace', async () => {
      const campaign = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      const lead = leadRecord(campaign);
      await store.insertLeads([lead]);
      const claim = { statuses: ['pending', 'retry_scheduled'] as const, attempts: 0 };
      expect(await store.transitionLead(otherWorkspace, lead.id, claim, { status: 'calling', attempts: 1 }, tick())).toBeUndefined();
      expect(await store.transitionLead(workspace, newId(), claim, { status: 'calling', attempts: 1 }, tick())).toBeUndefined();
      expect(await store.transitionLead(workspace, lead.id, { ...claim, attempts: 1 }, { status: 'calling', attempts: 2 }, tick())).toBeUndefined();
      const claimedAt = tick();
      const claimed = { ...lead, status: 'calling' as const, attempts: 1, updatedAt: claimedAt };
      expect(await store.transitionLead(workspace, lead.id, claim, { status: 'calling', attempts: 1 }, claimedAt)).toEqual(claimed);
      expect(await store.transitionLead(workspace, lead.id, claim, { status: 'calling', attempts: 1 }, tick())).toBeUndefined();
      expect(await store.getLead(workspace, lead.id)).toEqual(claimed);
      expect(await store.getLead(otherWorkspace, lead.id)).toBeUndefined();

      const calling = { statuses: ['calling'] as const, attempts: 1 };
      const recordedAt = tick();
      expect(await store.transitionLead(workspace, lead.id, calling, { status: 'calling', addCallId: 'call-1' }, recordedAt)).toEqual({ ...claimed, callIds: ['call-1'], updatedAt: recordedAt });
      // Recording the same call again leaves one copy of it.
      expect((await store.transitionLead(workspace, lead.id, calling, { status: 'calling', addCallId: 'call-1' }, tick()))?.callIds).toEqual(['call-1']);
      expect(await store.transitionLead(workspace, lead.id, { statuses: ['calling'], callId: 'call-2' }, { status: 'completed' }, tick())).toBeUndefined();
      const settled = await store.transitionLead(workspace, lead.id, { statuses: ['calling'], callId: 'call-1' }, { status: 'retry_scheduled' }, tick());
      expect(settled).toMatchObject({ status: 'retry_scheduled', attempts: 1, callIds: ['call-1'] });
      expect(await store.transitionLead(workspace, lead.id, { statuses: ['calling'], callId: 'call-1' }, { status: 'completed' }, tick())).toBeUndefined();
      expect((await store.listLeads(workspace, { status: 'retry_scheduled' }, all)).leads).toEqual([settled]);
    });

    test('concurrent claims of one lead for one attempt: exactly one wins', async () => {
      const campaign = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      const lead = leadRecord(campaign);
      await store.insertLeads([lead]);
      const claims = await Promise.all(
        Array.from({ length: 8 }, () => store.transitionLead(workspace, lead.id, { statuses: ['pending'], attempts: 0 }, { status: 'calling', attempts: 1 }, tick())),
      );
      expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
      expect(await store.getLead(workspace, lead.id)).toMatchObject({ status: 'calling', attempts: 1 });
    });

    test('counts are by campaign and status, zero for a campaign without leads', async () => {
      const campaign = campaignRecord(workspace);
      const empty = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      await store.insertCampaign(empty);
      await store.insertLeads([leadRecord(campaign), leadRecord(campaign), leadRecord(campaign, { status: 'failed' }), leadRecord(campaign, { status: 'retry_scheduled' })]);
      const counts = await store.countLeads(workspace, [campaign.id, empty.id]);
      expect(counts.get(campaign.id)).toEqual({ total: 4, pending: 2, calling: 0, completed: 0, failed: 1, retry_scheduled: 1, do_not_call: 0, removed: 0 });
      expect(counts.get(empty.id)?.total).toBe(0);
      expect((await store.countLeads(otherWorkspace, [campaign.id])).get(campaign.id)?.total).toBe(0);
    });
  });

  describe('segment filters', () => {
    let gold: LeadRecord;
    let silver: LeadRecord;
    let failed: LeadRecord;
    let campaign: CampaignRecord;
    let other: CampaignRecord;

    beforeEach(async () => {
      campaign = campaignRecord(workspace);
      other = campaignRecord(workspace);
      await store.insertCampaign(campaign);
      await store.insertCampaign(other);
      gold = leadRecord(campaign, { phone: '+14155550001', variables: { tier: 'gold', visits: 3, vip: true }, timeZone: 'America/Los_Angeles' });
      silver = leadRecord(campaign, { phone: '+442071838750', variables: { tier: 'silver', visits: 1, vip: false }, timeZone: 'Europe/London' });
      failed = leadRecord(other, { phone: '+14155550002', variables: { tier: 'gold', visits: '3' }, status: 'failed', timeZone: null });
      const elsewhere = campaignRecord(otherWorkspace);
      await store.insertCampaign(elsewhere);
      await store.insertLeads([gold, silver, failed, leadRecord(elsewhere, { phone: '+14155550003' })]);
    });

    const matching = async (segment: Parameters<CampaignStore['copySegmentLeads']>[2], status?: LeadRecord['status']) =>
      (await store.listLeads(workspace, { segment, status }, all)).leads.map((lead) => lead.phone).sort();

    test('each condition narrows; all must hold', async () => {
      expect(await matching({})).toEqual([gold.phone, failed.phone, silver.phone].sort());
      expect(await matching({ campaign_ids: [other.id] })).toEqual([failed.phone]);
      expect(await matching({ statuses: ['pending'] })).toEqual([gold.phone, silver.phone].sort());
      expect(await matching({ statuses: ['pending', 'failed'] }, 'failed')).toEqual([failed.phone]);
      expect(await matching({ phone_prefix: '+1415' })).toEqual([gold.phone, failed.phone].sort());
      expect(await matching({ time_zones: ['Europe/London', 'Asia/Tokyo'] })).toEqual([silver.phone]);
      expect(await matching({ variables: { tier: 'gold' } })).toEqual([gold.phone, failed.phone].sort());
      expect(await matching({ variables: { visits: 3 } })).toEqual([gold.phone]);
      expect(await matching({ variables: { vip: false } })).toEqual([silver.phone]);
      expect(await matching({ variables: { tier: 'gold', vip: true }, phone_prefix: '+1' })).toEqual([gold.phone]);
      expect(await matching({ created_after: silver.createdAt })).toEqual([failed.phone, silver.phone].sort());
      expect(await matching({ created_before: silver.createdAt })).toEqual([gold.phone]);
    });

    test('copying a segment into a campaign adds callable leads of other campaigns once per number, as new pending leads', async () => {
      const target = campaignRecord(workspace);
      await store.insertCampaign(target);
      await store.insertLeads([leadRecord(target, { phone: silver.phone })]);
      await store.removeLead(workspace, gold.id, undefined, tick());
      const at = tick();
      const ids = [newId(), newId(), newId()];
      expect(await store.copySegmentLeads(workspace, target.id, {}, () => ids.shift()!, at)).toBe(1);
      const copied = (await store.listLeads(workspace, { campaignId: target.id, segment: { phone_prefix: '+1415' } }, all)).leads;
      expect(copied).toEqual([{ ...failed, id: expect.any(String), campaignId: target.id, status: 'pending', attempts: 0, callIds: [], createdAt: at, updatedAt: at }]);
      expect(await store.copySegmentLeads(workspace, target.id, {}, newId, tick())).toBe(0);
    });
  });

  describe('segments', () => {
    test('segments read back whole, names are unique per workspace, lists are newest first', async () => {
      const segment = segmentRecord(workspace, { name: 'Gold', description: 'best', filter: { statuses: ['pending'], variables: { tier: 'gold' }, phone_prefix: '+1' } });
      expect(await store.insertSegment(segment)).toBe('created');
      expect(await store.insertSegment(segmentRecord(workspace, { name: 'Gold' }))).toBe('name_taken');
      expect(await store.insertSegment(segmentRecord(otherWorkspace, { name: 'Gold' }))).toBe('created');
      const second = segmentRecord(workspace);
      await store.insertSegment(second);
      expect(await store.getSegment(workspace, segment.id)).toEqual(segment);
      expect(await store.getSegment(otherWorkspace, segment.id)).toBeUndefined();
      expect(await store.listSegments(workspace, all)).toEqual({ segments: [second, segment], total: 2 });
    });

    test('updates are revision-checked; a taken name is refused', async () => {
      const segment = segmentRecord(workspace);
      const taken = segmentRecord(workspace, { name: 'Taken' });
      await store.insertSegment(segment);
      await store.insertSegment(taken);
      const at = tick();
      const filter = { time_zones: ['UTC'] };
      expect(await store.updateSegment(workspace, segment.id, 1, { name: 'New', filter }, at)).toEqual({
        kind: 'updated',
        record: { ...segment, name: 'New', filter, revision: 2, updatedAt: at },
      });
      expect(await store.updateSegment(workspace, segment.id, 1, { name: 'Newer' }, tick())).toEqual({ kind: 'revision_conflict' });
      expect(await store.updateSegment(workspace, segment.id, 2, { name: 'Taken' }, tick())).toEqual({ kind: 'name_taken' });
      expect(await store.updateSegment(otherWorkspace, segment.id, 2, { name: 'x' }, tick())).toEqual({ kind: 'not_found' });
    });

    test('a segment a campaign targets is not deleted', async () => {
      const segment = segmentRecord(workspace);
      await store.insertSegment(segment);
      const campaign = campaignRecord(workspace, { settings: { ...campaignRecord(workspace).settings, segment_id: segment.id } });
      await store.insertCampaign(campaign);
      expect(await store.deleteSegment(workspace, segment.id)).toBe('in_use');
      await store.updateCampaign(workspace, campaign.id, 1, { settings: { ...campaign.settings, segment_id: null } }, tick());
      expect(await store.deleteSegment(otherWorkspace, segment.id)).toBe('not_found');
      expect(await store.deleteSegment(workspace, segment.id)).toBe('deleted');
      expect(await store.deleteSegment(workspace, segment.id)).toBe('not_found');
    });
  });
}
