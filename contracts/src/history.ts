// The history and e-mail API's contract (issue 16): e-mail senders, the workspace's timeline of
// conversations (calls, SMS, e-mails) and its e-mails.
import { z } from 'zod';
import { pageQueryFields } from '@voice/runtime/validation';
import { idSchema, timeSchema } from './responses.js';
import { emailField } from './identity.js';

/** Body of POST /email-senders. */
export const createEmailSenderBodySchema = z.strictObject({
  address: emailField.describe('the address e-mails will come from; a confirmation link is e-mailed to it'),
  name: z
    .string()
    .trim()
    .max(100)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must be one line')
    .optional()
    .describe('a label for the sender in lists'),
});

export const emailSenderStatuses = ['pending', 'verified'] as const;

export const emailSenderSchema = z
  .object({
    id: idSchema,
    address: z.string().describe('the From address, lower case'),
    name: z.string().describe('the label given when it was added; empty for none'),
    status: z.enum(emailSenderStatuses).describe('pending until the confirmation link e-mailed to the address is opened and confirmed; only a verified sender sends'),
    created_at: timeSchema,
    verified_at: timeSchema.nullable(),
  })
  .meta({ id: 'EmailSender' });

export const emailStatuses = ['queued', 'sent', 'failed'] as const;

export const emailHistoryItemSchema = z
  .object({
    id: z.uuid().describe('UUID; a summary e-mail’s is derived from its call and recipient (version 8), so a retry names it again'),
    status: z.enum(emailStatuses).describe('queued while the platform sends or retries it, sent once the mail server accepted it, failed when it was refused or given up'),
    sender_id: idSchema.describe('the e-mail sender it went out from'),
    from: z.string().describe('the From address; empty when its sender was deleted before it was sent'),
    to: z.string(),
    subject: z.string(),
    call_id: idSchema.nullable().describe('the call the e-mail summarises'),
    failure_reason: z.string().nullable().describe('why it failed; null unless failed'),
    created_at: timeSchema,
    sent_at: timeSchema.nullable(),
  })
  .meta({ id: 'EmailHistoryItem' });

export const historyChannels = ['call', 'sms', 'email'] as const;
export type HistoryChannel = (typeof historyChannels)[number];

/** How deep the merged timeline may be paged (offset + limit): deeper, a narrower time range pages on. */
export const maxTimelineDepth = 1000;

/** Query of GET /history. */
export const listHistoryQuerySchema = z.strictObject({
  channel: z.enum(historyChannels).optional().describe('only calls, only SMS or only e-mails'),
  contact: z
    .string()
    .max(320)
    .optional()
    .describe('only conversations with this contact: a phone number in international format (calls and SMS from or to it) or an e-mail address (e-mails from or to it)'),
  created_from: z.iso.datetime().optional().describe('only items created at or after this RFC 3339 time'),
  created_to: z.iso.datetime().optional().describe('only items created before this RFC 3339 time'),
  ...pageQueryFields,
});

export const historyItemSchema = z
  .object({
    id: z.uuid().describe('the call’s (GET /calls/{id}), SMS’s or e-mail’s (GET /history/emails/{id}) id'),
    channel: z.enum(historyChannels),
    direction: z.enum(['inbound', 'outbound']),
    status: z.string().describe('the channel’s own status: a call’s (queued … completed), an SMS’s (queued, sent, delivered, failed) or an e-mail’s (queued, sent, failed)'),
    from: z.string().describe('a phone number in international format, or an e-mail address'),
    to: z.string(),
    preview: z.string().nullable().describe('the call’s summary, the SMS’s text or the e-mail’s subject'),
    created_at: timeSchema,
  })
  .meta({ id: 'HistoryItem' });
