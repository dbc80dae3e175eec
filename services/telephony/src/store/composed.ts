// The telephony store as one object over its per-concern parts; each adapter builds the parts on
// its own connection, and owns the outbox and closing.
import type { NewOutboxEvent, OutboxReader } from '@voice/runtime/events';
import type { Page } from '@voice/runtime/validation';
import type {
  CampaignRecord,
  ConnectionChanges,
  ConnectionRecord,
  DeliveryUpdate,
  MessageRecord,
  MessageStatus,
  NumberChanges,
  NumberRecord,
  SendClaim,
  SuppressionRecord,
  TelephonyStore,
} from './store.js';
import type { BeginOutcome, ClaimOutcome } from './store.js';

export type NumberStore = Pick<
  TelephonyStore,
  'insertNumber' | 'getNumber' | 'listNumbers' | 'heldNumbers' | 'updateNumber' | 'deleteNumber' | 'dueRenewals' | 'renewNumber' | 'markPastDue' | 'deleteUnpaidNumber'
>;
export type ConnectionStore = Pick<
  TelephonyStore,
  'insertConnection' | 'getConnection' | 'getConnectionById' | 'listConnections' | 'updateConnection' | 'deleteConnection'
>;
export type CampaignStore = Pick<TelephonyStore, 'insertCampaign' | 'getCampaign' | 'listCampaigns' | 'setCampaignStatus'>;
export type SuppressionStore = Pick<TelephonyStore, 'insertSuppression' | 'isSuppressed' | 'listSuppressions' | 'deleteSuppression'>;
export type SmsStore = Pick<
  TelephonyStore,
  'beginSend' | 'claimedSend' | 'acceptSend' | 'abandonSend' | 'interruptedSends' | 'unrecordedCarrierIds' | 'getMessage' | 'listMessages' | 'applyDelivery'
>;

export interface TelephonyStoreParts {
  numbers: NumberStore;
  connections: ConnectionStore;
  campaigns: CampaignStore;
  suppressions: SuppressionStore;
  sms: SmsStore;
}

export abstract class ComposedTelephonyStore implements TelephonyStore {
  abstract readonly outbox: OutboxReader;

  protected constructor(private readonly parts: TelephonyStoreParts) {}

  insertNumber(number: NumberRecord, usageEvent?: NewOutboxEvent): Promise<{ kind: 'created'; number: NumberRecord } | { kind: 'number_taken' }> {
    return this.parts.numbers.insertNumber(number, usageEvent);
  }

  dueRenewals(now: string, limit: number): Promise<NumberRecord[]> {
    return this.parts.numbers.dueRenewals(now, limit);
  }

  renewNumber(id: string, dueAt: string, nextAt: string, usageEvent: NewOutboxEvent | undefined, now: string): Promise<NumberRecord | undefined> {
    return this.parts.numbers.renewNumber(id, dueAt, nextAt, usageEvent, now);
  }

  markPastDue(id: string, dueAt: string, now: string): Promise<NumberRecord | undefined> {
    return this.parts.numbers.markPastDue(id, dueAt, now);
  }

  deleteUnpaidNumber(id: string, dueAt: string): Promise<boolean> {
    return this.parts.numbers.deleteUnpaidNumber(id, dueAt);
  }

  getNumber(workspaceId: string, id: string): Promise<NumberRecord | undefined> {
    return this.parts.numbers.getNumber(workspaceId, id);
  }

  listNumbers(workspaceId: string, page: Page): Promise<{ numbers: NumberRecord[]; total: number }> {
    return this.parts.numbers.listNumbers(workspaceId, page);
  }

  heldNumbers(numbers: string[]): Promise<Set<string>> {
    return this.parts.numbers.heldNumbers(numbers);
  }

  updateNumber(workspaceId: string, id: string, changes: NumberChanges, now: string): Promise<NumberRecord | undefined> {
    return this.parts.numbers.updateNumber(workspaceId, id, changes, now);
  }

  deleteNumber(workspaceId: string, id: string): Promise<boolean> {
    return this.parts.numbers.deleteNumber(workspaceId, id);
  }

  insertConnection(connection: ConnectionRecord): Promise<ConnectionRecord> {
    return this.parts.connections.insertConnection(connection);
  }

