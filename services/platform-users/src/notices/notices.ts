// Notices to a workspace's owners (a webhook endpoint the platform disabled, ...): one e-mail per
// active owner, queued in the mail outbox under an id made of the notice's and the owner's, so a
// caller that retries its call queues nothing twice.
import type { HandlerContext } from '@connectrpc/connect';
import { internalCallerOf, workspaceCallerOf } from '@voice/runtime/caller';
import type { SecretBox } from '@voice/runtime/crypto';
import { invalidRequest } from '@voice/runtime/errors';
import { derivedId, isUuid } from '@voice/runtime/ids';
import { maxPageLimit } from '@voice/runtime/validation';
import type { SendWorkspaceNoticeRequest } from '@voice/proto/voice/platform/v1/notices';
import type { Member } from '@voice/proto/voice/identity/v1/identity';
import type { IdentityCalls } from '../downstream/identity.js';
import { messageIssues } from '../mail/message-rules.js';
import { htmlOfText } from '../mail/text-html.js';
import type { MailOutboxStore, NewMail } from '../store/store.js';

export interface NoticeDeps {
  identity: IdentityCalls;
  store: MailOutboxStore;
  box: SecretBox;
  /** Asks the mail relay to send now. */
  mailQueued(): void;
  now: () => Date;
}

export class Notices {
  constructor(private readonly deps: NoticeDeps) {}

  async send(request: SendWorkspaceNoticeRequest, context: HandlerContext) {
    internalCallerOf(context, 'only platform services send notices');
    const caller = workspaceCallerOf(context);
    const issues = [
      ...(isUuid(request.noticeId) ? [] : [{ field: 'notice_id', issue: 'must be a UUID' }]),
      ...messageIssues(request.subject, request.text),
    ];
    if (issues.length > 0) throw invalidRequest(issues);
    const on = { workspaceId: caller.workspaceId, requestId: caller.requestId };
    const owners = (await this.owners(on)).filter((member) => member.role === 'owner' && member.status === 'active');
    const createdAt = this.deps.now().toISOString();
    const html = htmlOfText(request.text);
    const mails: NewMail[] = owners.map((owner) => ({
      id: derivedId('workspace-notice', request.noticeId, owner.userId),
      to: owner.email,
      subject: request.subject,
      sealedText: this.deps.box.seal(request.text),
      sealedHtml: this.deps.box.seal(html),
      createdAt,
    }));
    const queued = mails.length > 0 ? await this.deps.store.queueMail(mails) : 0;
    if (queued > 0) this.deps.mailQueued();
    return { queued };
  }

  private async owners(on: { workspaceId: string; requestId: string }): Promise<Member[]> {
    const members: Member[] = [];
    for (;;) {
      const page = await this.deps.identity.listMembers({ limit: maxPageLimit, offset: members.length }, on);
      members.push(...page.members);
      // An empty page ends it too: members removed meanwhile can leave total above what is left.
      if (page.members.length === 0 || members.length >= page.total) return members;
    }
  }
}
