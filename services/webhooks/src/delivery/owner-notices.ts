// Tells a workspace's owners that the platform disabled one of its endpoints: each notice the store
// queued with the disabling is handed to platform-users' mail outbox (NoticeService, idempotent by
// the notice's id) and marked sent; one that cannot be handed over now is tried on the next run.
import type { Client } from '@connectrpc/connect';
import { callHeaders, type CallerSigner } from '@voice/runtime/caller';
import type { Logger } from '@voice/runtime/logger';
import type { NoticeService } from '@voice/proto/voice/platform/v1/notices';
import type { DeliveryStore, OwnerNotice } from '../store/store.js';

const principal = { type: 'internal' as const, id: 'webhooks', name: 'webhooks' };

export const disabledNoticeText = (notice: OwnerNotice): string =>
  [
    `The webhook endpoint ${notice.url} (${notice.endpointId}) has failed every delivery since ${notice.failingSince}, for three days, and the platform disabled it.`,
    '',
    'No events are sent to it while it is disabled, and its pending deliveries were failed. Once it answers again, enable it with PATCH /api/v1/webhooks/{id} {"enabled": true}; its delivery log (GET /api/v1/webhooks/{id}/deliveries) lists what it missed, and POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/retry sends any of them again.',
  ].join('\n');

export class OwnerNotices {
  constructor(
    private readonly deps: { store: DeliveryStore; notices: Client<typeof NoticeService>; signer: CallerSigner; logger: Logger },
  ) {}

  /** Hands every pending notice over; answers how many were. */
  async flush(now: Date, limit: number): Promise<number> {
    let sent = 0;
    for (const notice of await this.deps.store.pendingNotices(limit)) {
      try {
        await this.deps.notices.sendWorkspaceNotice(
          { noticeId: notice.id, subject: 'A webhook endpoint was disabled', text: disabledNoticeText(notice) },
          { headers: callHeaders(this.deps.signer, { workspaceId: notice.workspaceId, principal, scopes: null, requestId: `notice-${notice.id}` }) },
        );
      } catch (error) {
        this.deps.logger.warn('owner notice not handed to the mail outbox; trying again on the next run', { notice_id: notice.id, error });
        continue;
      }
      await this.deps.store.markNoticeSent(notice.id, now.toISOString());
      sent += 1;
    }
    return sent;
  }
}
