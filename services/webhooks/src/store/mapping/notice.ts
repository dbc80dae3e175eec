// An owner notice's stored form (SQLite's row and MongoDB's document but for the id) and its
// mapping to and from the record.
import type { OwnerNotice } from '../store.js';

export interface StoredNotice {
  workspace_id: string;
  endpoint_id: string;
  url: string;
  failing_since: string;
  created_at: string;
  /** When it was handed to the mail outbox; null while pending. */
  sent_at: string | null;
}

/** A notice just queued: not handed over yet. */
export const storedNotice = (notice: OwnerNotice): StoredNotice => ({
  workspace_id: notice.workspaceId,
  endpoint_id: notice.endpointId,
  url: notice.url,
  failing_since: notice.failingSince,
  created_at: notice.createdAt,
  sent_at: null,
});

export const noticeFromStored = (id: string, stored: StoredNotice): OwnerNotice => ({
  id,
  workspaceId: stored.workspace_id,
  endpointId: stored.endpoint_id,
  url: stored.url,
  failingSince: stored.failing_since,
  createdAt: stored.created_at,
});
