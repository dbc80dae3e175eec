// Caller IDs as public JSON: never the code or its hash. Typed by the schema in @voice/contracts/telephony.
import type { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import type { CallerId } from '@voice/proto/voice/telephony/v1/caller_ids';
import { oneOf } from '@voice/contracts/responses';
import { callerIdMethods, callerIdStatuses, type callerIdSchema } from '@voice/contracts/telephony';

export const presentCallerId = (callerId: CallerId): z.infer<typeof callerIdSchema> => ({
  id: callerId.id,
  phone_number: callerId.phoneNumber,
  label: callerId.label,
  method: oneOf(callerIdMethods, callerId.method),
  status: oneOf(callerIdStatuses, callerId.status),
  attempts_remaining: callerId.attemptsRemaining,
  code_expires_at: toIso(callerId.codeExpiresAt),
  verified_at: toIso(callerId.verifiedAt),
  created_at: toIso(callerId.createdAt)!,
  updated_at: toIso(callerId.updatedAt)!,
});
