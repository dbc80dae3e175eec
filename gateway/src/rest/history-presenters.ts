// The history as public JSON: the calls service's timeline items, and the platform-users service's
// e-mail senders and workspace e-mails.
import type { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import type { HistoryItem } from '@voice/proto/voice/calls/v1/history';
import type { EmailSender, WorkspaceEmail } from '@voice/proto/voice/platform/v1/email';
import { emailSenderStatuses, emailStatuses, historyChannels, type emailHistoryItemSchema, type emailSenderSchema, type historyItemSchema } from '@voice/contracts/history';
import { oneOf } from '@voice/contracts/responses';

export const presentEmailSender = (sender: EmailSender): z.infer<typeof emailSenderSchema> => ({
  id: sender.id,
  address: sender.address,
  name: sender.name,
  status: oneOf(emailSenderStatuses, sender.status),
  created_at: toIso(sender.createdAt)!,
  verified_at: toIso(sender.verifiedAt),
});

export const presentEmailHistoryItem = (email: WorkspaceEmail): z.infer<typeof emailHistoryItemSchema> => ({
  id: email.id,
  status: oneOf(emailStatuses, email.status),
  sender_id: email.senderId,
  from: email.from,
  to: email.to,
  subject: email.subject,
  call_id: email.callId || null,
  failure_reason: email.failureReason || null,
  created_at: toIso(email.createdAt)!,
  sent_at: toIso(email.sentAt),
});

export const presentHistoryItem = (item: HistoryItem): z.infer<typeof historyItemSchema> => ({
  id: item.id,
  channel: oneOf(historyChannels, item.channel),
  direction: oneOf(['inbound', 'outbound'] as const, item.direction),
  status: item.status,
  from: item.from,
  to: item.to,
  preview: item.preview || null,
  created_at: toIso(item.createdAt)!,
});
