// The callbacks API's contract (issue 17): a lead of a campaign, or a caller's number with a campaign,
// to be called back at a time the person asked for, and the rules that time must meet. The gateway
// validates REST input with these schemas, the campaigns service its RPC input, and the dialer fires
// callbacks by the same hours and limits.
import { z } from 'zod';
import { isUuid } from '@voice/runtime/ids';
import { pageQueryFields } from '@voice/runtime/validation';
import { timeZoneField, variablesField } from './campaigns.js';
import { idSchema, timeSchema } from './responses.js';

export const callbackStatuses = ['scheduled', 'dialing', 'completed', 'failed', 'cancelled'] as const;
export type CallbackStatus = (typeof callbackStatuses)[number];

/** Why a callback failed: its campaign, its lead or its number forbade the call, it came too late, or the call did not reach the person. */
export const callbackFailureReasons = [
  'campaign_stopped',
  'campaign_deleted',
  'lead_removed',
  'suppressed',
  'call_refused',
  'expired',
  'no_answer',
  'busy',
  'voicemail',
  'call_failed',
] as const;
export type CallbackFailureReason = (typeof callbackFailureReasons)[number];

/** How far ahead a callback may be asked for. */
export const maxCallbackDaysAhead = 90;
/** How long after its time a callback held back (campaign paused, wallet empty, pacing) may still be placed; later it fails as `expired`. */
export const callbackGraceHours = 24;
/**
 * The hours a callback may ring at, every day, in the person's time zone: the legal calling hours of
 * the strictest common rules (TCPA 8 am to 9 pm). A callback honours the time asked for even outside
 * the campaign's own calling window, never outside these hours.
 */
export const callbackHours = { start: '08:00', end: '21:00' } as const;

const uuid = z.string().refine(isUuid, 'must be a UUID').meta({ format: 'uuid' });

const callbackRules = `\`at\` must be in the future, at most ${maxCallbackDaysAhead} days ahead, and between ${callbackHours.start} and ${callbackHours.end} in the person’s time zone (the lead’s \`time_zone\`, else this \`time_zone\`, else the zone its number names when it names one, as a lead’s is derived, else the campaign window’s)`;

/** Body of POST /callbacks: a lead (its campaign implied) or a number with its campaign. */
export const createCallbackBodySchema = z
  .strictObject({
    lead_id: uuid.optional().describe('the lead to call back; its campaign places the call. Give this or `phone`'),
    phone: z.string().min(1).max(32).optional().describe('the number to call back, in international format with a leading + (normalised to E.164), when the person is not a lead; needs `campaign_id`'),
    campaign_id: uuid.optional().describe('the campaign whose assistant, numbers, suppression list and pacing the call uses; required with `phone`, and when sent with `lead_id` it must be the lead’s'),
    at: z.iso.datetime({ offset: true }).describe(`when to call, RFC 3339 (an offset is kept as the instant it names); ${callbackRules}`),
    time_zone: timeZoneField.optional().describe('the person’s IANA time zone, for a `phone` callback (a lead’s own applies otherwise); without it, the zone the number names (none for a prefix of several zones), else the campaign window’s'),
    variables: variablesField.optional().describe('values for the assistant in this call, over the lead’s own variables'),
    note: z.string().max(1000, 'must be at most 1000 characters').optional().describe('why the person asked to be called back (for people; the assistant does not hear it)'),
  })
  .refine((body) => (body.lead_id === undefined) !== (body.phone === undefined), { message: 'give either lead_id or phone, not both', path: ['lead_id'] })
  .refine((body) => body.phone === undefined || body.campaign_id !== undefined, { message: 'is required with phone', path: ['campaign_id'] })
  .refine((body) => body.lead_id === undefined || body.time_zone === undefined, { message: 'a lead’s callback uses the lead’s time zone', path: ['time_zone'] });
export type CallbackInput = z.output<typeof createCallbackBodySchema>;

/** Query of GET /callbacks. */
export const listCallbacksQuerySchema = z.strictObject({
  status: z.enum(callbackStatuses).optional(),
  campaign_id: uuid.optional().describe('only this campaign’s callbacks'),
  lead_id: uuid.optional().describe('only this lead’s callbacks'),
  ...pageQueryFields,
});

export const callbackSchema = z
  .object({
    id: idSchema,
    campaign_id: idSchema,
    lead_id: idSchema.nullable().describe('the lead called back; null for a caller’s number'),
    phone: z.string().describe('E.164'),
    time_zone: z.string().nullable().describe('the person’s IANA time zone as given; null when the lead’s, the number’s or the campaign window’s applies'),
    at: timeSchema.describe('when the call is placed, not before'),
    variables: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    note: z.string(),
    status: z
      .enum(callbackStatuses)
      .describe('`scheduled` until its time; `dialing` from the moment its call is placed until the call ends; then `completed` (answered) or `failed` (see `failure_reason`); `cancelled` by DELETE'),
    failure_reason: z
      .enum(callbackFailureReasons)
      .nullable()
      .describe(
        'null unless `failed`: `campaign_stopped` / `campaign_deleted` (at its time), `lead_removed` (the lead was removed), `suppressed` (the number was on the suppression list at its time), `call_refused` (the call could not be placed), `expired` (held back past its time by more than the grace period), `no_answer`, `busy`, `voicemail` (a voicemail box answered), `call_failed` (how the call ended)',
      ),
    attempts: z.int().min(0).describe('times the dialer tried to place the call (a call the wallet could not fund is tried again)'),
    call_id: idSchema.nullable().describe('the call placed (`GET /calls/{id}`); null before'),
    created_at: timeSchema,
    updated_at: timeSchema,
  })
  .meta({ id: 'Callback' });
