// The webhooks API's contract: endpoint bodies and answers, deliveries, the workspace's webhook
// settings, and the events the platform sends (their envelope and each type's data), with the
// signature scheme every delivery carries.
import { z } from 'zod';
import { networkFailureReasons } from '@voice/runtime/egress';
import { creditsSchema, idSchema, timeSchema } from './responses.js';
import { callSchema } from './calls.js';
import { leadCountsSchema } from './campaigns.js';
import { phoneNumberSchema, smsMessageSchema } from './telephony/responses.js';

/** The event types an endpoint may ask for. */
export const webhookEventTypes = ['call.started', 'call.ended', 'sms.status', 'campaign.completed', 'number.past_due', 'number.released', 'balance.low'] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** The event POST /webhooks/{id}/test sends, to whichever types the endpoint asks for. */
export const pingEventType = 'ping';

export const deliveryStatuses = ['pending', 'delivered', 'failed'] as const;

/** Why an attempt got no HTTP answer: the network failures, or a destination the egress guard refused. */
export const deliveryAttemptErrors = [...networkFailureReasons, 'destination_forbidden'] as const;

export const endpointDisabledReasons = ['failing'] as const;

/** The header every delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one v1 per active secret. */
export const signatureHeader = 'Voice-Signature';

export const webhookSecretPrefix = 'whsec_';

/** How long a failed delivery is retried, and how long an endpoint may fail every delivery before it is disabled. */
export const webhookRetryWindowDays = 3;

/** How long the secret before a rotation keeps signing beside the new one. */
export const secretRotationOverlapHours = 24;

/** How long a receiver has to answer unless the operator set VOICE_WEBHOOK_TIMEOUT_MS. */
export const defaultWebhookTimeoutMs = 10_000;

const unique = <T>(items: T[]) => new Set(items).size === items.length;

const urlField = z
  .string()
  .max(2048)
  .refine((value) => URL.canParse(value) && ['https:', 'http:'].includes(new URL(value).protocol), 'must be an absolute https URL')
  .meta({ format: 'uri' })
  .describe('where events are POSTed: https (plain http only to private addresses the operator allows)');

const eventTypesField = z
  .array(z.enum(webhookEventTypes))
  .min(1)
  .max(webhookEventTypes.length)
  .refine(unique, 'lists an event type twice')
  .describe('the event types sent to the endpoint');

const descriptionField = z.string().max(500).describe('what the endpoint is for');

/** Body of POST /webhooks. */
export const createWebhookBodySchema = z.strictObject({
  url: urlField,
  description: descriptionField.optional(),
  event_types: eventTypesField,
  enabled: z.boolean().optional().describe('whether events are sent to it; default true'),
});

/** Body of PATCH /webhooks/{id}: the fields to change. Enabling an endpoint the platform disabled starts its failure clock again. */
export const updateWebhookBodySchema = z.strictObject({
  url: urlField.optional(),
  description: descriptionField.optional(),
  event_types: eventTypesField.optional(),
  enabled: z.boolean().optional().describe('whether events are sent to it'),
});

/** Body of PATCH /settings/webhooks. */
export const updateWebhookSettingsBodySchema = z.strictObject({
  balance_low_threshold: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,4})?$/)
    .nullable()
    .optional()
    .describe('send balance.low when the available credits fall below this many credits (up to 4 decimal places); null turns it off'),
});

// ---------------------------------------------------------------------------------------------
// Answers

export const webhookEndpointSchema = z
  .object({
    id: idSchema,
    url: z.string().describe('where events are POSTed'),
    description: z.string().describe('what the endpoint is for'),
    event_types: z.array(z.enum(webhookEventTypes)).describe('the event types sent to the endpoint'),
    enabled: z.boolean().describe('whether events are sent to it'),
    secret_hint: z.string().describe('the newest signing secret’s prefix and last four characters; the secret itself is shown only when created'),
    previous_secret_expires_at: timeSchema.nullable().describe('until when the secret before the last rotation still signs beside the new one'),
    failing_since: timeSchema.nullable().describe('since when every delivery to it has failed; null while it answers'),
    disabled_reason: z.enum(endpointDisabledReasons).nullable().describe(`failing: the platform disabled it after ${webhookRetryWindowDays} days of failed deliveries and e-mailed the workspace owner`),
    created_at: timeSchema,
    updated_at: timeSchema,
  })
  .meta({ id: 'WebhookEndpoint' });

