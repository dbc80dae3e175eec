// The sandbox's test surface as public JSON: what a phone reached through the sandbox carrier heard,
// and the call a simulated caller makes to a workspace number.
import { z } from 'zod';
import { e164Schema, timeSchema } from '../responses.js';
import { callMetadataSchema } from '../calls.js';
import { phoneNumberField } from './requests.js';

export const simulateInboundCallBodySchema = z.strictObject({
  to: phoneNumberField.describe('the workspace’s number to call: voice-capable, given to an assistant, and carried by the sandbox'),
  from: phoneNumberField.describe('the simulated caller’s number, in international format with a leading +'),
  metadata: callMetadataSchema
    .optional()
    .describe('kept with the call as POST /calls keeps `metadata` (the same limits); `sandbox_script` tells the sandbox voice runtime what the caller says and does (its README)'),
});

export const sandboxVerificationCallSchema = z
  .object({
    from: e164Schema.describe('the platform carrier’s number that called'),
    to: e164Schema.describe('the caller ID’s number, which answered'),
    speech: z.string().describe('what the call said, the code included (said twice)'),
    answered_at: timeSchema.describe('when the number answered'),
  })
  .meta({ id: 'SandboxVerificationCall' });
