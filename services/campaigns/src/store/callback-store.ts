// The callbacks' persistence, in the service's own words: the part of CampaignStore (its `callbacks`)
// that keeps them and moves them from one status to the next by conditional writes only.
import type { Page } from '@voice/runtime/validation';
import type { CallbackFailureReason, CallbackStatus } from '@voice/contracts/callbacks';
import type { LeadVariables } from './store.js';

export interface CallbackRecord {
  id: string;
  workspaceId: string;
  campaignId: string;
  /** Null for a caller's number. */
  leadId: string | null;
  /** E.164. */
  phone: string;
  /** The person's zone as given; null when the lead's or the campaign window's applies. */
  timeZone: string | null;
  /** When to call, not before. */
  at: string;
  variables: LeadVariables;
  note: string;
  status: CallbackStatus;
  failureReason: CallbackFailureReason | null;
  attempts: number;
  callId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CallbackFilter {
  status?: CallbackStatus;
  campaignId?: string;
  leadId?: string;
}

/** Which callback a conditional write applies to: its status is one of `statuses` (and its attempts as given). */
export interface CallbackCondition {
  statuses: readonly CallbackStatus[];
  attempts?: number;
}

/** What a conditional write changes; updated_at always becomes `now`. */
export interface CallbackChange {
  status: CallbackStatus;
  attempts?: number;
  failureReason?: CallbackFailureReason;
  callId?: string;
}

export interface CallbackPart {
  insertCallback(callback: CallbackRecord): Promise<void>;
  getCallback(workspaceId: string, id: string): Promise<CallbackRecord | undefined>;
  /** Newest first. */
  listCallbacks(workspaceId: string, filter: CallbackFilter, page: Page): Promise<{ callbacks: CallbackRecord[]; total: number }>;
  /**
   * Applies the change only while the callback meets the condition, atomically: a cancel, the
   * dialer's claim and a call's end never both win. Answers the callback as changed, or undefined.
   */
  transitionCallback(workspaceId: string, id: string, when: CallbackCondition, change: CallbackChange, now: string): Promise<CallbackRecord | undefined>;
  /**
   * Callbacks of every workspace the dialer should hold a job for: scheduled ones due by `dueBy`, and
   * dialing ones whose call was never recorded; earliest first.
   */
  listDueCallbacks(dueBy: string, page: Page): Promise<CallbackRecord[]>;
}

/** Whether the callback meets a conditional write's condition. */
export const callbackMeets = (callback: CallbackRecord, when: CallbackCondition): boolean =>
  when.statuses.includes(callback.status) && (when.attempts === undefined || callback.attempts === when.attempts);

/** The callback after a conditional write's change. */
export const changedCallback = (callback: CallbackRecord, change: CallbackChange, now: string): CallbackRecord => ({
  ...callback,
  status: change.status,
  attempts: change.attempts ?? callback.attempts,
  failureReason: change.failureReason ?? callback.failureReason,
  callId: change.callId ?? callback.callId,
  updatedAt: now,
});
