// A new call's record, outbound or inbound: the assistant version it runs (its configuration taken
// now), its limit, and everything that happens later still empty. Its hold is named by its id.
import type { JsonObject } from '@bufbuild/protobuf';
import { defaultMaxDurationSeconds } from '@voice/contracts/assistants';
import { maxCallSeconds, type CallDirectionName, type CallStatusName } from '@voice/contracts/calls';
import { newId } from '@voice/runtime/ids';
import type { CallAssistant } from '../peers/peers.js';
import type { CallRecord } from '../store/store.js';

/** The assistant's limit, within the longest call a carrier carries. */
const maxDurationOf = (config: JsonObject): number => {
  const endCall = config.end_call;
  const value = endCall && typeof endCall === 'object' && !Array.isArray(endCall) ? endCall.max_duration_seconds : undefined;
  return Math.min(typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : defaultMaxDurationSeconds, maxCallSeconds);
};

export interface NewCall {
  workspaceId: string;
  direction: CallDirectionName;
  from: string;
  to: string;
  numberId: string | null;
  assistant: CallAssistant;
  variables: JsonObject;
  metadata: JsonObject;
  /** The campaign an outbound call is placed for; none by default. */
  campaignId?: string | null;
  at: string;
  /** An inbound call arrives on a leg that is already ringing. */
  status?: CallStatusName;
  legId?: string;
  legSequence?: number;
}

export function newCall(input: NewCall): CallRecord {
  const id = newId();
  return {
    id,
    workspaceId: input.workspaceId,
    status: input.status ?? 'queued',
    direction: input.direction,
    from: input.from,
    to: input.to,
    numberId: input.numberId,
    assistantId: input.assistant.id,
    assistantVersion: input.assistant.version,
    assistantConfig: input.assistant.config,
    variables: input.variables,
    metadata: input.metadata,
    campaignId: input.campaignId ?? null,
    maxDurationSeconds: maxDurationOf(input.assistant.config),
    holdId: id,
    legId: input.legId ?? null,
    legSequence: input.legSequence ?? 0,
    answeredAt: null,
    endedAt: null,
    durationSeconds: 0,
    endReason: null,
    billedMinuteUnits: 0,
    minuteUnitsCharged: 0,
    creditUnitsCharged: 0,
    summary: null,
    verdict: null,
    extractedFields: {},
    hasRecording: false,
    usageEventId: null,
    charged: false,
    version: 0,
    createdAt: input.at,
    updatedAt: input.at,
  };
}
