// A call's stored form (SQLite's row and MongoDB's document but for the id and the flag's type) and
// its mapping to and from the record; and a report's.
import type { JsonObject } from '@bufbuild/protobuf';
import type { CallDirectionName, CallStatusName } from '@voice/contracts/calls';
import type { StoredValues } from '@voice/runtime/store';
import type { CallChanges, CallRecord, CallReport, ReportSource } from '../store.js';

export interface StoredCall<Flag> {
  workspace_id: string;
  status: string;
  direction: string;
  from_number: string;
  to_number: string;
  number_id: string | null;
  assistant_id: string;
  assistant_version: number;
  /** JSON text in both adapters: keys may hold characters MongoDB treats specially ("." and "$"). */
  assistant_config: string;
  variables: string;
  metadata: string;
  /** Absent from calls stored before campaigns named their calls. */
  campaign_id?: string | null;
  max_duration_seconds: number;
  hold_id: string;
  leg_id: string | null;
  leg_sequence: number;
  answered_at: string | null;
  ended_at: string | null;
  duration_seconds: number;
  end_reason: string | null;
  /** Absent from calls stored before the billed minutes were kept. */
  billed_minute_units?: number;
  minute_units_charged: number;
  credit_units_charged: number;
  summary: string | null;
  verdict: string | null;
  extracted_fields: string;
  has_recording: Flag;
  usage_event_id: string | null;
  charged: Flag;
  version: number;
  created_at: string;
  updated_at: string;
}

export const storedCall = <Flag>(call: CallRecord, values: StoredValues<Flag, unknown>): StoredCall<Flag> => ({
  workspace_id: call.workspaceId,
  status: call.status,
  direction: call.direction,
  from_number: call.from,
  to_number: call.to,
  number_id: call.numberId,
  assistant_id: call.assistantId,
  assistant_version: call.assistantVersion,
  assistant_config: JSON.stringify(call.assistantConfig),
  variables: JSON.stringify(call.variables),
  metadata: JSON.stringify(call.metadata),
  campaign_id: call.campaignId,
  max_duration_seconds: call.maxDurationSeconds,
  hold_id: call.holdId,
  leg_id: call.legId,
  leg_sequence: call.legSequence,
  answered_at: call.answeredAt,
  ended_at: call.endedAt,
  duration_seconds: call.durationSeconds,
  end_reason: call.endReason,
  billed_minute_units: call.billedMinuteUnits,
  minute_units_charged: call.minuteUnitsCharged,
  credit_units_charged: call.creditUnitsCharged,
  summary: call.summary,
  verdict: call.verdict,
  extracted_fields: JSON.stringify(call.extractedFields),
  has_recording: values.flag(call.hasRecording),
  usage_event_id: call.usageEventId,
  charged: values.flag(call.charged),
  version: call.version,
  created_at: call.createdAt,
  updated_at: call.updatedAt,
});

export const callFromStored = <Flag>(id: string, stored: StoredCall<Flag>, values: StoredValues<Flag, unknown>): CallRecord => ({
  id,
  workspaceId: stored.workspace_id,
  status: stored.status as CallStatusName,
  direction: stored.direction as CallDirectionName,
  from: stored.from_number,
  to: stored.to_number,
  numberId: stored.number_id,
  assistantId: stored.assistant_id,
  assistantVersion: stored.assistant_version,
  assistantConfig: JSON.parse(stored.assistant_config) as JsonObject,
  variables: JSON.parse(stored.variables) as JsonObject,
  metadata: JSON.parse(stored.metadata) as JsonObject,
  campaignId: stored.campaign_id ?? null,
  maxDurationSeconds: stored.max_duration_seconds,
  holdId: stored.hold_id,
  legId: stored.leg_id,
  legSequence: stored.leg_sequence,
  answeredAt: stored.answered_at,
  endedAt: stored.ended_at,
  durationSeconds: stored.duration_seconds,
  endReason: stored.end_reason,
  billedMinuteUnits: stored.billed_minute_units ?? 0,
  minuteUnitsCharged: stored.minute_units_charged,
  creditUnitsCharged: stored.credit_units_charged,
  summary: stored.summary,
  verdict: stored.verdict,
  extractedFields: JSON.parse(stored.extracted_fields) as JsonObject,
  hasRecording: values.isSet(stored.has_recording),
  usageEventId: stored.usage_event_id,
  charged: values.isSet(stored.charged),
  version: stored.version,
  createdAt: stored.created_at,
  updatedAt: stored.updated_at,
});

/** A report's stored form: `label` is an event's type or a turn's role, `body` its data (JSON) or text. */
export interface StoredReport {
  call_id: string;
  source: ReportSource;
  sequence: number;
  kind: 'event' | 'turn';
  label: string;
  body: string;
  at: string;
}

export const storedReport = (callId: string, report: CallReport): StoredReport =>
  report.kind === 'event'
    ? { call_id: callId, source: report.source, sequence: report.sequence, kind: 'event', label: report.type, body: JSON.stringify(report.data), at: report.at }
    : { call_id: callId, source: report.source, sequence: report.sequence, kind: 'turn', label: report.role, body: report.text, at: report.at };

export const reportFromStored = (stored: StoredReport): CallReport =>
  stored.kind === 'event'
    ? { source: stored.source, kind: 'event', sequence: stored.sequence, type: stored.label, at: stored.at, data: JSON.parse(stored.body) as JsonObject }
    : { source: stored.source, kind: 'turn', sequence: stored.sequence, role: stored.label, text: stored.body, at: stored.at };

/** The stored columns of the changes (JSON fields as text, flags as the adapter keeps them). */
export function storedChanges<Flag>(changes: CallChanges, values: StoredValues<Flag, unknown>): Partial<StoredCall<Flag>> {
  const stored: Partial<StoredCall<Flag>> = {};
  const set = <K extends keyof StoredCall<Flag>>(key: K, value: StoredCall<Flag>[K] | undefined) => {
    if (value !== undefined) stored[key] = value;
  };
  set('status', changes.status);
  set('leg_sequence', changes.legSequence);
  set('answered_at', changes.answeredAt);
  set('ended_at', changes.endedAt);
  set('duration_seconds', changes.durationSeconds);
  set('end_reason', changes.endReason);
  set('billed_minute_units', changes.billedMinuteUnits);
  set('minute_units_charged', changes.minuteUnitsCharged);
  set('credit_units_charged', changes.creditUnitsCharged);
  set('summary', changes.summary);
  set('verdict', changes.verdict);
  set('extracted_fields', changes.extractedFields === undefined ? undefined : JSON.stringify(changes.extractedFields));
  set('has_recording', changes.hasRecording === undefined ? undefined : values.flag(changes.hasRecording));
  set('usage_event_id', changes.usageEventId);
  set('charged', changes.charged === undefined ? undefined : values.flag(changes.charged));
  return stored;
}
