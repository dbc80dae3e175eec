// The calls service's persistence, in its own words; SQLite and MongoDB adapters implement it and one
// contract suite (test/store.contract.ts) holds them to the same behaviour.
import type { JsonObject } from '@bufbuild/protobuf';
import type { CallDirectionName, CallStatusName } from '@voice/contracts/calls';
import type { NewOutboxEvent, PrunableOutbox } from '@voice/runtime/events';
import type { IdempotencyClaim } from '@voice/runtime/idempotency';
import type { Page } from '@voice/runtime/validation';

export interface CallRecord {
  id: string;
  workspaceId: string;
  status: CallStatusName;
  direction: CallDirectionName;
  /** E.164. */
  from: string;
  to: string;
  /** The workspace number the call uses (internal: what the leg is placed from or arrived on). */
  numberId: string | null;
  assistantId: string;
  assistantVersion: number;
  /** The assistant version's configuration when the call was created: what the runtime runs. */
  assistantConfig: JsonObject;
  variables: JsonObject;
  metadata: JsonObject;
  /** The campaign the call was placed for (the campaigns dialer says); null for any other call. */
  campaignId: string | null;
  /** The longest the call may last: the assistant's limit, or less when the wallet covers less. */
  maxDurationSeconds: number;
  /** Billing's hold for the call's minutes (internal, never shown). */
  holdId: string;
  /** Telephony's id of the carrier leg (internal, never shown). */
  legId: string | null;
  /** The newest leg report applied; older ones are stale. */
  legSequence: number;
  answeredAt: string | null;
  endedAt: string | null;
  durationSeconds: number;
  /** Why the session ended, as the runtime said, until the leg's end state decides the call's. */
  endReason: string | null;
  /** The minutes the call's end billed (its answered seconds rounded as charged), in minute sub-units; 0 before it ends. */
  billedMinuteUnits: number;
  minuteUnitsCharged: number;
  creditUnitsCharged: number;
  summary: string | null;
  verdict: string | null;
  extractedFields: JsonObject;
  hasRecording: boolean;
  /** The usage event that settles the call's hold once it ended (its charge names it); null before. */
  usageEventId: string | null;
  /** Whether what the call was charged is known (minutes and credits charged are final). */
  charged: boolean;
  /** One more with every change after creation: a change applies only to the version it was planned from. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** What a change of a call may set. */
export type CallChanges = Partial<
  Pick<
    CallRecord,
    | 'status'
    | 'legSequence'
    | 'answeredAt'
    | 'endedAt'
    | 'durationSeconds'
    | 'endReason'
    | 'billedMinuteUnits'
    | 'minuteUnitsCharged'
    | 'creditUnitsCharged'
    | 'summary'
    | 'verdict'
    | 'extractedFields'
    | 'hasRecording'
    | 'usageEventId'
    | 'charged'
  >
>;

/** What a stored recording is. */
export interface RecordingInfo {
  sizeBytes: number;
  contentType: string;
}

/** A stored recording as it is read: what it is, and its bytes from `start` to `end` (inclusive). */
export interface RecordingRead extends RecordingInfo {
  body: NodeJS.ReadableStream;
}

/**
 * Who numbered a report: the voice runtime's session (its sequence, shared by every report kind) or
 * the carrier's leg (the leg report's sequence). Each numbers its own reports once.
 */
export type ReportSource = 'session' | 'leg';

/** One report of the call: an event, or a turn of the transcript. */
export type CallReport =
  | { source: ReportSource; kind: 'event'; sequence: number; type: string; at: string; data: JsonObject }
  | { source: ReportSource; kind: 'turn'; sequence: number; role: string; text: string; at: string };

/** A call as it is read: the record and its reports, oldest first (by time, then source and sequence). */
export interface CallView extends CallRecord {
  reports: CallReport[];
}

export interface CallFilter {
  status?: CallStatusName;
  direction?: CallDirectionName;
  assistantId?: string;
  /** From or to this E.164 number. */
  number?: string;
  /** Created at or after. */
  createdFrom?: string;
  /** Created before. */
  createdTo?: string;
}

/**
 * A campaign's calls: how many ended in each state (`active` the ones not ended; `voicemail` the completed
 * ones a voicemail box answered, not counted as `completed`) and their amounts summed.
 */
export interface CampaignCallTotals {
  byStatus: Record<'active' | 'completed' | 'voicemail' | 'no_answer' | 'busy' | 'failed' | 'canceled', number>;
  /** Calls that were answered, ended or not. */
  connected: number;
  billedMinuteUnits: number;
  minuteUnitsCharged: number;
  creditUnitsCharged: number;
}

export type ClaimOutcome = { kind: 'replayed'; call: CallView } | { kind: 'key_reused' };

export interface CallStore {
  /** What an earlier request under the key means for this one; undefined when none binds. */
  claimedCall(workspaceId: string, claim: IdempotencyClaim): Promise<ClaimOutcome | undefined>;
  /** One transaction: the claim decides first (a concurrent request may have won it), then the call and the claim are written. */
  createCall(call: CallRecord, claim?: IdempotencyClaim): Promise<{ kind: 'created'; call: CallView } | ClaimOutcome>;
  getCall(workspaceId: string, id: string): Promise<CallView | undefined>;
  /** Newest first. */
  listCalls(workspaceId: string, filter: CallFilter, page: Page): Promise<{ calls: CallView[]; total: number }>;
  /** The workspace's calls placed for the campaign, counted by state and their amounts summed (by an index on the campaign). */
  summarizeCampaignCalls(workspaceId: string, campaignId: string): Promise<CampaignCallTotals>;
  /** Records the carrier leg placed for a queued call. */
  recordLeg(id: string, legId: string, now: string): Promise<void>;
  /**
   * One transaction: the call could not be placed; it ends `failed` and `releaseEvent` (giving back
   * its hold) enters the outbox. Undefined when the call had already moved on.
   */
  failPlacing(id: string, releaseEvent: NewOutboxEvent, now: string): Promise<CallView | undefined>;
  /** A call by id alone: the voice runtime's session names the call, not its workspace. */
  getCallById(id: string): Promise<CallView | undefined>;
  /** The call whose hold the usage event settles. */
  findCallByUsageEvent(usageEventId: string): Promise<CallView | undefined>;
  /**
   * One transaction, only while the call is still at `expectedVersion`: applies the changes (the
   * version goes up by one), adds the reports (each once by source and sequence) and enters the
   * events in the outbox. The call as changed, or undefined when it had changed meanwhile.
   */
  updateCall(id: string, expectedVersion: number, changes: CallChanges, reports: CallReport[], events: NewOutboxEvent[], now: string): Promise<CallView | undefined>;
  /** Adds reports of the call, each once by source and sequence (a repeated one changes nothing). */
  addReports(callId: string, reports: CallReport[]): Promise<void>;
  /** Stores the call's recording, replacing one it had; refuses (RecordingTooLarge) beyond `maxBytes`. Answers its size. */
  saveRecording(callId: string, contentType: string, chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number>;
  /** What the call's recording is, without reading it; undefined when there is none. */
  describeRecording(callId: string): Promise<RecordingInfo | undefined>;
  /** The recording's bytes `range` (inclusive offsets; all of it without one), or undefined when there is none. */
  openRecording(callId: string, range?: { start: number; end: number }): Promise<RecordingRead | undefined>;
  /** Removes the recording for good; false when there was none. */
  deleteRecording(callId: string): Promise<boolean>;
  /** Events that belong to no call write (the release of a hold for a call never stored). */
  enqueue(events: NewOutboxEvent[]): Promise<void>;
  readonly outbox: PrunableOutbox;
  /** Deletes at most `limit` Idempotency-Key claims made before `createdBefore`, the oldest first; answers how many. */
  pruneIdempotencyClaims(createdBefore: string, limit: number): Promise<number>;
  close(): Promise<void>;
}

/** A recording beyond the size the service keeps: nothing of it is stored. */
export class RecordingTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the recording is larger than ${maxBytes} bytes`);
  }
}
