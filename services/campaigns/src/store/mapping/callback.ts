// A callback's stored form (SQLite's row and MongoDB's document but for the id and the encoding of its
// variables) and its mapping to and from the record.
import type { CallbackFailureReason, CallbackStatus } from '@voice/contracts/callbacks';
import type { CallbackRecord } from '../callback-store.js';
import type { LeadVariables } from '../store.js';
import type { StoredJson } from './json.js';

export interface StoredCallback<Json> {
  workspace_id: string;
  campaign_id: string;
  lead_id: string | null;
  phone: string;
  time_zone: string | null;
  at: string;
  variables: Json;
  note: string;
  status: string;
  failure_reason: string | null;
  attempts: number;
  call_id: string | null;
  created_at: string;
  updated_at: string;
}

export const storedCallback = <Json>(callback: CallbackRecord, json: StoredJson<Json>): StoredCallback<Json> => ({
  workspace_id: callback.workspaceId,
  campaign_id: callback.campaignId,
  lead_id: callback.leadId,
  phone: callback.phone,
  time_zone: callback.timeZone,
  at: callback.at,
  variables: json.encode(callback.variables),
  note: callback.note,
  status: callback.status,
  failure_reason: callback.failureReason,
  attempts: callback.attempts,
  call_id: callback.callId,
  created_at: callback.createdAt,
  updated_at: callback.updatedAt,
});

export const callbackFromStored = <Json>(id: string, stored: StoredCallback<Json>, json: StoredJson<Json>): CallbackRecord => ({
  id,
  workspaceId: stored.workspace_id,
  campaignId: stored.campaign_id,
  leadId: stored.lead_id,
  phone: stored.phone,
  timeZone: stored.time_zone,
  at: stored.at,
  variables: json.decode<LeadVariables>(stored.variables),
  note: stored.note,
  status: stored.status as CallbackStatus,
  failureReason: stored.failure_reason as CallbackFailureReason | null,
  attempts: stored.attempts,
  callId: stored.call_id,
  createdAt: stored.created_at,
  updatedAt: stored.updated_at,
});