  getConnection(workspaceId: string, id: string): Promise<ConnectionRecord | undefined> {
    return this.parts.connections.getConnection(workspaceId, id);
  }

  getConnectionById(id: string): Promise<ConnectionRecord | undefined> {
    return this.parts.connections.getConnectionById(id);
  }

  listConnections(workspaceId: string, page: Page): Promise<{ connections: ConnectionRecord[]; total: number }> {
    return this.parts.connections.listConnections(workspaceId, page);
  }

  updateConnection(workspaceId: string, id: string, changes: ConnectionChanges, now: string): Promise<ConnectionRecord | undefined> {
    return this.parts.connections.updateConnection(workspaceId, id, changes, now);
  }

  deleteConnection(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'> {
    return this.parts.connections.deleteConnection(workspaceId, id);
  }

  insertCampaign(campaign: CampaignRecord): Promise<CampaignRecord> {
    return this.parts.campaigns.insertCampaign(campaign);
  }

  getCampaign(workspaceId: string, id: string): Promise<CampaignRecord | undefined> {
    return this.parts.campaigns.getCampaign(workspaceId, id);
  }

  listCampaigns(workspaceId: string, page: Page): Promise<{ campaigns: CampaignRecord[]; total: number }> {
    return this.parts.campaigns.listCampaigns(workspaceId, page);
  }

  setCampaignStatus(connectionId: string, id: string, status: 'approved' | 'rejected', reason: string, now: string): Promise<CampaignRecord | undefined> {
    return this.parts.campaigns.setCampaignStatus(connectionId, id, status, reason, now);
  }

  insertSuppression(entry: SuppressionRecord): Promise<{ kind: 'created'; entry: SuppressionRecord } | { kind: 'exists' }> {
    return this.parts.suppressions.insertSuppression(entry);
  }

  isSuppressed(workspaceId: string, number: string): Promise<boolean> {
    return this.parts.suppressions.isSuppressed(workspaceId, number);
  }

  listSuppressions(workspaceId: string, page: Page): Promise<{ entries: SuppressionRecord[]; total: number }> {
    return this.parts.suppressions.listSuppressions(workspaceId, page);
  }

  deleteSuppression(workspaceId: string, id: string): Promise<boolean> {
    return this.parts.suppressions.deleteSuppression(workspaceId, id);
  }

  beginSend(message: MessageRecord, claim?: SendClaim): Promise<BeginOutcome> {
    return this.parts.sms.beginSend(message, claim);
  }

  acceptSend(messageId: string, carrierMessageId: string, usageEvent: NewOutboxEvent | undefined, now: string): Promise<MessageRecord | undefined> {
    return this.parts.sms.acceptSend(messageId, carrierMessageId, usageEvent, now);
  }

  abandonSend(messageId: string, releaseEvent?: NewOutboxEvent): Promise<boolean> {
    return this.parts.sms.abandonSend(messageId, releaseEvent);
  }

  claimedSend(workspaceId: string, claim: SendClaim): Promise<ClaimOutcome | undefined> {
    return this.parts.sms.claimedSend(workspaceId, claim);
  }

  interruptedSends(createdBefore: string, limit: number): Promise<MessageRecord[]> {
    return this.parts.sms.interruptedSends(createdBefore, limit);
  }

  unrecordedCarrierIds(carrierConnectionId: string | null, carrierMessageIds: string[]): Promise<string[]> {
    return this.parts.sms.unrecordedCarrierIds(carrierConnectionId, carrierMessageIds);
  }

  getMessage(workspaceId: string, id: string): Promise<MessageRecord | undefined> {
    return this.parts.sms.getMessage(workspaceId, id);
  }

  listMessages(workspaceId: string, filter: { status?: MessageStatus }, page: Page): Promise<{ messages: MessageRecord[]; total: number }> {
    return this.parts.sms.listMessages(workspaceId, filter, page);
  }

  applyDelivery(carrierConnectionId: string | null, carrierMessageId: string, update: DeliveryUpdate): Promise<MessageRecord | undefined> {
    return this.parts.sms.applyDelivery(carrierConnectionId, carrierMessageId, update);
  }

  abstract close(): Promise<void>;
}
