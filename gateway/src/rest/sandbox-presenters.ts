// The sandbox's test surface as public JSON. Typed by the schemas in @voice/contracts/telephony.
import type { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import type { VerificationCall } from '@voice/proto/voice/telephony/v1/sandbox';
import type { sandboxVerificationCallSchema } from '@voice/contracts/telephony';

export const presentVerificationCall = (call: VerificationCall): z.infer<typeof sandboxVerificationCallSchema> => ({
  from: call.from,
  to: call.to,
  speech: call.speech,
  answered_at: toIso(call.answeredAt)!,
});
