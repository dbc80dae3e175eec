// The campaigns API's contract: campaigns (their settings, states and progress), their leads (one at
// a time or a bulk import with an outcome per row) and segments (saved filters over leads). The
// gateway validates REST and MCP input with these schemas and the campaigns service its RPC input.
import { z } from 'zod';
import { isUuid } from '@voice/runtime/ids';
import { pageQueryFields } from '@voice/runtime/validation';
import { cronIssue } from './campaign-schedule.js';
import { creditsSchema, idSchema, minutesSchema, timeSchema } from './responses.js';

export const campaignStatuses = ['draft', 'scheduled', 'running', 'paused', 'stopped', 'completed'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

/** Why the dialer paused a campaign: `insufficient_funds`, the wallet could not hold a call's first minute. */
export const campaignPausedReasons = ['insufficient_funds'] as const;
export type CampaignPausedReason = (typeof campaignPausedReasons)[number];

/** Where a lead's time zone came from: `given` with the lead, or `derived` from its number. */
export const leadTimeZoneSources = ['given', 'derived'] as const;
export type LeadTimeZoneSource = (typeof leadTimeZoneSources)[number];

export const leadStatuses = ['pending', 'calling', 'completed', 'failed', 'retry_scheduled', 'do_not_call', 'removed'] as const;
export type LeadStatus = (typeof leadStatuses)[number];

/** The call outcomes a retry policy may retry. */
export const retryableOutcomes = ['no_answer', 'busy', 'failed', 'voicemail'] as const;

export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof weekdays)[number];

export const leadRowOutcomes = ['created', 'duplicate', 'invalid_number', 'suppressed'] as const;
export type LeadRowOutcome = (typeof leadRowOutcomes)[number];

/** The most rows one bulk import takes. */
export const maxBulkLeads = 10_000;
/** The most numbers a campaign calls from. */
export const maxFromNumbers = 20;
/** The settings a running campaign accepts changes of: the rest would change whom or how it calls mid-run. */
export const settingsChangeableWhileRunning = ['name', 'pacing', 'window'] as const;

const uuid = z.string().refine(isUuid, 'must be a UUID').meta({ format: 'uuid' });
const unique = <T>(items: T[]) => new Set(items).size === items.length;
const revisionField = z.int().min(1).max(2_147_483_647).describe('the current `revision`; a stale one is 409 `revision_conflict`');

/** An IANA name's shape: capitalised segments, `Area/Location` (or a single zone such as `UTC` or `EST`). */
const ianaShape = /^[A-Z][A-Za-z0-9+_-]*(?:\/[A-Z][A-Za-z0-9+_-]*)*$/;

/**
 * Whether `name` is an IANA time zone the platform's clock knows ("Europe/Berlin", "Asia/Kolkata", "UTC").
 * ICU resolves some current names to older ones ("Asia/Kolkata" to "Asia/Calcutta"), so the name is kept
 * as written when it has an IANA name's shape; lower-case spellings ("utc", "europe/berlin") are refused so
 * a zone reads back the way the database writes it.
 */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64 || !ianaShape.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneField = z
  .string()
  .refine(isTimeZone, 'must be an IANA time zone name such as Europe/Berlin or America/New_York')
  .meta({ examples: ['America/New_York'] })
  .describe('IANA time zone name, e.g. `America/New_York`');

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:MM (00:00 to 23:59)');

export const windowSchema = z
  .strictObject({
    days: z.array(z.enum(weekdays)).min(1).max(7).refine(unique, 'lists a day twice').describe('the days calls may be placed on'),
    start: clockTime.describe('the earliest local time of a call, HH:MM'),
    end: clockTime.describe('the local time from which no call starts, HH:MM; after `start`'),
    time_zone: timeZoneField.describe('the time zone of leads that have none of their own'),
  })
  .refine((window) => window.start < window.end, { message: 'must be after start', path: ['end'] })
  .describe('when calls may be placed: on these days between `start` and `end`, in each lead’s own time zone');

export const pacingSchema = z
  .strictObject({
    max_concurrent: z.int().min(1).max(100).describe('calls in progress at once, at most'),
    calls_per_minute: z.int().min(1).max(600).describe('calls started per minute, at most'),
  })
  .describe('how fast the campaign dials');

