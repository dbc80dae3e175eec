// The telephony service's persistence, in its own words; SQLite and MongoDB adapters implement
// it and one contract suite (test/store.contract.ts) holds them to the same behaviour.
import type { NewOutboxEvent, PrunableOutbox } from '@voice/runtime/events';
import type { IdempotencyClaim } from '@voice/runtime/idempotency';
import type { CallStatusName } from '@voice/contracts/calls';
import type { Page } from '@voice/runtime/validation';
import type { LegChange } from '../domain/call-legs.js';

export type NumberSource = 'marketplace' | 'imported';

export interface NumberRecord {
  id: string;
  workspaceId: string;
  /** E.164; unique across the platform (one workspace holds a number at a time). */
  number: string;
  country: string;
  source: NumberSource;
  smsCapable: boolean;
  voiceCapable: boolean;
  smsOutboundEnabled: boolean;
  carrierConnectionId: string | null;
  a2pCampaignId: string | null;
  name: string;
  assistantId: string | null;
  /** The workspace's SIP trunk the number's calls go through, if any. */
  sipTrunkId: string | null;
  /**
   * When the next monthly fee is due (an anniversary of the purchase); null for imported numbers,
   * which their own carrier account pays for.
   */
  renewsAt: string | null;
  /** When a fee due at `renewsAt` was first refused; null while the number is paid up. */
  pastDueSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NumberChanges {
  smsOutboundEnabled?: boolean;
  name?: string;
  /** null clears the link. */
  assistantId?: string | null;
  a2pCampaignId?: string | null;
}

export type CarrierProvider = 'sandbox' | 'twilio';

export interface ConnectionRecord {
  id: string;
  workspaceId: string;
  name: string;
  provider: CarrierProvider;
  /** Empty for the sandbox. */
  baseUrl: string;
  /** Sealed (SecretBox) account id and auth token. */
  sealedAccountSid: string;
  sealedAuthToken: string;
  createdAt: string;
  updatedAt: string;
}

export interface ConnectionChanges {
  name?: string;
  baseUrl?: string;
  sealedAccountSid?: string;
  sealedAuthToken?: string;
}

export type CampaignStatus = 'pending' | 'approved' | 'rejected';

export interface CampaignRecord {
  id: string;
  workspaceId: string;
  name: string;
  carrierConnectionId: string;
  useCase: string;
  description: string;
  sampleMessages: string[];
  status: CampaignStatus;
  rejectionReason: string;
  createdAt: string;
  updatedAt: string;
}

export interface SuppressionRecord {
  id: string;
  workspaceId: string;
  /** E.164; unique within a workspace. */
  number: string;
  reason: string;
  createdAt: string;
}

/**
 * 'sending' exists only from the start of a send (before its hold) to the carrier's answer;
 * clients never see it.
 */
export type MessageStatus = 'sending' | 'queued' | 'sent' | 'delivered' | 'failed';

export interface MessageRecord {
  id: string;
  workspaceId: string;
  fromNumberId: string;
  from: string;
  to: string;
  body: string;
  segments: number;
  encoding: 'GSM-7' | 'UCS-2';
  creditUnits: number;
  status: MessageStatus;
  failureReason: string;
  /** The connection whose carrier took it, or null for the platform's carrier. */
  carrierConnectionId: string | null;
  /** Set when the carrier accepted it; unique per connection. */
  carrierMessageId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A send made under an Idempotency-Key (kept 24 hours). */
export type SendClaim = IdempotencyClaim;

/** What an Idempotency-Key an earlier send holds decides for a new one. */
export type ClaimOutcome =
  /** The key's first request finished: its message as that request answered it (later delivery reports aside). */
  | { kind: 'replayed'; message: MessageRecord }
  /** The key's first request is still with the carrier. */
  | { kind: 'in_progress' }
  | { kind: 'key_reused' };

export type BeginOutcome = { kind: 'begun' } | ClaimOutcome;

export type DeliveryUpdate = { status: 'queued' | 'sent' | 'delivered' | 'failed'; failureReason?: string; at: string };

/** Phone numbers. insertNumber answers 'number_taken' when any workspace holds the number. */
export interface NumberStore {
  /** The usage event that captures the first month's hold enters the outbox in the same transaction. */
  insertNumber(number: NumberRecord, usageEvent?: NewOutboxEvent): Promise<{ kind: 'created'; number: NumberRecord } | { kind: 'number_taken' }>;
  getNumber(workspaceId: string, id: string): Promise<NumberRecord | undefined>;
  /** The workspace's number with this E.164 form (numbers are unique across the platform). */
  findNumber(workspaceId: string, number: string): Promise<NumberRecord | undefined>;
  /** Newest first. */
  /** Newest first; with `assistantId`, only the numbers that assistant answers. */
  listNumbers(workspaceId: string, page: Page, assistantId?: string): Promise<{ numbers: NumberRecord[]; total: number }>;
  /** The number some workspace holds with this E.164 form (a carrier's inbound call names only that). */
  numberHeldAs(number: string): Promise<NumberRecord | undefined>;
  /** Which of these E.164 numbers some workspace holds. */
  heldNumbers(numbers: string[]): Promise<Set<string>>;
  updateNumber(workspaceId: string, id: string, changes: NumberChanges, now: string): Promise<NumberRecord | undefined>;
  deleteNumber(workspaceId: string, id: string): Promise<boolean>;
}

/** The monthly fees of bought numbers. */
export interface RenewalStore {
  /** Bought numbers whose fee is due by `now` (past-due ones included), the longest due first. */
  dueRenewals(now: string, limit: number): Promise<NumberRecord[]>;
  /**
   * One transaction, only while the number is still due at `dueAt` (a racing renewal settles it
   * once): the fee is paid, the next one is due at `nextAt`, the number is no longer past due, and
   * the usage event capturing the fee's hold (none for a free number) enters the outbox.
   */
  renewNumber(id: string, dueAt: string, nextAt: string, usageEvent: NewOutboxEvent | undefined, now: string): Promise<NumberRecord | undefined>;
  /**
   * Marks the number past due since `now`, only while its fee is due at `dueAt` and it is not past due
   * yet, with the event `eventOf` makes of the marked number in the outbox.
   */
  markPastDue(id: string, dueAt: string, now: string, eventOf: (number: NumberRecord) => NewOutboxEvent): Promise<NumberRecord | undefined>;
  /**
   * Removes a past-due number whose fee due at `dueAt` was never paid, with the event `eventOf` makes of
   * it as it was in the outbox; false when it was paid or removed meanwhile.
   */
  deleteUnpaidNumber(id: string, dueAt: string, eventOf: (number: NumberRecord) => NewOutboxEvent): Promise<boolean>;
}

/** Carrier connections. deleteConnection refuses ('in_use') while a number or campaign uses it. */
export interface ConnectionStore {
  insertConnection(connection: ConnectionRecord): Promise<ConnectionRecord>;
  getConnection(workspaceId: string, id: string): Promise<ConnectionRecord | undefined>;
  /** For callbacks, which name a connection but no workspace. */
  getConnectionById(id: string): Promise<ConnectionRecord | undefined>;
  listConnections(workspaceId: string, page: Page): Promise<{ connections: ConnectionRecord[]; total: number }>;
  updateConnection(workspaceId: string, id: string, changes: ConnectionChanges, now: string): Promise<ConnectionRecord | undefined>;
  deleteConnection(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'>;
}

export type SipTransportName = 'udp' | 'tcp' | 'tls';
export type SipTrunkDirection = 'inbound' | 'outbound' | 'both';

export interface SipTrunkRecord {
  id: string;
  workspaceId: string;
  name: string;
  address: string;
  transport: SipTransportName;
  direction: SipTrunkDirection;
  /** Empty when the trunk takes no authentication. */
  username: string;
  /** Sealed (SecretBox); null without authentication. */
  sealedPassword: string | null;
  /** The workspace's numbers routed through it (read from the numbers; ignored on insert). */
  numberIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface SipTrunkChanges {
  name?: string;
  address?: string;
  transport?: SipTransportName;
  direction?: SipTrunkDirection;
  username?: string;
  /** null removes it. */
  sealedPassword?: string | null;
  /** Replaces the numbers routed through the trunk. */
  numberIds?: string[];
}

/** Why numbers could not be routed through a trunk: not numbers of the workspace, or routed through another trunk. */
export type RoutingRefusal = { kind: 'numbers_not_found'; ids: string[] } | { kind: 'numbers_taken'; ids: string[] };

/**
 * SIP trunks. The routing is kept on the numbers (a number goes through one trunk at most), so a
 * released number leaves its trunk by itself; a trunk's writes and its numbers' routing change in
 * one transaction.
 */
export interface SipTrunkStore {
  /** 'limit_reached' when the workspace already holds `limit` trunks. */
  insertSipTrunk(trunk: SipTrunkRecord, numberIds: string[], limit: number): Promise<{ kind: 'created'; trunk: SipTrunkRecord } | RoutingRefusal | { kind: 'limit_reached' }>;
  getSipTrunk(workspaceId: string, id: string): Promise<SipTrunkRecord | undefined>;
  /** Newest first. */
  listSipTrunks(workspaceId: string, page: Page): Promise<{ trunks: SipTrunkRecord[]; total: number }>;
  updateSipTrunk(workspaceId: string, id: string, changes: SipTrunkChanges, now: string): Promise<{ kind: 'updated'; trunk: SipTrunkRecord } | RoutingRefusal | { kind: 'not_found' }>;
  /** 'in_use' while numbers are routed through it. */
  deleteSipTrunk(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'>;
}

export type CallerIdStatus = 'pending' | 'verified' | 'failed';

export interface CallerIdRecord {
  id: string;
  workspaceId: string;
  /** E.164; one live caller ID per number and workspace. */
  phoneNumber: string;
  label: string;
  method: 'sms' | 'call';
  status: CallerIdStatus;
  /** Keyed hash of the code sent (never the code). */
  codeHash: string;
  codeExpiresAt: string;
  /** Wrong codes checked so far. */
  attempts: number;
  verifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a checked code does to a pending caller ID. */
export type CodeOutcome = { kind: 'verified' } | { kind: 'wrong'; maxAttempts: number };

/**
 * Caller IDs. A number has one live caller ID per workspace: a new one replaces a failed one, or a
 * pending one whose code expired; otherwise insertCallerId answers 'exists'.
 */
export interface CallerIdStore {
  insertCallerId(callerId: CallerIdRecord): Promise<{ kind: 'created' } | { kind: 'exists' }>;
  getCallerId(workspaceId: string, id: string): Promise<CallerIdRecord | undefined>;
  /** Newest first. */
  listCallerIds(workspaceId: string, page: Page): Promise<{ callerIds: CallerIdRecord[]; total: number }>;
  deleteCallerId(workspaceId: string, id: string): Promise<boolean>;
  /**
   * One transaction: the code was sent (the usage event capturing its price enters the outbox). False
   * when the caller ID is gone meanwhile.
   */
  recordCodeSent(id: string, usageEvent: NewOutboxEvent | undefined, now: string): Promise<boolean>;
  /**
   * Applies a checked code, only while the caller ID is still pending with `seenAttempts` wrong
   * codes (racing checks: one applies, the others read again): verified, or one more wrong attempt,
   * failing it at `maxAttempts`. Undefined when that state changed meanwhile.
   */
  applyCode(workspaceId: string, id: string, seenAttempts: number, outcome: CodeOutcome, now: string): Promise<CallerIdRecord | undefined>;
  /**
   * Deletes at most `limit` caller IDs that failed (last changed) or whose code expired unused
   * before `before`, the oldest first; answers how many.
   */
  pruneUnverifiedCallerIds(before: string, limit: number): Promise<number>;
  /** The workspace's verified caller ID of the number, if any. */
  verifiedCallerId(workspaceId: string, phoneNumber: string): Promise<CallerIdRecord | undefined>;
}

/** A2P campaigns. */
export interface CampaignStore {
  insertCampaign(campaign: CampaignRecord): Promise<CampaignRecord>;
  getCampaign(workspaceId: string, id: string): Promise<CampaignRecord | undefined>;
  listCampaigns(workspaceId: string, page: Page): Promise<{ campaigns: CampaignRecord[]; total: number }>;
  /** A carrier's verdict; only a pending campaign of that connection changes. */
  setCampaignStatus(connectionId: string, id: string, status: 'approved' | 'rejected', reason: string, now: string): Promise<CampaignRecord | undefined>;
}

/** The suppression list. insertSuppression answers 'exists' for a number already on the list. */
export interface SuppressionStore {
  insertSuppression(entry: SuppressionRecord): Promise<{ kind: 'created'; entry: SuppressionRecord } | { kind: 'exists' }>;
  isSuppressed(workspaceId: string, number: string): Promise<boolean>;
  /** The numbers of `numbers` on the workspace's list, each once (a bulk import asks once for all its rows). */
  suppressedAmong(workspaceId: string, numbers: readonly string[]): Promise<string[]>;
  listSuppressions(workspaceId: string, page: Page): Promise<{ entries: SuppressionRecord[]; total: number }>;
  deleteSuppression(workspaceId: string, id: string): Promise<boolean>;
}

/** Sending SMS, with the outbox of their usage events. */
export interface SendStore {
  /**
   * One transaction: a claim under the key decides first (replay, in progress, reused; an
   * expired claim is replaced); then the message (status 'sending') and the claim are written
   * together, before billing is asked for the hold that pays for the message.
   */
  beginSend(message: MessageRecord, claim?: SendClaim): Promise<BeginOutcome>;
  /**
   * What the workspace's claim on the key decides for a new send, read before anything else is
   * checked (replayed, in progress, reused), or undefined when the send goes ahead. beginSend
   * decides again, atomically, for sends racing under one key.
   */
  claimedSend(workspaceId: string, claim: SendClaim): Promise<ClaimOutcome | undefined>;
  /**
   * One transaction: the carrier took the message. It becomes 'queued' with the carrier's id,
   * its claim keeps it as the first response, and the usage event that captures its hold enters
   * the outbox (a free message has none). The delivery reports kept for its carrier id (they came
   * before this was recorded) then move it as applyDelivery would, each move with the event
   * `statusEventOf` makes of it, and are removed; the claim keeps where it ends. Undefined (and
   * nothing written) when the message no longer waits for the carrier: the recovery of interrupted
   * sends settled it first.
   */
  acceptSend(
    messageId: string,
    carrierMessageId: string,
    usageEvent: NewOutboxEvent | undefined,
    now: string,
    statusEventOf: (message: MessageRecord) => NewOutboxEvent,
  ): Promise<MessageRecord | undefined>;
  /**
   * One transaction: the message was not sent (no hold, or the carrier did not take it); the
   * message and its claim disappear, and `releaseEvent` (which releases a hold billing may hold for
   * it) enters the outbox. False (and nothing written) when the message no longer waits.
   */
  abandonSend(messageId: string, releaseEvent?: NewOutboxEvent): Promise<boolean>;
  /** Deletes at most `limit` Idempotency-Key claims made before `createdBefore`, the oldest first; answers how many. */
  pruneSendClaims(createdBefore: string, limit: number): Promise<number>;
}

/** Sends the process stopped in the middle of, and what the carriers say they took. */
export interface InterruptedSendStore {
  /** Messages still 'sending' that were created before the instant, oldest first. */
  interruptedSends(createdBefore: string, limit: number): Promise<MessageRecord[]>;
  /** Those of the carrier ids that no message of the connection (null: the platform's carrier) holds, in the given order. */
  unrecordedCarrierIds(carrierConnectionId: string | null, carrierMessageIds: string[]): Promise<string[]>;
}

/** Sent messages as callers read them, and the carriers' reports on them. */
/** Which messages a list shows. */
export interface MessageFilter {
  status?: MessageStatus;
  /** From or to this E.164 number. */
  number?: string;
  /** Created at or after. */
  createdFrom?: string;
  /** Created before. */
  createdTo?: string;
}

export interface MessageStore {
  /** A message still with the carrier ('sending') is not found: nobody was told its id yet, and it may vanish. */
  getMessage(workspaceId: string, id: string): Promise<MessageRecord | undefined>;
  /** Newest first, 'sending' messages excluded. */
  listMessages(workspaceId: string, filter: MessageFilter, page: Page): Promise<{ messages: MessageRecord[]; total: number }>;
}

/** Carriers' delivery reports. */
export interface DeliveryStore {
  /**
   * A report for (connection or null for the platform's carrier, carrier id).
   * States only move forward (queued < sent < delivered | failed; delivered and failed are final). A move
   * writes the event `eventOf` makes of the moved message to the outbox, in its transaction.
   * Undefined when no message holds the carrier id yet: the report is kept, in the same
   * transaction, for the send's acceptance to apply (a carrier can report before that commits).
   */
  applyDelivery(
    carrierConnectionId: string | null,
    carrierMessageId: string,
    update: DeliveryUpdate,
    eventOf: (message: MessageRecord) => NewOutboxEvent,
  ): Promise<MessageRecord | undefined>;
  /** Deletes at most `limit` kept reports received before `receivedBefore`, the oldest first (their message was never recorded); answers how many. */
  pruneEarlyReports(receivedBefore: string, limit: number): Promise<number>;
}

/** A leg's states are a call's, in the same words. */
export type CallLegStatus = CallStatusName;

/** The carrier side of one call: telephony dials it (or the carrier offers it) and relays what the carrier reports. */
export interface CallLegRecord {
  id: string;
  workspaceId: string;
  /** The calls service's call; null for an inbound leg the calls service has not accepted (yet). */
  callId: string | null;
  direction: 'outbound' | 'inbound';
  /** The workspace number placing or receiving it; null when the platform's carrier places it for a caller ID. */
  numberId: string | null;
  /** The connection whose carrier carries it; null for the platform's carrier. */
  carrierConnectionId: string | null;
  /** The carrier's id of the call (never shown to clients); null until the carrier answered the dial. */
  carrierCallId: string | null;
  /** E.164. */
  from: string;
  to: string;
  maxDurationSeconds: number;
  /** The media parameters (call id, session token) handed to the voice runtime, sealed (SecretBox). */
  sealedMediaParameters: string;
  status: CallLegStatus;
  /** 1 when stored, plus one for every move; orders the leg's CallLegChanged events. */
  sequence: number;
  answeredAt: string | null;
  endedAt: string | null;
  /** The carrier's answered duration once ended (whole seconds). */
  durationSeconds: number;
  failureReason: string;
  createdAt: string;
  updatedAt: string;
}

/** Call legs, and the CallLegChanged events of their moves (in the transaction of each move). */
export interface CallLegStore {
  /** The leg with the event of its first state; 'exists' (nothing written) when the call already has a leg. */
  insertLeg(leg: CallLegRecord, event: NewOutboxEvent | undefined): Promise<{ kind: 'created'; leg: CallLegRecord } | { kind: 'exists'; leg: CallLegRecord }>;
  getLeg(id: string): Promise<CallLegRecord | undefined>;
  getLegOfCall(workspaceId: string, callId: string): Promise<CallLegRecord | undefined>;
  /** The leg the carrier (a connection, or null for the platform's) knows by this id. */
  getLegByCarrierCallId(carrierConnectionId: string | null, carrierCallId: string): Promise<CallLegRecord | undefined>;
  /**
   * An inbound leg the calls service took: it gets its call and media parameters, only while it has
   * no call yet and has not ended. The leg as stored after; undefined when it did not change.
   */
  attachCall(id: string, callId: string, sealedMediaParameters: string, now: string): Promise<CallLegRecord | undefined>;
  /** Records the carrier's id of the call once (a leg that has one keeps it); the leg as stored after. */
  recordCarrierCallId(id: string, carrierCallId: string, now: string): Promise<CallLegRecord | undefined>;
  /**
   * One transaction: moves the leg forward (domain/call-legs advancedLeg) and writes the event made
   * from the moved leg. Undefined (nothing written) when the change does not move it forward.
   */
  advanceLeg(id: string, change: LegChange, eventOf: (leg: CallLegRecord) => NewOutboxEvent | undefined): Promise<CallLegRecord | undefined>;
}

/** The outbox the relay drains (usage events: captures and releases of holds). */
export interface OutboxStore {
  readonly outbox: PrunableOutbox;
}

/** The whole store: every part on one database, which close() lets go of. */
export type TelephonyStore = NumberStore &
  RenewalStore &
  ConnectionStore &
  SipTrunkStore &
  CallerIdStore &
  CampaignStore &
  SuppressionStore &
  SendStore &
  InterruptedSendStore &
  MessageStore &
  DeliveryStore &
  CallLegStore &
  OutboxStore & {
    close(): Promise<void>;
  };
