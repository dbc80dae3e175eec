// The curated call every caller sees (SPEC.md 1 rule 3): the public events only (the one allowlist),
// and nothing of the leg, the hold, the session token, the assistant's configuration or storage.
import { create } from '@bufbuild/protobuf';
import { toTimestamp } from '@voice/runtime/time';
import { CallSchema, type Call } from '@voice/proto/voice/calls/v1/calls';
import { callDirectionEnumOf, callStatusEnumOf } from '@voice/contracts/calls-presenters';
import { isPublicCallEvent } from './domain/public-events.js';
import type { CallView } from './store/store.js';

export const presentCall = (call: CallView): Call =>
  create(CallSchema, {
    id: call.id,
    status: callStatusEnumOf(call.status),
    direction: callDirectionEnumOf(call.direction),
    from: call.from,
    to: call.to,
    assistantId: call.assistantId,
    assistantVersion: call.assistantVersion,
    variables: call.variables,
    metadata: call.metadata,
    createdAt: toTimestamp(call.createdAt),
    answeredAt: call.answeredAt ? toTimestamp(call.answeredAt) : undefined,
    endedAt: call.endedAt ? toTimestamp(call.endedAt) : undefined,
    durationSeconds: call.durationSeconds,
    minuteUnitsCharged: BigInt(call.minuteUnitsCharged),
    creditUnitsCharged: BigInt(call.creditUnitsCharged),
    endReason: call.endedAt ? (call.endReason ?? '') : '',
    transcript: call.reports.flatMap((report) => (report.kind === 'turn' ? [{ role: report.role, text: report.text, at: toTimestamp(report.at) }] : [])),
    summary: call.summary ?? '',
    analysis: { verdict: call.verdict ?? '', extractedFields: call.extractedFields },
    events: call.reports.flatMap((report) =>
      report.kind === 'event' && isPublicCallEvent(report.type) ? [{ type: report.type, at: toTimestamp(report.at), data: report.data }] : [],
    ),
    hasRecording: call.hasRecording,
    updatedAt: toTimestamp(call.updatedAt),
  });
