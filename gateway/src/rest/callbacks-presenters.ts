// The callback presenter: the campaigns service's message to the public JSON of the contract's schema.
import type { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import { callbackFailureReasons, callbackStatuses, type callbackSchema } from '@voice/contracts/callbacks';
import { oneOf } from '@voice/contracts/responses';
import type { Callback } from '@voice/proto/voice/campaigns/v1/callbacks';

/** A time the service always sets. */
const timeOf = (at: Parameters<typeof toIso>[0]): string => toIso(at) ?? '';

export const presentCallback = (callback: Callback): z.infer<typeof callbackSchema> => ({
  id: callback.id,
  campaign_id: callback.campaignId,
  lead_id: callback.leadId || null,
  phone: callback.phone,
  time_zone: callback.timeZone || null,
  at: timeOf(callback.at),
  variables: (callback.variables ?? {}) as Record<string, string | number | boolean>,
  note: callback.note,
  status: oneOf(callbackStatuses, callback.status),
  failure_reason: callback.failureReason ? oneOf(callbackFailureReasons, callback.failureReason) : null,
  attempts: callback.attempts,
  call_id: callback.callId || null,
  created_at: timeOf(callback.createdAt),
  updated_at: timeOf(callback.updatedAt),
});