export const retrySchema = z
  .strictObject({
    max_attempts: z.int().min(1).max(10).describe('calls per lead at most, the first included'),
    delay_minutes: z.int().min(1).max(10_080).describe('minutes between a retried call and the next attempt'),
    on: z.array(z.enum(retryableOutcomes)).max(retryableOutcomes.length).refine(unique, 'lists an outcome twice').describe('the call outcomes that are retried'),
  })
  .describe('which unsuccessful calls are tried again, how often and after how long');

export const scheduleSchema = z
  .strictObject({
    cron: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(120, 'must be at most 120 characters')
      .meta({ examples: ['0 9 * * 1-5'] })
      .describe('a cron expression of five fields (minute hour day-of-month month day-of-week; `@daily` and the like too), read in `time_zone`'),
    time_zone: timeZoneField.describe('the IANA time zone the expression is read in'),
  })
  .superRefine((schedule, context) => {
    // Refinements run even when a field failed: only an expression and a zone that passed are parsed.
    if (!isTimeZone(schedule.time_zone) || schedule.cron.length === 0 || schedule.cron.length > 120) return;
    const issue = cronIssue(schedule);
    if (issue) context.addIssue({ code: 'custom', message: issue, path: ['cron'] });
  })
  .describe('when the campaign starts on its own: at each occurrence it starts as `POST /campaigns/{id}/start` does');

const campaignFields = {
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').describe('what the campaign is called'),
  assistant_id: uuid.describe('the assistant that makes the calls: one of this workspace'),
  from_number_ids: z
    .array(uuid)
    .min(1)
    .max(maxFromNumbers)
    .refine(unique, 'lists a number twice')
    .describe('the workspace’s voice-capable phone numbers (`GET /phone-numbers` ids) the calls are placed from, in turn'),
  segment_id: uuid.nullable().describe('a segment whose matching leads the campaign also calls; they are added to it when it starts'),
  window: windowSchema,
  pacing: pacingSchema,
  retry: retrySchema,
  schedule: scheduleSchema.nullable(),
};
type CampaignField = keyof typeof campaignFields;

/** Body of POST /campaigns: name, assistant and numbers required; window, pacing and retry have defaults. */
export const createCampaignBodySchema = z.strictObject({
  name: campaignFields.name,
  assistant_id: campaignFields.assistant_id,
  from_number_ids: campaignFields.from_number_ids,
  segment_id: campaignFields.segment_id.optional(),
  window: campaignFields.window.optional(),
  pacing: campaignFields.pacing.optional(),
  retry: campaignFields.retry.optional(),
  schedule: campaignFields.schedule.optional(),
});

/** Body of PATCH /campaigns/{id}: the top-level settings to replace, plus expected_revision. */
export const updateCampaignBodySchema = z.strictObject({
  ...(Object.fromEntries(Object.entries(campaignFields).map(([name, schema]) => [name, schema.optional()])) as {
    [K in CampaignField]: z.ZodOptional<(typeof campaignFields)[K]>;
  }),
  expected_revision: revisionField,
});

/** Query of GET /campaigns. */
export const listCampaignsQuerySchema = z.strictObject({
  status: z.enum(campaignStatuses).optional(),
  ...pageQueryFields,
});

/** A lead's variables: flat, named like identifiers, so a segment can filter on them and an assistant template read them. */
const variableName = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const variablesField = z
  .record(z.string().regex(variableName, 'must be a name of letters, digits and underscores'), z.union([z.string().max(1000), z.number(), z.boolean()]))
  .refine((variables) => Object.keys(variables).length <= 50, 'must have at most 50 entries')
  .describe('values the assistant may use in the call (strings, numbers, booleans; at most 50)');

const leadFields = {
  name: z.string().trim().max(200, 'must be at most 200 characters').describe('who the lead is'),
  variables: variablesField,
  time_zone: timeZoneField.describe('the lead’s IANA time zone; without it the zone is derived from the number when its prefix names exactly one, else the campaign window’s `time_zone` applies'),
};

/** Body of POST /campaigns/{id}/leads: the number must be valid (anything else is 400). */
export const addLeadBodySchema = z.strictObject({
  phone: z.string().min(1).max(32).describe('the number to call, in international format with a leading + (normalised to E.164)'),
  name: leadFields.name.optional(),
  variables: leadFields.variables.optional(),
  time_zone: leadFields.time_zone.optional(),
});

/** One row of a bulk import: shaped like a lead; a number that is not valid is that row's outcome, not a 400. */
const bulkRowSchema = z.strictObject({
  phone: z.string().max(64).describe('the number to call, in international format; an invalid one is the row’s `invalid_number`'),
  name: leadFields.name.optional(),
  variables: leadFields.variables.optional(),
  time_zone: leadFields.time_zone.optional(),
});

