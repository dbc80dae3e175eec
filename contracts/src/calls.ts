// The calls API's contract: the body of POST /calls, the filters of GET /calls and the curated call
// every answer shows (nothing of the media session, carrier, storage, counters or models: SPEC.md 1
// rule 3). Shared by the gateway (validation, presenters' types, OpenAPI, MCP) and the calls service.
import { z } from 'zod';
import { boundedJson, pageQueryFields } from '@voice/runtime/validation';
import { creditsSchema, e164Schema, idField, idSchema, minutesSchema, timeSchema } from './responses.js';
import { phoneNumberField } from './telephony/requests.js';

export const callStatuses = ['queued', 'ringing', 'in_progress', 'completed', 'no_answer', 'busy', 'failed', 'canceled'] as const;
export type CallStatusName = (typeof callStatuses)[number];

/** The states a call, and its carrier leg, end in: neither ever leaves one. */
export const endedCallStatuses: ReadonlySet<CallStatusName> = new Set(['completed', 'no_answer', 'busy', 'failed', 'canceled']);
export const isEndedStatus = (status: CallStatusName): boolean => endedCallStatuses.has(status);
const statusRank: Record<CallStatusName, number> = { queued: 0, ringing: 1, in_progress: 2, completed: 3, no_answer: 3, busy: 3, failed: 3, canceled: 3 };
/** Whether a call or leg in `current` moves to `next`: forward only (queued, ringing, in progress, an end state), never out of an end state. */
export const movesForward = (current: CallStatusName, next: CallStatusName): boolean => !isEndedStatus(current) && statusRank[next] > statusRank[current];

/**
 * The end reason of a call a voicemail box answered (the runtime ended it there): the call itself is `completed`,
 * and campaigns count it, and treat its lead, as the outcome `voicemail`.
 */
export const voicemailEndReason = 'voicemail';

export const callDirections = ['outbound', 'inbound'] as const;
export type CallDirectionName = (typeof callDirections)[number];
export const transcriptRoles = ['assistant', 'user'] as const;

/** What a call minute beyond the wallet's included minutes costs unless the operator sets VOICE_CALL_CREDITS_PER_MINUTE. */
export const defaultCallCreditsPerMinute = '0.1000';

/** The longest a call lasts whatever its assistant allows: the longest call a carrier carries (Twilio's TimeLimit, 4 hours). */
export const maxCallSeconds = 4 * 3600;

/** Limits of what a call carries for the conversation (documented in the schema). */
export const callInputLimits = {
  variables: 50,
  variableName: 64,
  variableValue: 1_000,
  metadataBytes: 16_384,
} as const;

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

export const callVariablesSchema = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, `names start with a letter or underscore and have at most ${callInputLimits.variableName} letters, digits or underscores`),
    z.union([z.string().max(callInputLimits.variableValue, `must be at most ${callInputLimits.variableValue} characters`), z.number(), z.boolean()]),
  )
  .refine((variables) => Object.keys(variables).length <= callInputLimits.variables, `must have at most ${callInputLimits.variables} variables`)
  .meta({ maxProperties: callInputLimits.variables })
  .describe(
    `Values substituted into the assistant's first message and prompt as {{name}}: at most ${callInputLimits.variables} names ` +
      `(letters, digits, underscore; at most ${callInputLimits.variableName} characters), each a string of at most ${callInputLimits.variableValue} characters, a number or a boolean.`,
  );

export const callMetadataSchema = z
  .record(z.string(), boundedJson())
  .refine((metadata) => jsonBytes(metadata) <= callInputLimits.metadataBytes, `must be at most ${callInputLimits.metadataBytes} bytes as JSON`)
  .describe(`Your own JSON object kept with the call and handed to the voice runtime; at most ${callInputLimits.metadataBytes} bytes as JSON.`);

export const createCallBodySchema = z.strictObject({
  assistant_id: idField.describe('the assistant that speaks on the call (its current version runs it)'),
  from: phoneNumberField.describe('a voice-capable phone number of the workspace, in international format with a leading +'),
  to: phoneNumberField.describe('the number to call, in international format with a leading +'),
  variables: callVariablesSchema.optional(),
  metadata: callMetadataSchema.optional(),
});
export type CreateCallBody = z.output<typeof createCallBodySchema>;

export const listCallsQuerySchema = z.strictObject({
  status: z.enum(callStatuses).optional().describe('only calls in this status'),
  direction: z.enum(callDirections).optional().describe('only outbound or only inbound calls'),
  assistant_id: idField.optional().describe('only calls of this assistant'),
  number: phoneNumberField.optional().describe('only calls from or to this number (international format)'),
  created_from: z.iso.datetime().optional().describe('only calls created at or after this RFC 3339 time'),
  created_to: z.iso.datetime().optional().describe('only calls created before this RFC 3339 time'),
  ...pageQueryFields,
});

export const callEventSchema = z
  .object({
    type: z.string().describe('what happened, e.g. call.answered, speech.started, tool.called, call.ended'),
    at: timeSchema,
    data: z.record(z.string(), z.unknown()).describe('the event’s details, by type'),
  })
  .meta({ id: 'CallEvent' });

export const transcriptTurnSchema = z
  .object({
    role: z.enum(transcriptRoles).describe('who spoke: the assistant or the person called (user)'),
    text: z.string(),
    at: timeSchema,
  })
  .meta({ id: 'TranscriptTurn' });

export const callSchema = z
  .object({
    id: idSchema,
    status: z.enum(callStatuses).describe('queued → ringing → in_progress → completed; or no_answer, busy, failed, canceled'),
    direction: z.enum(callDirections),
    from: e164Schema,
    to: e164Schema,
    assistant_id: idSchema,
    assistant_version: z.int().min(1).describe('the version of the assistant the call runs'),
    variables: z.record(z.string(), z.unknown()),
    metadata: z.record(z.string(), z.unknown()),
    created_at: timeSchema,
    answered_at: timeSchema.nullable(),
    ended_at: timeSchema.nullable(),
    duration_seconds: z.int().min(0).describe('whole seconds from answer to end; 0 until the call ends'),
    minutes_charged: minutesSchema.describe('included minutes the call used, once charged'),
    credits_charged: creditsSchema.describe('credits the call cost beyond the included minutes, once charged'),
    end_reason: z.string().nullable().describe('why the call ended, e.g. assistant_ended, caller_hung_up, max_duration, voicemail (a voicemail box answered: the call is completed), no_answer, busy, failed; null while it runs'),
    transcript: z.array(transcriptTurnSchema),
    summary: z.string().nullable(),
    analysis: z.object({
      verdict: z.string().nullable().describe('the verdict the assistant’s analysis plan asked for, e.g. successful'),
      extracted_fields: z.record(z.string(), z.unknown()),
    }),
    events: z.array(callEventSchema).describe('what happened during the call, oldest first (internal operational events are never listed)'),
    has_recording: z.boolean(),
    updated_at: timeSchema,
  })
  .meta({ id: 'Call' });

/** GET /calls/{id}/recording: where to download the call's recording for a while. */
export const recordingLinkSchema = z
  .object({
    url: z.string().describe('a time-limited signed address of the recording (audio/wav); it needs no credential, accepts byte ranges, and answers 403 once expired or altered'),
    expires_at: timeSchema.describe('when the address stops working'),
  })
  .meta({ id: 'Recording' });
