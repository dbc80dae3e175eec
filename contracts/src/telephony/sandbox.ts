// The sandbox's test surface as public JSON: what a phone reached through the sandbox carrier heard.
import { z } from 'zod';
import { e164Schema, timeSchema } from '../responses.js';

export const sandboxVerificationCallSchema = z
  .object({
    from: e164Schema.describe('the platform carrier’s number that called'),
    to: e164Schema.describe('the caller ID’s number, which answered'),
    speech: z.string().describe('what the call said, the code included (said twice)'),
    answered_at: timeSchema.describe('when the number answered'),
  })
  .meta({ id: 'SandboxVerificationCall' });
