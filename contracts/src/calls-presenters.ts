// The curated public JSON of a call, from the calls service's message: what GET /calls/{id} answers
// and what the call.started and call.ended webhook events carry, written once for both; and a call's
// status and direction between the API's words and the proto enums, for the gateway and the service.
import type { z } from 'zod';
import type { JsonObject } from '@bufbuild/protobuf';
import { formatCredits, formatMinutes } from '@voice/runtime/amounts';
import { toIso } from '@voice/runtime/time';
import { CallDirection, CallStatus, type Call } from '@voice/proto/voice/calls/v1/calls';
import { callDirections, callStatuses, transcriptRoles, type CallDirectionName, type CallStatusName, type callSchema } from './calls.js';
import { oneOf } from './responses.js';

/** The API's word an enum value's name spells (`IN_PROGRESS` is `in_progress`); undefined for UNSPECIFIED or an unknown value. */
const namedIn = <Name extends string>(names: readonly Name[], enumName: string | undefined): Name | undefined => names.find((name) => name.toUpperCase() === enumName);

/** The status an enum value's name spells: a call's (`CallStatus`) or its carrier leg's (`CallLegStatus`), the same words. */
export const callStatusNamed = (enumName: string | undefined): CallStatusName | undefined => namedIn(callStatuses, enumName);
export const callStatusNameOf = (status: CallStatus): CallStatusName | undefined => callStatusNamed(CallStatus[status]);
export const callDirectionNameOf = (direction: CallDirection): CallDirectionName | undefined => namedIn(callDirections, CallDirection[direction]);
export const callStatusEnumOf = (name: CallStatusName): CallStatus => CallStatus[name.toUpperCase() as keyof typeof CallStatus];
export const callDirectionEnumOf = (name: CallDirectionName): CallDirection => CallDirection[name.toUpperCase() as keyof typeof CallDirection];

const orNull = (text: string): string | null => (text === '' ? null : text);

/** The calls service keeps every amount and time within range; times a call has are always set. */
export const presentCall = (call: Call): z.infer<typeof callSchema> => ({
  id: call.id,
  status: callStatusNameOf(call.status) ?? 'queued',
  direction: callDirectionNameOf(call.direction) ?? 'outbound',
  from: call.from,
  to: call.to,
  assistant_id: call.assistantId,
  assistant_version: call.assistantVersion,
  variables: (call.variables ?? {}) as JsonObject,
  metadata: (call.metadata ?? {}) as JsonObject,
  created_at: toIso(call.createdAt)!,
  answered_at: toIso(call.answeredAt),
  ended_at: toIso(call.endedAt),
  duration_seconds: call.durationSeconds,
  minutes_charged: formatMinutes(Number(call.minuteUnitsCharged)),
  credits_charged: formatCredits(Number(call.creditUnitsCharged)),
  end_reason: orNull(call.endReason),
  transcript: call.transcript.map((turn) => ({ role: oneOf(transcriptRoles, turn.role), text: turn.text, at: toIso(turn.at)! })),
  summary: orNull(call.summary),
  analysis: { verdict: orNull(call.analysis?.verdict ?? ''), extracted_fields: (call.analysis?.extractedFields ?? {}) as JsonObject },
  events: call.events.map((event) => ({ type: event.type, at: toIso(event.at)!, data: (event.data ?? {}) as JsonObject })),
  has_recording: call.hasRecording,
  updated_at: toIso(call.updatedAt)!,
});