export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({
    secret: z
      .string()
      .regex(new RegExp(`^${webhookSecretPrefix}[A-Za-z0-9]+$`))
      .meta({ examples: [`${webhookSecretPrefix}4eC39HqLyjWDarjtT1zdp7dcXk2pQm8vN5bR7sTa`] })
      .describe('the signing secret (whsec_…), shown in this answer only'),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });

export const deliveryAttemptSchema = z.object({
  at: timeSchema.describe('when the attempt started'),
  status_code: z.int().nullable().describe('the receiver’s HTTP status; null when no answer came'),
  latency_ms: z.int().min(0).describe('from the request’s start to the end of the answer or failure'),
  error: z.enum(deliveryAttemptErrors).nullable().describe('why no answer came; null when one did'),
});

export const webhookDeliverySchema = z
  .object({
    id: idSchema,
    endpoint_id: idSchema,
    event_id: z.string().describe('the event’s id, the same in every delivery of it: receivers dedupe by it'),
    event_type: z.enum([...webhookEventTypes, pingEventType]),
    status: z.enum(deliveryStatuses).describe('pending (being sent or retried), delivered (a 2xx answer) or failed (given up, or the endpoint was disabled)'),
    attempts: z.array(deliveryAttemptSchema).describe('every attempt, oldest first'),
    next_attempt_at: timeSchema.nullable().describe('when the next attempt is due; null once delivered or failed'),
    created_at: timeSchema,
    delivered_at: timeSchema.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookSettingsSchema = z
  .object({
    balance_low_threshold: creditsSchema.nullable().describe('balance.low is sent when the available credits fall below this; null: never'),
  })
  .meta({ id: 'WebhookSettings' });

/** Query of GET /webhooks/{id}/deliveries beyond the page. */
export const deliveryStatusQuery = z.enum(deliveryStatuses).optional().describe('only deliveries in this status');

// ---------------------------------------------------------------------------------------------
// The events, as receivers get them

export const pingDataSchema = z.object({ endpoint_id: idSchema.describe('the endpoint the ping was sent to') });

export const balanceLowDataSchema = z.object({
  available: creditsSchema.describe('the credits still available (the balance less open holds) when it fell below the threshold'),
  threshold: creditsSchema.describe('the workspace’s threshold'),
});

export const campaignCompletedDataSchema = z.object({
  id: idSchema.describe('the campaign’s id'),
  name: z.string().describe('the campaign’s name'),
  completed_at: timeSchema.describe('when its last lead was settled and it completed'),
  leads: leadCountsSchema.describe('its leads by status when it completed (none pending, calling or retry_scheduled)'),
});

export type CampaignCompletedData = z.infer<typeof campaignCompletedDataSchema>;

/** The data of each event type the platform sends today, as the API shows the same resource. */
export const webhookEventData = {
  ping: pingDataSchema,
  'call.started': callSchema,
  'call.ended': callSchema,
  'sms.status': smsMessageSchema,
  'number.past_due': phoneNumberSchema,
  'number.released': phoneNumberSchema,
  'campaign.completed': campaignCompletedDataSchema,
  'balance.low': balanceLowDataSchema,
} as const;

export type SentEventType = keyof typeof webhookEventData;

const descriptions: Record<SentEventType, string> = {
  ping: 'Sent by POST /webhooks/{id}/test.',
  'call.started': 'A call was answered; data is the call as GET /calls/{id} shows it then.',
  'call.ended': 'A call ended and its charge is known (the conversation-ended event); data is the call as GET /calls/{id} shows it.',
  'sms.status': 'An SMS message’s status changed (sent, delivered or failed); data is the message as GET /sms/messages/{id} shows it.',
  'number.past_due': 'A number’s monthly fee could not be charged; data is the number as GET /phone-numbers/{id} shows it.',
  'number.released': 'A number was released after its grace period without payment; data is the number as it was last shown.',
  'campaign.completed':
    'A running campaign has no lead left to call (every lead completed, failed, do_not_call or removed) and completed; data is its id, name, completion time and leads counted by status. Sent once per run: the event id is the same for every copy of one completion.',
  'balance.low': 'The workspace’s available credits fell below its threshold (PATCH /settings/webhooks); sent once per crossing.',
};

/** The body of one event of `type`: what is signed and POSTed. */
export const webhookEventSchema = <T extends SentEventType>(type: T) =>
  z
    .object({
      id: z.string().describe('the event’s id: the same in every delivery and retry of it'),
      type: z.literal(type),
      created_at: timeSchema.describe('when the event happened'),
      data: webhookEventData[type],
    })
    .describe(descriptions[type]);

export type WebhookEvent = { id: string; type: string; created_at: string; data: unknown };
