// The curated public JSON of a call, from the calls service's message: what GET /calls/{id} answers
// and what the call.started and call.ended webhook events carry, written once for both.
import type { z } from 'zod';
import type { JsonObject } from '@bufbuild/protobuf';
import { formatCredits, formatMinutes } from '@voice/runtime/amounts';
import { toIso } from '@voice/runtime/time';
import { CallDirection, CallStatus, type Call } from '@voice/proto/voice/calls/v1/calls';
import { callDirections, callStatuses, transcriptRoles, type callSchema } from './calls.js';
import { oneOf } from './responses.js';

/** The API's name of a proto status or direction (`CallStatus.IN_PROGRESS` is `in_progress`). */
const nameOf = <Name extends string>(names: readonly Name[], enumName: string | undefined, fallback: Name): Name =>
  names.find((name) => name.toUpperCase() === enumName) ?? fallback;

const orNull = (text: string): string | null => (text === '' ? null : text);

/** The calls service keeps every amount and time within range; times a call has are always set. */
export const presentCall = (call: Call): z.infer<typeof callSchema> => ({
  id: call.id,
  status: nameOf(callStatuses, CallStatus[call.status], 'queued'),
  direction: nameOf(callDirections, CallDirection[call.direction], 'outbound'),
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
