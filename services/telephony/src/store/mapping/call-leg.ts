// A call leg's stored form (SQLite's row and MongoDB's document but for the id) and its mapping to
// and from the record.
import type { CallLegRecord, CallLegStatus } from '../store.js';

export interface StoredCallLeg {
  workspace_id: string;
  call_id: string | null;
  direction: 'outbound' | 'inbound';
  number_id: string | null;
  carrier_connection_id: string | null;
  carrier_call_id: string | null;
  from_number: string;
  to_number: string;
  max_duration_seconds: number;
  sealed_media_parameters: string;
  status: CallLegStatus;
  sequence: number;
  answered_at: string | null;
  ended_at: string | null;
  duration_seconds: number;
  failure_reason: string;
  created_at: string;
  updated_at: string;
}

export const storedCallLeg = (l: CallLegRecord): StoredCallLeg => ({
  workspace_id: l.workspaceId,
  call_id: l.callId,
  direction: l.direction,
  number_id: l.numberId,
  carrier_connection_id: l.carrierConnectionId,
  carrier_call_id: l.carrierCallId,
  from_number: l.from,
  to_number: l.to,
  max_duration_seconds: l.maxDurationSeconds,
  sealed_media_parameters: l.sealedMediaParameters,
  status: l.status,
  sequence: l.sequence,
  answered_at: l.answeredAt,
  ended_at: l.endedAt,
  duration_seconds: l.durationSeconds,
  failure_reason: l.failureReason,
  created_at: l.createdAt,
  updated_at: l.updatedAt,
});

export const callLegFromStored = (id: string, s: StoredCallLeg): CallLegRecord => ({
  id,
  workspaceId: s.workspace_id,
  callId: s.call_id,
  direction: s.direction,
  numberId: s.number_id,
  carrierConnectionId: s.carrier_connection_id,
  carrierCallId: s.carrier_call_id,
  from: s.from_number,
  to: s.to_number,
  maxDurationSeconds: s.max_duration_seconds,
  sealedMediaParameters: s.sealed_media_parameters,
  status: s.status,
  sequence: s.sequence,
  answeredAt: s.answered_at,
  endedAt: s.ended_at,
  durationSeconds: s.duration_seconds,
  failureReason: s.failure_reason,
  createdAt: s.created_at,
  updatedAt: s.updated_at,
});
