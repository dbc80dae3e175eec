// A callback record to the proto message every caller sees.
import { create, type JsonObject } from '@bufbuild/protobuf';
import { toTimestamp } from '@voice/runtime/time';
import { CallbackSchema, type Callback } from '@voice/proto/voice/campaigns/v1/callbacks';
import type { CallbackRecord } from '../store/callback-store.js';

export const presentCallback = (record: CallbackRecord): Callback =>
  create(CallbackSchema, {
    id: record.id,
    campaignId: record.campaignId,
    leadId: record.leadId ?? '',
    phone: record.phone,
    timeZone: record.timeZone ?? '',
    at: toTimestamp(record.at),
    variables: record.variables as JsonObject,
    note: record.note,
    status: record.status,
    failureReason: record.failureReason ?? '',
    attempts: record.attempts,
    callId: record.callId ?? '',
    createdAt: toTimestamp(record.createdAt),
    updatedAt: toTimestamp(record.updatedAt),
  });
