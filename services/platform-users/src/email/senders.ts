// The EmailSenderService: a workspace's senders, and the confirmation link that verifies one. A new
// sender is stored pending with its confirmation e-mail in one transaction; the link (see
// confirmation-tokens.ts) lands on the gateway's page, which asks what it confirms and then confirms.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { emailIssue } from '@voice/runtime/accounts';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { constantTimeEqual, type SecretBox } from '@voice/runtime/crypto';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { derivedId, isUuid, newId } from '@voice/runtime/ids';
import { normalisePage } from '@voice/runtime/validation';
import {
  ConfirmationState,
  type ConfirmEmailSenderRequest,
  type CreateEmailSenderRequest,
  type DeleteEmailSenderRequest,
  type EmailSenderService,
  type GetEmailSenderConfirmationRequest,
  type GetEmailSenderRequest,
  type ListEmailSendersRequest,
} from '@voice/proto/voice/platform/v1/email';
import { htmlOfText } from '../mail/text-html.js';
import type { EmailSenderRecord, EmailSenderStore, NewMail } from '../store/store.js';
import { confirmationHashOf, type ConfirmationTokens } from './confirmation-tokens.js';
import { presentEmailSender } from './presenter.js';

export interface EmailSenderDeps {
  store: EmailSenderStore;
  box: SecretBox;
  tokens: ConfirmationTokens;
  /** How long a confirmation link works. */
  confirmationTtlSeconds: number;
  /** The gateway's external base address: where the link lands. */
  publicUrl: string;
  /** Asks the mail relay to send now. */
  mailQueued(): void;
  now(): Date;
}

export const confirmationPath = '/email-senders/confirm';

export class EmailSenders implements ServiceImpl<typeof EmailSenderService> {
  constructor(private readonly deps: EmailSenderDeps) {}

  async listEmailSenders(request: ListEmailSendersRequest, context: HandlerContext) {
    const { senders, total } = await this.deps.store.listSenders(workspaceCallerOf(context).workspaceId, normalisePage(request.page));
    return { senders: senders.map(presentEmailSender), total };
  }

  async createEmailSender(request: CreateEmailSenderRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const address = request.address.trim().toLowerCase();
    const name = request.name.trim();
    const addressIssue = emailIssue(address);
    const issues = [
      ...(addressIssue ? [{ field: 'address', issue: addressIssue }] : []),
      ...(name.length <= 100 && !/[\u0000-\u001f\u007f]/.test(name) ? [] : [{ field: 'name', issue: 'must be one line of at most 100 characters' }]),
    ];
    if (issues.length > 0) throw invalidRequest(issues);
    const now = this.deps.now();
    const id = newId();
    const link = this.deps.tokens.issue(id, this.deps.confirmationTtlSeconds, now);
    const sender: EmailSenderRecord = {
      id,
      workspaceId: caller.workspaceId,
      address,
      name,
      status: 'pending',
      confirmationHash: link.nonceHash,
      createdAt: now.toISOString(),
      verifiedAt: null,
    };
    const outcome = await this.deps.store.insertSenderWithMail(sender, this.confirmationMail(sender, link.token, link.expiresAt));
    if (outcome === 'address_taken') throw serviceError('conflict', 'the workspace already has a sender with this address; delete it to start again');
    this.deps.mailQueued();
    return { sender: presentEmailSender(sender) };
  }

  async getEmailSender(request: GetEmailSenderRequest, context: HandlerContext) {
    return { sender: presentEmailSender(await this.load(request.id, context)) };
  }

  async deleteEmailSender(request: DeleteEmailSenderRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    if (!isUuid(request.id) || !(await this.deps.store.deleteSender(caller.workspaceId, request.id))) throw notFound('e-mail sender');
    return {};
  }

  /** Changes nothing: a mail scanner that fetches the link does not use it up. */
  async getEmailSenderConfirmation(request: GetEmailSenderConfirmationRequest) {
    const reading = this.deps.tokens.read(request.token, this.deps.now());
    if (reading.kind === 'invalid') return { state: ConfirmationState.INVALID, address: '' };
    const sender = await this.deps.store.getSenderById(reading.claim.senderId);
    const waiting = sender?.status === 'pending' && sender.confirmationHash !== null && constantTimeEqual(sender.confirmationHash, confirmationHashOf(reading.claim));
    if (!waiting) return { state: ConfirmationState.INVALID, address: '' };
    return reading.kind === 'expired' ? { state: ConfirmationState.EXPIRED, address: sender.address } : { state: ConfirmationState.VALID, address: sender.address };
  }

  /** Verifies once: the store's conditional update lets one of concurrent confirmations through. */
  async confirmEmailSender(request: ConfirmEmailSenderRequest) {
    const reading = this.deps.tokens.read(request.token, this.deps.now());
    if (reading.kind === 'invalid') return { state: ConfirmationState.INVALID, address: '' };
    if (reading.kind === 'expired') return { state: ConfirmationState.EXPIRED, address: '' };
    const verified = await this.deps.store.verifySender(reading.claim.senderId, confirmationHashOf(reading.claim), this.deps.now().toISOString());
    return verified ? { state: ConfirmationState.CONFIRMED, address: verified.address } : { state: ConfirmationState.INVALID, address: '' };
  }

  private async load(id: string, context: HandlerContext): Promise<EmailSenderRecord> {
    const sender = isUuid(id) ? await this.deps.store.getSender(workspaceCallerOf(context).workspaceId, id) : undefined;
    if (!sender) throw notFound('e-mail sender');
    return sender;
  }

  private confirmationMail(sender: EmailSenderRecord, token: string, expiresAt: Date): NewMail {
    const link = `${this.deps.publicUrl}${confirmationPath}/${token}`;
    const text = [
      `A workspace asked to send e-mail from ${sender.address}.`,
      '',
      'Open this link to confirm that it may:',
      link,
      '',
      `The link works once, until ${expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}. If you did not expect this, ignore this e-mail: nothing is sent from this address without it.`,
    ].join('\n');
    return {
      id: derivedId('email-sender-confirmation', sender.id),
      to: sender.address,
      subject: 'Confirm this address as an e-mail sender',
      sealedText: this.deps.box.seal(text),
      sealedHtml: this.deps.box.seal(htmlOfText(text)),
      createdAt: sender.createdAt,
    };
  }
}