/** Body of POST /campaigns/{id}/leads/bulk. */
export const addLeadsBodySchema = z.strictObject({
  leads: z.array(bulkRowSchema).min(1).max(maxBulkLeads, `must have at most ${maxBulkLeads} rows`).describe(`the leads to add, 1 to ${maxBulkLeads} rows`),
});

export type LeadInput = z.output<typeof addLeadBodySchema>;

/** Query of GET /leads and GET /campaigns/{id}/leads. */
export const listLeadsQuerySchema = z.strictObject({
  status: z.enum(leadStatuses).optional(),
  campaign_id: uuid.optional().describe('only this campaign’s leads'),
  segment_id: uuid.optional().describe('only the leads the segment’s filter matches'),
  ...pageQueryFields,
});

/** Query of GET /campaigns/{id}/leads: the campaign is in the path. */
export const listCampaignLeadsQuerySchema = listLeadsQuerySchema.omit({ campaign_id: true });

export const segmentFilterSchema = z
  .strictObject({
    campaign_ids: z.array(uuid).min(1).max(50).refine(unique, 'lists a campaign twice').optional().describe('leads of these campaigns'),
    statuses: z.array(z.enum(leadStatuses)).min(1).max(leadStatuses.length).refine(unique, 'lists a status twice').optional().describe('leads in one of these statuses'),
    phone_prefix: z.string().regex(/^\+\d{1,14}$/, 'must be a + and 1 to 14 digits').optional().describe('numbers starting with it, e.g. `+1415`'),
    time_zones: z.array(timeZoneField).min(1).max(50).refine(unique, 'lists a time zone twice').optional().describe('leads with one of these time zones'),
    variables: z
      .record(z.string().regex(variableName, 'must be a name of letters, digits and underscores'), z.union([z.string().max(1000), z.number(), z.boolean()]))
      .refine((variables) => Object.keys(variables).length <= 20, 'must have at most 20 entries')
      .optional()
      .describe('leads whose variables have exactly these values'),
    created_after: timeSchema.optional().describe('leads added at or after this time'),
    created_before: timeSchema.optional().describe('leads added before this time'),
  })
  .describe('every condition given must hold; an empty filter matches every lead of the workspace');
export type SegmentFilter = z.output<typeof segmentFilterSchema>;

const segmentFields = {
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').describe('what the segment is called; unique in the workspace'),
  description: z.string().max(500).describe('what the segment is for'),
  filter: segmentFilterSchema,
};

/** Body of POST /segments. */
export const createSegmentBodySchema = z.strictObject({
  name: segmentFields.name,
  description: segmentFields.description.optional(),
  filter: segmentFields.filter,
});

/** Body of PATCH /segments/{id}. */
export const updateSegmentBodySchema = z.strictObject({
  name: segmentFields.name.optional(),
  description: segmentFields.description.optional(),
  filter: segmentFields.filter.optional(),
  expected_revision: revisionField,
});

// ---------------------------------------------------------------------------------------------
// Answers

export const leadCountsSchema = z
  .object({
    total: z.int().min(0).describe('every lead of the campaign, removed ones included'),
    ...(Object.fromEntries(leadStatuses.map((status) => [status, z.int().min(0)])) as Record<LeadStatus, z.ZodInt>),
  })
  .describe('the campaign’s leads by status');

const callCount = (what: string) => z.int().min(0).describe(what);

export const campaignCallsSchema = z
  .object({
    placed: callCount('calls placed (each attempt of a lead is a call)'),
    connected: callCount('calls answered, ended or not'),
    active: callCount('calls not ended yet: queued, ringing or in progress'),
    completed: callCount('answered calls that ended, but for those a voicemail box answered'),
    voicemail: callCount('answered calls a voicemail box took (end reason `voicemail`)'),
    no_answer: callCount('calls nobody answered'),
    busy: callCount('calls that found the line busy'),
    failed: callCount('calls the carrier could not connect'),
    canceled: callCount('calls that ended before they were answered, by the platform'),
    minutes: minutesSchema.describe(
      'minutes billed for the ended calls: each call’s answered seconds rounded as it was charged (every started minute unless the operator configured exact seconds), summed; unanswered calls bill none',
    ),
    minutes_charged: minutesSchema.describe('included minutes the calls used (their `minutes_charged` summed), once charged'),
    credits_charged: creditsSchema.describe('credits the calls cost beyond the included minutes (their `credits_charged` summed), once charged'),
  })
  .describe(
    'the campaign’s calls as the calls themselves record them (`GET /calls` shows each, with `metadata.campaign_id`); a call’s `minutes_charged` and `credits_charged` count once billing charged it, shortly after it ended',
  )
  .meta({ id: 'CampaignCalls' });

