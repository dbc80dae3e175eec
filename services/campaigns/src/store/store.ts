// The campaigns service's persistence, in its own words: one narrow part per area (campaigns, leads,
// segments) and the whole store as their intersection. SQLite and MongoDB adapters implement it and
// one contract suite (test/store.contract.ts) holds them to the same behaviour.
import type { NewOutboxEvent, PrunableOutbox } from '@voice/runtime/events';
import type { Page } from '@voice/runtime/validation';
import type { CallbackPart } from './callback-store.js';
import type { CampaignPausedReason, CampaignSettings, CampaignStatus, LeadStatus, LeadTimeZoneSource, SegmentFilter } from '@voice/contracts/campaigns';

export interface CampaignRecord {
  id: string;
  workspaceId: string;
  status: CampaignStatus;
  /** Why the dialer paused it; null unless paused. */
  pausedReason: CampaignPausedReason | null;
  settings: CampaignSettings;
  revision: number;
  startedAt: string | null;
  stoppedAt: string | null;
  /** When its schedule next starts it; null without a schedule. */
  nextRunAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a revision-checked write of a campaign changes; the revision always goes up by one. */
export interface CampaignChanges {
  settings?: CampaignSettings;
  status?: CampaignStatus;
  /** null clears it. */
  pausedReason?: CampaignPausedReason | null;
  startedAt?: string;
  stoppedAt?: string;
  /** null clears it. */
  nextRunAt?: string | null;
}

export type LeadVariables = Record<string, string | number | boolean>;

export interface LeadRecord {
  id: string;
  workspaceId: string;
  campaignId: string;
  /** E.164. */
  phone: string;
  name: string;
  variables: LeadVariables;
  timeZone: string | null;
  /** Where timeZone came from: given with the lead, derived from its number, or null without one. */
  timeZoneSource: LeadTimeZoneSource | null;
  status: LeadStatus;
  attempts: number;
  callIds: string[];
  createdAt: string;
  updatedAt: string;
}

export type LeadCounts = Record<LeadStatus, number> & { total: number };

export interface LeadFilter {
  campaignId?: string;
  status?: LeadStatus;
  /** A segment's filter (its times normalised to the stored form). */
  segment?: SegmentFilter;
}

export interface SegmentRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  filter: SegmentFilter;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface SegmentChanges {
  name?: string;
  description?: string;
  filter?: SegmentFilter;
}

export type UpdateOutcome<Record> = { kind: 'updated'; record: Record } | { kind: 'not_found' } | { kind: 'revision_conflict' };

/**
 * A lead's number is in its campaign once: an insert of a number already there names the lead that has
 * it. A lead of a campaign that does not exist (deleted meanwhile) is not kept: `no_campaign`.
 */
export type LeadInsertOutcome = { kind: 'created' } | { kind: 'duplicate'; leadId: string } | { kind: 'no_campaign' };

export interface CampaignPart {
  insertCampaign(campaign: CampaignRecord): Promise<void>;
  getCampaign(workspaceId: string, id: string): Promise<CampaignRecord | undefined>;
  /** Newest first. */
  listCampaigns(workspaceId: string, filter: { status?: CampaignStatus }, page: Page): Promise<{ campaigns: CampaignRecord[]; total: number }>;
  /**
   * Applies the changes only if the stored revision is still `expectedRevision`, and bumps it; the
   * events enter the outbox in the same transaction, only when the changes are applied.
   */
  updateCampaign(workspaceId: string, id: string, expectedRevision: number, changes: CampaignChanges, now: string, events?: readonly NewOutboxEvent[]): Promise<UpdateOutcome<CampaignRecord>>;
  /** Running campaigns of every workspace, oldest start first, at most `limit` after the first `offset` (the dialer's recovery). */
  listRunningCampaigns(page: Page): Promise<CampaignRecord[]>;
  /** Campaigns of every workspace whose schedule is due at `now` (next_run_at at or before it), the earliest first, at most `limit`. */
  listDueCampaigns(now: string, limit: number): Promise<CampaignRecord[]>;
  /**
   * Moves a campaign's next_run_at from `from` to `to` only while it is still `from`, without touching its
   * revision (a schedule's advance is no edit): the claim of one occurrence, so two dialers never both
   * fire it. Answers whether this call made the move.
   */
  advanceSchedule(workspaceId: string, id: string, from: string, to: string | null): Promise<boolean>;
  /** Deletes a campaign that is not running, with its leads. */
  deleteCampaign(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'running'>;
}

export interface LeadPart {
  /** Inserts in order; a number already in the campaign (or earlier in `leads`) is a duplicate; no lead outlives its campaign's deletion. */
  insertLeads(leads: readonly LeadRecord[]): Promise<LeadInsertOutcome[]>;
  /** Newest first. */
  listLeads(workspaceId: string, filter: LeadFilter, page: Page): Promise<{ leads: LeadRecord[]; total: number }>;
  /** Marks the lead removed (it stays, with its history); undefined when the workspace (and campaign, if given) has no such lead. */
  removeLead(workspaceId: string, id: string, campaignId: string | undefined, now: string): Promise<LeadRecord | undefined>;
  /** The leads of each campaign by status; a campaign without leads has all zeros. */
  countLeads(workspaceId: string, campaignIds: readonly string[]): Promise<Map<string, LeadCounts>>;
  /**
   * Copies into the campaign, as pending leads with new ids, the workspace's leads of other campaigns
   * that the filter matches and that may still be called (not removed or do_not_call), one per number,
   * skipping numbers the campaign has. Answers how many were added.
   */
  copySegmentLeads(workspaceId: string, campaignId: string, filter: SegmentFilter, newId: () => string, now: string): Promise<number>;
}

/** Which lead a conditional write applies to: its status is one of `statuses` (and its attempts, call as given). */
export interface LeadCondition {
  statuses: readonly LeadStatus[];
  attempts?: number;
  /** The lead has this call among its calls. */
  callId?: string;
}

/** What a conditional write of a lead changes; updated_at always becomes `now`. */
export interface LeadChange {
  status: LeadStatus;
  attempts?: number;
  /** Added to the lead's calls unless it is there already. */
  addCallId?: string;
}

export interface DialerPart {
  getLead(workspaceId: string, id: string): Promise<LeadRecord | undefined>;
  /**
   * Applies the change only while the lead meets the condition, atomically: the dialer's one way of
   * moving a lead, so two workers holding one job (or a job and a call's end) never both win.
   * Answers the lead as changed, or undefined when it did not meet the condition (or does not exist).
   */
  transitionLead(workspaceId: string, id: string, when: LeadCondition, change: LeadChange, now: string): Promise<LeadRecord | undefined>;
}

export interface SegmentPart {
  /** 'name_taken' when the workspace has a segment of that name. */
  insertSegment(segment: SegmentRecord): Promise<'created' | 'name_taken'>;
  getSegment(workspaceId: string, id: string): Promise<SegmentRecord | undefined>;
  /** Newest first. */
  listSegments(workspaceId: string, page: Page): Promise<{ segments: SegmentRecord[]; total: number }>;
  updateSegment(workspaceId: string, id: string, expectedRevision: number, changes: SegmentChanges, now: string): Promise<UpdateOutcome<SegmentRecord> | { kind: 'name_taken' }>;
  /** Deletes a segment no campaign targets. */
  deleteSegment(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'>;
}

export interface CampaignStore extends CampaignPart, LeadPart, DialerPart, SegmentPart {
  /** The events the campaigns service publishes (a campaign completed), for the dialer's relay. */
  readonly outbox: PrunableOutbox;
  /** The callbacks (store/callback-store.ts). */
  readonly callbacks: CallbackPart;
  close(): Promise<void>;
}

export const emptyLeadCounts = (): LeadCounts => ({
  total: 0,
  pending: 0,
  calling: 0,
  completed: 0,
  failed: 0,
  retry_scheduled: 0,
  do_not_call: 0,
  removed: 0,
});

/** A lead's campaign as one key: the workspace and the campaign id. */
export const campaignKey = (lead: Pick<LeadRecord, 'workspaceId' | 'campaignId'>): string => `${lead.workspaceId}\u0000${lead.campaignId}`;

/** Leads in these statuses are never copied into another campaign by a segment. */
export const uncopiedLeadStatuses: readonly LeadStatus[] = ['removed', 'do_not_call'];

/** Whether the lead meets a conditional write's condition (the adapters that filter in code use it). */
export const leadMeets = (lead: LeadRecord, when: LeadCondition): boolean =>
  when.statuses.includes(lead.status) && (when.attempts === undefined || lead.attempts === when.attempts) && (when.callId === undefined || lead.callIds.includes(when.callId));

/** The lead after a conditional write's change. */
export const changedLead = (lead: LeadRecord, change: LeadChange, now: string): LeadRecord => ({
  ...lead,
  status: change.status,
  attempts: change.attempts ?? lead.attempts,
  callIds: change.addCallId === undefined || lead.callIds.includes(change.addCallId) ? lead.callIds : [...lead.callIds, change.addCallId],
  updatedAt: now,
});
