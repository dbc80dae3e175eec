// The WorkspaceEmailService: e-mails a workspace sends from a verified sender (the calls service's
// post-call summaries) go through the one mail outbox, one message per recipient under the caller's
// id, and stay there as the workspace's history with their delivery status.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { emailIssue } from '@voice/runtime/accounts';
import { internalCallerOf, workspaceCallerOf } from '@voice/runtime/caller';
import type { SecretBox } from '@voice/runtime/crypto';
import { invalidRequest, notFound } from '@voice/runtime/errors';
import { isUuid, isUuidOrDerivedId } from '@voice/runtime/ids';
import { toIso } from '@voice/runtime/time';
import { normalisePage } from '@voice/runtime/validation';
import type {
  GetWorkspaceEmailRequest,
  ListWorkspaceEmailsRequest,
  QueueWorkspaceEmailRequest,
  WorkspaceEmailService,
} from '@voice/proto/voice/platform/v1/email';
import { messageIssues } from '../mail/message-rules.js';
import { htmlOfText } from '../mail/text-html.js';
import type { EmailSenderStore, MailOutboxStore, NewMail } from '../store/store.js';
import { presentWorkspaceEmail } from './presenter.js';

export interface WorkspaceEmailDeps {
  store: EmailSenderStore & MailOutboxStore;
  box: SecretBox;
  mailQueued(): void;
  now(): Date;
}

const maxRecipients = 50;

export class WorkspaceEmails implements ServiceImpl<typeof WorkspaceEmailService> {
  constructor(private readonly deps: WorkspaceEmailDeps) {}

  /** A sender deleted or not verified meanwhile records each e-mail failed, unsent, so the history says why. */
  async queueWorkspaceEmail(request: QueueWorkspaceEmailRequest, context: HandlerContext) {
    internalCallerOf(context, 'only platform services send a workspace e-mail');
    const { workspaceId } = workspaceCallerOf(context);
    const issues = [
      ...(isUuid(request.senderId) ? [] : [{ field: 'sender_id', issue: 'must be a UUID' }]),
      ...(request.callId === '' || isUuid(request.callId) ? [] : [{ field: 'call_id', issue: 'must be a UUID' }]),
      ...(request.recipients.length >= 1 && request.recipients.length <= maxRecipients ? [] : [{ field: 'recipients', issue: `must list 1 to ${maxRecipients} recipients` }]),
      ...request.recipients.flatMap((recipient, index) => [
        ...(isUuidOrDerivedId(recipient.emailId) ? [] : [{ field: `recipients.${index}.email_id`, issue: 'must be a UUID' }]),
        ...(emailIssue(recipient.to) ? [{ field: `recipients.${index}.to`, issue: 'must be a valid e-mail address' }] : []),
      ]),
      ...messageIssues(request.subject, request.text),
    ];
    if (issues.length > 0) throw invalidRequest(issues);
    const sender = await this.deps.store.getSender(workspaceId, request.senderId);
    const failure = !sender ? 'the sender was deleted' : sender.status === 'verified' ? undefined : 'the sender is not verified';
    const createdAt = this.deps.now().toISOString();
    const sealedText = this.deps.box.seal(request.text);
    const sealedHtml = this.deps.box.seal(htmlOfText(request.text));
    const mails: NewMail[] = request.recipients.map((recipient) => ({
      id: recipient.emailId,
      to: recipient.to.toLowerCase(),
      subject: request.subject,
      sealedText,
      sealedHtml,
      createdAt,
      ...(sender ? { from: sender.address } : {}),
      workspace: { workspaceId, senderId: request.senderId, callId: request.callId || null },
      ...(failure ? { failure } : {}),
    }));
    if ((await this.deps.store.queueMail(mails)) > 0 && !failure) this.deps.mailQueued();
    const stored = await Promise.all(mails.map((mail) => this.deps.store.getWorkspaceMail(workspaceId, mail.id)));
    return { emails: stored.flatMap((mail) => (mail ? [presentWorkspaceEmail(mail)] : [])) };
  }

  async listWorkspaceEmails(request: ListWorkspaceEmailsRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const address = request.address.trim().toLowerCase();
    if (address && emailIssue(address)) throw invalidRequest([{ field: 'address', issue: 'must be a valid e-mail address' }]);
    const filter = {
      address: address || undefined,
      createdFrom: toIso(request.createdFrom) ?? undefined,
      createdTo: toIso(request.createdTo) ?? undefined,
    };
    const { mails, total } = await this.deps.store.listWorkspaceMail(workspaceId, filter, normalisePage(request.page));
    return { emails: mails.map(presentWorkspaceEmail), total };
  }

  async getWorkspaceEmail(request: GetWorkspaceEmailRequest, context: HandlerContext) {
    const mail = isUuidOrDerivedId(request.id) ? await this.deps.store.getWorkspaceMail(workspaceCallerOf(context).workspaceId, request.id) : undefined;
    if (!mail) throw notFound('e-mail');
    return { email: presentWorkspaceEmail(mail) };
  }
}