export const campaignProgressSchema = z
  .object({
    leads: leadCountsSchema,
    calls: campaignCallsSchema
      .nullable()
      .describe('the campaign’s calls; in `GET /campaigns/{id}` and `GET /campaigns/{id}/stats`, null in lists and in the answers of create, update, start and stop'),
  })
  .describe('how far the campaign is')
  .meta({ id: 'CampaignProgress' });

export const campaignSchema = z
  .object({
    id: idSchema,
    name: campaignFields.name,
    status: z
      .enum(campaignStatuses)
      .describe('`draft` until started (`scheduled` while it has a `schedule` and never ran); `running` while it dials; `paused` by the dialer (see `paused_reason`) until started again; `stopped` after stop; `completed` when every lead is done'),
    paused_reason: z
      .enum(campaignPausedReasons)
      .nullable()
      .describe('why the dialer paused the campaign, null unless `paused`: `insufficient_funds`, the wallet could not hold a call’s first minute; add funds and start it again'),
    assistant_id: idSchema,
    from_number_ids: z.array(idSchema),
    segment_id: idSchema.nullable(),
    window: windowSchema,
    pacing: pacingSchema,
    retry: retrySchema,
    schedule: scheduleSchema.nullable(),
    next_run_at: timeSchema.nullable().describe('when the schedule next starts the campaign; null without a schedule'),
    progress: campaignProgressSchema,
    revision: z.int().min(1).describe('increases with every change; send it as expected_revision to update'),
    started_at: timeSchema.nullable(),
    stopped_at: timeSchema.nullable(),
    created_at: timeSchema,
    updated_at: timeSchema,
  })
  .meta({ id: 'Campaign' });

export const campaignStatsSchema = z
  .object({ campaign_id: idSchema, status: campaignSchema.shape.status, progress: campaignProgressSchema.extend({ calls: campaignCallsSchema }) })
  .meta({ id: 'CampaignStats' });

export type CampaignSettings = Pick<z.output<typeof campaignSchema>, 'name' | 'assistant_id' | 'from_number_ids' | 'segment_id' | 'window' | 'pacing' | 'retry' | 'schedule'>;

export const leadSchema = z
  .object({
    id: idSchema,
    campaign_id: idSchema,
    phone: z.string().describe('E.164'),
    name: z.string(),
    variables: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    time_zone: z.string().nullable().describe('IANA time zone: the one given, else the one the number’s prefix names (libphonenumber’s table; a prefix that names several zones gives none); null when the campaign window’s applies'),
    time_zone_source: z.enum(leadTimeZoneSources).nullable().describe('`given` with the lead, `derived` from its number, null without a zone'),
    status: z.enum(leadStatuses),
    attempts: z.int().min(0).describe('calls placed to the lead'),
    call_ids: z.array(idSchema).describe('the lead’s calls, oldest first'),
    created_at: timeSchema,
    updated_at: timeSchema,
  })
  .meta({ id: 'Lead' });

export const leadRowResultSchema = z
  .object({
    index: z.int().min(0).describe('the row’s position in `leads`, from 0'),
    outcome: z.enum(leadRowOutcomes).describe('`created`; `duplicate` (the number is in the campaign already, or earlier in this import); `invalid_number`; `suppressed` (on the suppression list)'),
    lead_id: idSchema.nullable().describe('the lead created, or the one the number already belongs to'),
    phone: z.string().describe('the number in E.164, or as sent when it is not valid'),
  })
  .meta({ id: 'LeadRowResult' });

export const bulkLeadsResultSchema = z.object({
  summary: z.object(Object.fromEntries(leadRowOutcomes.map((outcome) => [outcome, z.int().min(0)])) as Record<LeadRowOutcome, z.ZodInt>),
  results: z.array(leadRowResultSchema).describe('one per row, in the order sent'),
});

export const segmentSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    description: z.string(),
    filter: segmentFilterSchema,
    revision: z.int().min(1).describe('increases with every change; send it as expected_revision to update'),
    created_at: timeSchema,
    updated_at: timeSchema,
  })
  .meta({ id: 'Segment' });
