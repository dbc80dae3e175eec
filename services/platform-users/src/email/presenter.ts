// E-mail senders and a workspace's e-mails as EmailSenderService and WorkspaceEmailService messages.
import { create } from '@bufbuild/protobuf';
import { toTimestamp } from '@voice/runtime/time';
import { EmailSenderSchema, WorkspaceEmailSchema, type EmailSender, type WorkspaceEmail } from '@voice/proto/voice/platform/v1/email';
import { workspaceMailStatusOf, type EmailSenderRecord, type MailRecord } from '../store/store.js';

export const presentEmailSender = (sender: EmailSenderRecord): EmailSender =>
  create(EmailSenderSchema, {
    id: sender.id,
    address: sender.address,
    name: sender.name,
    status: sender.status,
    createdAt: toTimestamp(sender.createdAt),
    verifiedAt: sender.verifiedAt ? toTimestamp(sender.verifiedAt) : undefined,
  });

export function presentWorkspaceEmail(mail: MailRecord): WorkspaceEmail {
  const status = workspaceMailStatusOf(mail);
  return create(WorkspaceEmailSchema, {
    id: mail.id,
    senderId: mail.workspace?.senderId ?? '',
    from: mail.from ?? '',
    to: mail.to,
    subject: mail.subject,
    status,
    callId: mail.workspace?.callId ?? '',
    failureReason: status === 'failed' ? failureReasonOf(mail) : '',
    createdAt: toTimestamp(mail.createdAt),
    sentAt: mail.sentAt ? toTimestamp(mail.sentAt) : undefined,
  });
}

/**
 * Why the e-mail failed, in the platform's words: a refusal at queue time says its own reason; a
 * delivery given up never repeats the SMTP server's error, which can name hosts and addresses inside.
 */
const failureReasonOf = (mail: MailRecord): string =>
  mail.attempts === 0 ? (mail.lastError ?? '') : 'the mail server did not accept the message; the platform stopped retrying';
