// A campaign's stored form (SQLite's row and MongoDB's document but for the id and the settings'
// encoding) and its mapping to and from the record. The segment it targets is a column of its own:
// deleting a segment asks whether any campaign names it.
import type { CampaignPausedReason, CampaignSettings, CampaignStatus } from '@voice/contracts/campaigns';
import type { CampaignRecord } from '../store.js';
import type { StoredJson } from './json.js';

export interface StoredCampaign<Json> {
  workspace_id: string;
  status: string;
  /** Absent from documents written before pausing existed. */
  paused_reason?: string | null;
  segment_id: string | null;
  settings: Json;
  revision: number;
  started_at: string | null;
  stopped_at: string | null;
  /** Absent from documents written before schedules existed. */
  next_run_at?: string | null;
  created_at: string;
  updated_at: string;
}

export const storedCampaign = <Json>(campaign: CampaignRecord, json: StoredJson<Json>): StoredCampaign<Json> => ({
  workspace_id: campaign.workspaceId,
  status: campaign.status,
  paused_reason: campaign.pausedReason,
  segment_id: campaign.settings.segment_id,
  settings: json.encode(campaign.settings),
  revision: campaign.revision,
  started_at: campaign.startedAt,
  stopped_at: campaign.stoppedAt,
  next_run_at: campaign.nextRunAt,
  created_at: campaign.createdAt,
  updated_at: campaign.updatedAt,
});

/** Settings stored before schedules existed have none. */
function settingsOf<Json>(stored: StoredCampaign<Json>, json: StoredJson<Json>): CampaignSettings {
  const settings = json.decode<CampaignSettings>(stored.settings);
  return { ...settings, schedule: settings.schedule ?? null };
}

export const campaignFromStored = <Json>(id: string, stored: StoredCampaign<Json>, json: StoredJson<Json>): CampaignRecord => ({
  id,
  workspaceId: stored.workspace_id,
  status: stored.status as CampaignStatus,
  pausedReason: (stored.paused_reason ?? null) as CampaignPausedReason | null,
  settings: settingsOf(stored, json),
  revision: stored.revision,
  startedAt: stored.started_at,
  stoppedAt: stored.stopped_at,
  nextRunAt: stored.next_run_at ?? null,
  createdAt: stored.created_at,
  updatedAt: stored.updated_at,
});
